import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/** A connect-style handler; without `next`, paths it does not serve get a 404. */
export type Handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface Body {
  text: string;
  size: number;
  tooLarge: boolean;
  /** SHA-256 (hex) of the bytes as received, over the limit or not. */
  sha256: string;
}

/** Reads the whole body, keeping at most `limit` bytes; the rest is drained so the socket stays usable. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
    if (size <= limit) chunks.push(chunk);
  }
  const tooLarge = size > limit;
  const text = tooLarge ? '' : Buffer.concat(chunks).toString('utf8');
  return { text, size, tooLarge, sha256: hash.digest('hex') };
}

/**
 * A request a browser sent from another site: `Sec-Fetch-Site: cross-site`, or an `Origin` whose host
 * is not the one the request was sent to (`Origin: null` included). Requests without either header
 * (curl, SDKs, the page's own same-origin GETs) are not.
 */
function isCrossSite(req: IncomingMessage): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    const from = new URL(origin);
    // Parsed with the origin's scheme so a default port written out (`host:80`) still matches.
    return from.host !== new URL(`${from.protocol}//${req.headers.host ?? ''}`).host;
  } catch {
    return true;
  }
}

/** The name in a `Host` header (`[::1]:8787` → `::1`), lower-cased; `undefined` when it is not a host. */
export function hostName(host: string | undefined): string | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+))(?::\d{1,5})?$/i.exec(host ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase().replace(/\.$/, '') : undefined;
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/**
 * Whether a server bound to `boundHost` should answer a request sent with this `Host` header. A page
 * that rebinds its own domain name to this machine's address (DNS rebinding) becomes same-origin
 * with the server, so the `Origin` check alone cannot stop it; its `Host` still names its own domain.
 * Accepted: loopback names (`localhost`, `*.localhost`, `127.x.x.x`, `::1`), `boundHost` itself, the
 * `extra` names, and, when bound to every interface (`0.0.0.0`, `::`), any IP address (a page cannot
 * rebind an address, only a name).
 */
export function isAllowedHost(
  host: string | undefined,
  boundHost: string,
  extra: readonly string[] = [],
): boolean {
  const name = hostName(host);
  if (name === undefined) return false;
  if (name === 'localhost' || name.endsWith('.localhost') || name === '::1') return true;
  if (isIP(name) === 4 && name.startsWith('127.')) return true;
  const bound = boundHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === bound || extra.includes(name)) return true;
  return WILDCARD_ADDRESSES.has(bound) && isIP(name) !== 0;
}

export function isJsonContentType(value: string | undefined): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

const ALLOWED_HEADERS =
  'authorization, content-type, x-api-key, anthropic-version, anthropic-beta, ' +
  'anthropic-dangerous-direct-browser-access, openai-organization, openai-project';

/**
 * For endpoints only the server's own pages may use (the simulator's test hooks): drops any CORS
 * header an earlier middleware set (Vite's own `cors` answers localhost origins) and refuses a
 * cross-site request with 403. Returns whether the request may go on.
 */
export function sameOriginOnly(req: IncomingMessage, res: ServerResponse): boolean {
  for (const name of res.getHeaderNames()) if (name.startsWith('access-control-')) res.removeHeader(name);
  if (!isCrossSite(req)) return true;
  sendJson(res, 403, { error: `${req.method} ${req.url} answers same-origin requests only.` });
  return false;
}

/** Lets a page on another origin call the gateway (`/v1` only) and read the headers a client needs for retries. */
export function applyCors(res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', 'retry-after, x-request-id, request-id, x-should-retry');
}

export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    // Echo what the browser asks for: the SDKs add x-stainless-* headers that change between versions.
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? ALLOWED_HEADERS,
    'access-control-max-age': '86400',
  });
  res.end();
}
