import { resolve } from 'node:path';

/**
 * Everything the server and the dev proxy read from the environment, checked once. Error messages
 * name the variable and what is wrong with it, never its value when that could hold a secret.
 */

/** The real gateway, split so its credentials can be used without ever being shown. */
export interface GatewayTarget {
  /** `scheme://host[:port]/path` with no user, password, query or fragment: safe to show. */
  display: string;
  /** The URL requests are built from: `display` plus the query of HOPBASE_BASE_URL, if any. */
  url: URL;
  /** `Authorization: Basic …` from `https://user:pass@…`, used when no API key is set. */
  basicAuth?: string | undefined;
  /** Secrets to scrub from whatever the gateway sends back in an error: the password, query values. */
  secrets: string[];
}

export interface ProxyConfig {
  target: GatewayTarget;
  /** Added on the server side as `Authorization: Bearer` and `x-api-key`. */
  apiKey?: string | undefined;
  /** `HOPBASE_PROXY_ALLOW_NO_ORIGIN=1`: requests with no `Origin` (curl, scripts) may use the key. */
  allowNoOrigin: boolean;
  /** Request bodies above this size get 413 and are never forwarded. */
  maxBodyBytes: number;
}

export interface ServerConfig {
  host: string;
  port: number;
  /** The built app (`vite build`'s output). */
  distDir: string;
  /** `undefined`: the built-in simulator answers `/v1`. */
  proxy?: ProxyConfig | undefined;
  /** Origins added to the page's `connect-src` (direct-to-gateway mode), from HOPBASE_CONNECT_SRC. */
  connectSrc: string[];
  /** Host names accepted in `Host` besides loopback names, IP addresses and `host`, from HOPBASE_ALLOWED_HOSTS. */
  allowedHosts: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Large enough for a few images as base64 in one request. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

function flag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

export function list(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((item) => item !== '');
}

/** Parses HOPBASE_BASE_URL. The thrown message never repeats the value: it may hold a password. */
export function parseGatewayUrl(raw: string): GatewayTarget {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(
      'HOPBASE_BASE_URL is not a valid URL (expected e.g. https://gateway.example.com/v1).',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`HOPBASE_BASE_URL must use http or https, not ${url.protocol.replace(':', '')}.`);
  }
  const secrets: string[] = [];
  let basicAuth: string | undefined;
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    basicAuth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    secrets.push(url.username, url.password, user, password, basicAuth.slice('Basic '.length));
  }
  for (const [, value] of url.searchParams) secrets.push(value, encodeURIComponent(value));
  if (url.search) secrets.push(url.search.slice(1));
  const display = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const clean = new URL(display);
  clean.search = url.search;
  return {
    display,
    url: clean,
    basicAuth,
    // Short values (a one-letter user) would scrub ordinary words: keep the ones worth hiding.
    secrets: [...new Set(secrets.filter((s) => s.length >= 4))],
  };
}

/** An origin for `connect-src`: `https://gateway.example.com`, `https://*.example.com:8443`, `wss://…`. */
const CSP_ORIGIN = /^(https?|wss?):\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?\/?$/i;

export function parseConnectSrc(value: string | undefined): string[] {
  return list(value).map((entry) => {
    if (!CSP_ORIGIN.test(entry)) {
      throw new ConfigError(
        `HOPBASE_CONNECT_SRC: "${entry}" is not an origin (expected scheme://host[:port], e.g. https://gateway.example.com).`,
      );
    }
    return entry.replace(/\/$/, '').toLowerCase();
  });
}

export function proxyConfigFromEnv(env: NodeJS.ProcessEnv): ProxyConfig | undefined {
  const baseUrl = env.HOPBASE_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  const target = parseGatewayUrl(baseUrl);
  const apiKey = env.HOPBASE_API_KEY?.trim() || undefined;
  if (apiKey && target.basicAuth) {
    throw new ConfigError(
      'HOPBASE_BASE_URL carries a user and password and HOPBASE_API_KEY is set: both would need the Authorization header. Keep one.',
    );
  }
  return {
    target,
    apiKey,
    allowNoOrigin: flag(env.HOPBASE_PROXY_ALLOW_NO_ORIGIN),
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  };
}

export function serverConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a port number (0–65535), not "${env.PORT}".`);
  }
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port,
    distDir: resolve(env.HOPBASE_DIST_DIR?.trim() || 'dist'),
    proxy: proxyConfigFromEnv(env),
    connectSrc: parseConnectSrc(env.HOPBASE_CONNECT_SRC),
    allowedHosts: list(env.HOPBASE_ALLOWED_HOSTS).map((h) => h.toLowerCase()),
  };
}
