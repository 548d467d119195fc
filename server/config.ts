import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { PriceTable } from '../src/core/prices.ts';
import { DEFAULT_RELAY_SETTINGS, type RelaySettings } from './relay/relay.ts';

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
  /** Request bodies above this size get 413; the gateway's request is cancelled. */
  maxBodyBytes: number;
  /** A request body that pauses this long gets 408 (a client that went quiet, or one byte at a time). */
  bodyIdleTimeoutMs: number;
}

/** What one client, and all of them together, may hold of the server (README, "Deploy"). */
export interface ServerLimits {
  /** `/v1` requests in flight at once, in total (503 past it) and from one client address (429). */
  maxRequests: number;
  maxRequestsPerClient: number;
  /** Time to send the request's headers, then to send the whole request (headers and body). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
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
  limits: ServerLimits;
  /** The answers the server runs (`relay/relay.ts`); unset: the defaults. */
  relay?: Partial<RelaySettings> | undefined;
  /** The price table `GET /api/prices` serves (`prices.ts`, `pricesFromEnv`); unset: none. */
  prices?: PriceTable | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Large enough for a few images as base64 in one request. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 15_000;

export const DEFAULT_LIMITS: ServerLimits = {
  // Streams cost well under 100 kB each (docs/performance.md): 2,048 of them fit in a small container.
  maxRequests: 2048,
  // A person's tabs; a team behind one reverse proxy shares its address and needs this raised.
  maxRequestsPerClient: 32,
  headersTimeoutMs: 10_000,
  // A 32 MB body at 2 Mbit/s, with room to spare; the answer's streaming is not counted.
  requestTimeoutMs: 180_000,
};

/** A whole number from the environment, at least `min`; the message names the variable. */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, not "${raw}".`);
  }
  return value;
}

function limitsFromEnv(env: NodeJS.ProcessEnv): ServerLimits {
  return {
    maxRequests: integer(env, 'HOPBASE_MAX_REQUESTS', DEFAULT_LIMITS.maxRequests),
    maxRequestsPerClient: integer(
      env,
      'HOPBASE_MAX_REQUESTS_PER_CLIENT',
      DEFAULT_LIMITS.maxRequestsPerClient,
    ),
    headersTimeoutMs: integer(env, 'HOPBASE_HEADERS_TIMEOUT_MS', DEFAULT_LIMITS.headersTimeoutMs, 100),
    requestTimeoutMs: integer(env, 'HOPBASE_REQUEST_TIMEOUT_MS', DEFAULT_LIMITS.requestTimeoutMs, 100),
  };
}

/** What one signed-in person may use of the gateway in team mode (README, "Deploy"); 0: no limit. */
export interface PersonLimits {
  /** `/v1` requests that ask a model (not the model list) started in any minute. */
  readonly requestsPerMinute: number;
  /** Input and output tokens of the attempts started on one day (UTC). */
  readonly tokensPerDay: number;
}

const PERSON_LIMITS = {
  requestsPerMinute: 'HOPBASE_USER_REQUESTS_PER_MINUTE',
  tokensPerDay: 'HOPBASE_USER_TOKENS_PER_DAY',
} as const;

/**
 * The per-person limits. They count signed-in people, so they need team mode: set without it they would
 * limit nobody, and the server says so rather than start.
 */
export function personLimitsFromEnv(env: NodeJS.ProcessEnv, teamMode: boolean): PersonLimits {
  const limits: PersonLimits = {
    requestsPerMinute: integer(env, PERSON_LIMITS.requestsPerMinute, 0, 0),
    tokensPerDay: integer(env, PERSON_LIMITS.tokensPerDay, 0, 0),
  };
  const set = Object.entries(PERSON_LIMITS)
    .filter(([key]) => limits[key as keyof PersonLimits] > 0)
    .map(([, name]) => name);
  if (!teamMode && set.length > 0)
    throw new ConfigError(
      `${set.join(' and ')} limit${set.length > 1 ? '' : 's'} each signed-in person: set HOPBASE_AUTH (team mode) too, or unset ${set.length > 1 ? 'them' : 'it'}.`,
    );
  return limits;
}

function flag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

export function list(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((item) => item !== '');
}

/**
 * The ways a query value can be written: as is, percent-decoded, percent-encoded (URI component style
 * and form style, `+` for a space), with upper- or lower-case hex digits.
 */
function encodings(value: string): string[] {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    // Not valid percent-encoding: the value as written is what there is.
  }
  const forms = [
    value,
    decoded,
    encodeURIComponent(decoded),
    new URLSearchParams({ v: decoded }).toString().slice(2),
  ];
  return [...forms, ...forms.map((form) => form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()))];
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
  // The query reaches the gateway exactly as written here, but a gateway's error may echo it decoded
  // or encoded its own way: every form of every value goes.
  for (const [, value] of url.searchParams) secrets.push(...encodings(value));
  for (const pair of url.search.slice(1).split('&'))
    secrets.push(...encodings(pair.slice(pair.indexOf('=') + 1)));
  if (url.search) secrets.push(...encodings(url.search.slice(1)));
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
    maxBodyBytes: integer(env, 'HOPBASE_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES),
    bodyIdleTimeoutMs: integer(env, 'HOPBASE_BODY_IDLE_TIMEOUT_MS', DEFAULT_BODY_IDLE_TIMEOUT_MS, 100),
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
    limits: limitsFromEnv(env),
    relay: relaySettingsFromEnv(env),
  };
}

/** How much of the answers it runs the server keeps, and how long (README, "Deploy"). */
function relaySettingsFromEnv(env: NodeJS.ProcessEnv): RelaySettings {
  const d = DEFAULT_RELAY_SETTINGS;
  return {
    maxAnswerBytes: integer(env, 'HOPBASE_RELAY_MAX_ANSWER_BYTES', d.maxAnswerBytes, 1024),
    memoryBytes: integer(env, 'HOPBASE_RELAY_MEMORY_BYTES', d.memoryBytes, 1024),
    keepMs: integer(env, 'HOPBASE_RELAY_KEEP_MS', d.keepMs, 1000),
    graceMs: d.graceMs,
    heartbeatMs: d.heartbeatMs,
    staleMs: d.staleMs,
  };
}

function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
}

/**
 * What to say at start when the server listens beyond this machine with no authentication: the Origin
 * check stops other sites' pages, not a person who sends the headers a page would (README, "Deploy").
 */
export function exposureWarning(config: ServerConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (isLoopback(config.host) || env.HOPBASE_AUTH?.trim()) return undefined;
  return (
    `hopbase-chat: warning: listening on ${config.host} with no authentication (HOPBASE_AUTH is unset). ` +
    'The Origin check is not authentication: anyone who can reach this port can use the server, and ' +
    'the gateway key with it. Bind HOST to 127.0.0.1, or put the server behind authentication.'
  );
}
