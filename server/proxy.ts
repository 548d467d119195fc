import { once } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import {
  type ErrorFamily,
  type ErrorKind,
  errorBody,
  familyForPath,
  requestIdFor,
} from '../simulator/errors.ts';
import { type Handler, sendJson } from '../simulator/http.ts';
import type { ProxyConfig } from './config.ts';
import { isAmbiguousPath, requestSource } from './security.ts';

/**
 * The `/v1` proxy of the dev server (Vite plugin) and the production server: forwards the app's four
 * gateway calls to the real gateway with the key added on the server side, streaming the answer through
 * as it arrives. Because it spends the operator's key, it is no open relay: only the app's own calls,
 * only from the app's own page, bodies capped, and the key (and any credentials in HOPBASE_BASE_URL)
 * never appears in a response, an error message or a log line.
 */

/** What the app calls, and nothing else. */
const PROXIED_ROUTES: Readonly<Record<string, 'GET' | 'POST'>> = {
  '/v1/chat/completions': 'POST',
  '/v1/responses': 'POST',
  '/v1/messages': 'POST',
  '/v1/models': 'GET',
};

/** An upstream error body larger than this is not read for scrubbing; the request fails with 502. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** Request headers that describe this hop or the browser, not the API call. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'content-length',
  'accept-encoding',
  'origin',
  'referer',
  'cookie',
  'forwarded',
]);

/** fetch() already decoded the body and we re-chunk it, so these would be wrong downstream. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'set-cookie',
]);

export interface GatewayProxyOptions extends ProxyConfig {
  /** Where refusals and failures are reported (one line each, never with a credential). */
  log?: ((line: string) => void) | undefined;
}

/** Replaces every secret in `text` by `[redacted]`; longest first so a secret inside another goes too. */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function upstreamHeaders(
  incoming: IncomingHttpHeaders,
  options: GatewayProxyOptions,
): Record<string, string> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name)) continue;
    if (name.startsWith('sec-') || name.startsWith('x-forwarded-') || name.startsWith('proxy-')) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (options.apiKey) {
    headers.authorization = `Bearer ${options.apiKey}`;
    headers['x-api-key'] = options.apiKey;
  } else if (options.target.basicAuth) {
    headers.authorization = options.target.basicAuth;
  }
  return headers;
}

/** The gateway URL for an allowed path: the base (with or without `/v1`), its query, then the request's. */
export function upstreamUrl(base: URL, path: string, search: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = prefix.endsWith('/v1') ? `${prefix}${path.slice('/v1'.length)}` : `${prefix}${path}`;
  for (const [name, value] of new URLSearchParams(search)) url.searchParams.append(name, value);
  return url;
}

type BodyOutcome = { kind: 'ok'; body: Buffer<ArrayBuffer> } | { kind: 'too-large'; size: number };

/**
 * Reads the body, at most `limit` bytes. Past it, the rest is read and thrown away so the client gets
 * to read the 413 (a client still sending would otherwise see a reset), up to 4 × `limit`, after
 * which the connection is dropped.
 */
async function readCapped(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > 4 * limit) return { kind: 'too-large', size: declared };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    else if (size > 4 * limit) break;
  }
  return size > limit ? { kind: 'too-large', size } : { kind: 'ok', body: Buffer.concat(chunks) };
}

/** Reads a whole (error) body, or `undefined` past `limit`. */
async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.length;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

function errorCode(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (typeof cause?.code === 'string') return cause.code;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    return error.name;
  }
  return 'unknown error';
}

/** `/v1` requests the proxy serves; the rest goes to `next` (or gets a 404). */
export function isGatewayPath(rawPath: string): boolean {
  return rawPath === '/v1' || rawPath.startsWith('/v1/');
}

export function createGatewayProxy(options: GatewayProxyOptions): Handler {
  const secrets = [...(options.apiKey ? [options.apiKey] : []), ...options.target.secrets];
  const log = (line: string) => options.log?.(scrub(line, secrets));

  const fail = (
    req: IncomingMessage,
    res: ServerResponse,
    family: ErrorFamily,
    status: number,
    kind: ErrorKind,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    const requestId = requestIdFor(family);
    const text = scrub(message, secrets);
    if (status >= 500) log(`proxy: ${req.method} ${req.url} → ${status}: ${text}`);
    sendJson(res, status, errorBody(family, { status, kind, message: text }, requestId.value), {
      [requestId.header]: requestId.value,
      ...headers,
    });
  };

  async function forward(req: IncomingMessage, res: ServerResponse, path: string, search: string) {
    const family = familyForPath(path);
    const controller = new AbortController();
    // The browser went away (or stopped the answer): stop the upstream generation too.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    let body: Buffer<ArrayBuffer> | undefined;
    if (req.method === 'POST') {
      const read = await readCapped(req, options.maxBodyBytes);
      if (read.kind === 'too-large') {
        const message = `Request body of ${read.size} bytes exceeds this proxy's limit of ${options.maxBodyBytes} bytes.`;
        fail(req, res, family, 413, 'too_large', message, { connection: 'close' });
        return;
      }
      body = read.body;
    }
    if (controller.signal.aborted) return;
    try {
      const upstream = await fetch(upstreamUrl(options.target.url, path, search), {
        method: req.method,
        headers: upstreamHeaders(req.headers, options),
        body,
        signal: controller.signal,
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = scrub(value, secrets);
      });
      if (upstream.status >= 400 && upstream.body) {
        // Error bodies are small: read them whole and scrub the key, in case the gateway echoes it.
        const text = await readLimited(upstream.body, MAX_ERROR_BODY_BYTES);
        if (text === undefined) throw new Error(`error body over ${MAX_ERROR_BODY_BYTES} bytes`);
        const scrubbed = scrub(text.toString('utf8'), secrets);
        res.writeHead(upstream.status, { ...headers, 'content-length': String(Buffer.byteLength(scrubbed)) });
        res.end(scrubbed);
        return;
      }
      res.writeHead(upstream.status, headers);
      res.flushHeaders();
      if (upstream.body) {
        const reader = upstream.body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          // Each chunk goes out as it arrives (no buffering), pausing only for backpressure.
          if (!res.write(chunk.value)) await once(res, 'drain', { signal: controller.signal });
        }
      }
      res.end();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (res.headersSent) {
        // The gateway cut the stream: cut ours the same way so the client sees it.
        log(`proxy: ${req.method} ${path}: the gateway's answer broke off (${errorCode(error)})`);
        res.destroy();
        return;
      }
      const message = `Could not reach the HopBase gateway at ${options.target.display} (${errorCode(error)}).`;
      fail(req, res, family, 502, 'server', message);
    }
  }

  return (req, res, next) => {
    const raw = req.url ?? '/';
    const queryAt = raw.indexOf('?');
    const path = queryAt < 0 ? raw : raw.slice(0, queryAt);
    const search = queryAt < 0 ? '' : raw.slice(queryAt);
    if (!isGatewayPath(path)) {
      if (next) next();
      else sendJson(res, 404, { error: 'Not found' });
      return;
    }
    const family = familyForPath(path);
    if (isAmbiguousPath(path)) {
      const message =
        'Encoded slashes, encoded dots, backslashes, empty and dot segments are not allowed in the path.';
      fail(req, res, family, 400, 'invalid_request', message);
      return;
    }
    const method = PROXIED_ROUTES[path];
    if (method === undefined) {
      const allowed = Object.entries(PROXIED_ROUTES).map(([p, m]) => `${m} ${p}`);
      fail(
        req,
        res,
        family,
        404,
        'not_found',
        `Not proxied: ${path}. This proxy forwards ${allowed.join(', ')}.`,
      );
      return;
    }
    if (req.method !== method) {
      fail(
        req,
        res,
        family,
        405,
        'invalid_request',
        `${req.method} is not allowed on ${path}: use ${method}.`,
        {
          allow: method,
        },
      );
      return;
    }
    const source = requestSource(req);
    if (source === 'cross-site') {
      const message = `Cross-site request refused: this proxy adds the server's API key and serves only pages of its own origin (${req.headers.host ?? 'unknown host'}).`;
      fail(req, res, family, 403, 'permission', message);
      return;
    }
    if (source === 'no-origin' && !options.allowNoOrigin) {
      const message =
        "Request without Origin refused: this proxy adds the server's API key and serves only the app's own page. Set HOPBASE_PROXY_ALLOW_NO_ORIGIN=1 on the server to let other clients (curl, SDKs) use it.";
      fail(req, res, family, 403, 'permission', message);
      return;
    }
    void forward(req, res, path, search);
  };
}
