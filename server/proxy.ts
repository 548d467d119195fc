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

/**
 * Request headers that describe the API call, the only ones forwarded. Not the browser's or this hop's
 * (cookies, origin, addresses, `expect`), not the ones that pick another account (`openai-organization`,
 * `openai-project`) or another method (`x-http-method-override`): the operator's key decides those.
 */
const FORWARDED_REQUEST_HEADERS = new Set([
  'content-type',
  'accept',
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
  'idempotency-key',
  'x-request-id',
  'x-client-request-id',
]);

/**
 * Response headers a client needs: the type, the request's id, rate limits and when to retry. Nothing
 * else, so no gateway header can replace the server's own (CSP, framing, CORS) or set a cookie; the
 * body is decoded by fetch, so no length or encoding either.
 */
const PASSED_RESPONSE_HEADERS = new Set([
  'content-type',
  'x-request-id',
  'request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
]);
const PASSED_RESPONSE_PREFIXES = ['x-ratelimit-', 'anthropic-ratelimit-', 'ratelimit'];

function passesResponseHeader(name: string): boolean {
  return PASSED_RESPONSE_HEADERS.has(name) || PASSED_RESPONSE_PREFIXES.some((p) => name.startsWith(p));
}

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
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = incoming[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (options.apiKey) {
    headers.authorization = `Bearer ${options.apiKey}`;
    headers['x-api-key'] = options.apiKey;
  } else if (options.target.basicAuth) {
    headers.authorization = options.target.basicAuth;
  }
  return headers;
}

/**
 * The names of the operator's query parameters (HOPBASE_BASE_URL's) that a client's query also names,
 * compared decoded and case-blind: a gateway may read either copy, so a client may not add one.
 */
export function operatorParamsNamed(base: URL, search: string): string[] {
  const fixed = new Set([...base.searchParams.keys()].map((name) => name.toLowerCase()));
  return [...new Set([...new URLSearchParams(search).keys()])].filter((name) =>
    fixed.has(name.toLowerCase()),
  );
}

/**
 * The gateway URL for an allowed path: the base (with or without `/v1`), then its query exactly as the
 * operator wrote it (never re-encoded, so it is the very string the scrubbing knows), then the client's.
 */
export function upstreamUrl(base: URL, path: string, search: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = prefix.endsWith('/v1') ? `${prefix}${path.slice('/v1'.length)}` : `${prefix}${path}`;
  const client = new URLSearchParams(search).toString();
  if (client) url.search = url.search ? `${url.search}&${client}` : `?${client}`;
  return url;
}

export type BodyProblem = 'too-large' | 'idle';

/**
 * The request body as a stream for fetch, counted and paced by the client: nothing is held beyond the
 * stream's small buffer, whatever the body's size. After `idleMs` with no byte, or past `limit` bytes,
 * the stream fails (so fetch cancels the gateway's request) and `refuse` is called once: at once for an
 * idle client; for a body too large once the client has sent the rest (thrown away: see `discard`).
 */
function countedBody(
  req: IncomingMessage,
  limit: number,
  idleMs: number,
  refuse: (problem: BodyProblem, size: number) => void,
): ReadableStream<Uint8Array> {
  let size = 0;
  let failed = false;
  let timer: NodeJS.Timeout | undefined;
  let arm = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (problem: BodyProblem) => {
          failed = true;
          clearTimeout(timer);
          req.off('data', onData);
          controller.error(new Error(`request body ${problem}`));
          if (problem === 'idle') refuse(problem, size);
          else discard(req, 4 * limit - size, () => refuse(problem, size));
          req.resume();
        };
        // The clock runs only while we wait for the client, not while the gateway is slow to take more.
        arm = () => {
          clearTimeout(timer);
          if (!failed) timer = setTimeout(() => fail('idle'), idleMs);
        };
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            fail('too-large');
            return;
          }
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) > 0) arm();
          else {
            clearTimeout(timer);
            req.pause();
          }
        };
        req.on('data', onData);
        req.on('end', () => {
          clearTimeout(timer);
          if (!failed) controller.close();
        });
        req.on('error', (error) => {
          clearTimeout(timer);
          if (!failed) controller.error(error);
        });
      },
      pull() {
        if (req.readableEnded) return;
        arm();
        req.resume();
      },
      cancel() {
        // The gateway answered without reading it all: the rest is not needed.
        failed = true;
        clearTimeout(timer);
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** Reads what the client sends and throws it away; `then` once it has all come, or past `max` bytes. */
function discard(req: IncomingMessage, max: number, then: () => void): void {
  let size = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    then();
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > max) finish();
  });
  req.on('end', finish);
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
    // Already answered (the request's timeout, by the server): this connection is done with.
    if (res.headersSent) {
      res.destroy();
      return;
    }
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
    let refused = false;
    let body: ReadableStream<Uint8Array> | undefined;
    if (req.method === 'POST') {
      const limit = options.maxBodyBytes;
      const tooLarge = (size: number) => {
        const message = `Request body of ${size} bytes exceeds this proxy's limit of ${limit} bytes.`;
        fail(req, res, family, 413, 'too_large', message, { connection: 'close' });
      };
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        // Never sent on: read and thrown away (up to 4 × the limit) so the client gets to read the 413.
        if (declared > 4 * limit) tooLarge(declared);
        else discard(req, 4 * limit, () => tooLarge(declared));
        return;
      }
      body = countedBody(req, limit, options.bodyIdleTimeoutMs, (problem, size) => {
        refused = true;
        controller.abort();
        if (res.headersSent) res.destroy();
        else if (problem === 'too-large') tooLarge(size);
        else {
          const message = `The request body stopped arriving: nothing for ${options.bodyIdleTimeoutMs} ms.`;
          fail(req, res, family, 408, 'invalid_request', message, { connection: 'close' });
        }
      });
    }
    try {
      const upstream = await fetch(upstreamUrl(options.target.url, path, search), {
        method: req.method,
        headers: upstreamHeaders(req.headers, options),
        body,
        // A body that streams: sent as the client sends it, never held whole.
        ...(body ? { duplex: 'half' } : {}),
        signal: controller.signal,
        redirect: 'manual',
      } as RequestInit);
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (passesResponseHeader(name)) headers[name] = scrub(value, secrets);
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
      if (controller.signal.aborted || refused) return;
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
    if (operatorParamsNamed(options.target.url, search).length > 0) {
      const names = operatorParamsNamed(options.target.url, search).join(', ');
      const message = `The query may not name ${names}: the server sets that parameter for the gateway.`;
      fail(req, res, family, 400, 'invalid_request', message);
      return;
    }
    forward(req, res, path, search).catch((error: unknown) => {
      // A bug here must cost one request, never the process.
      log(`proxy: ${req.method} ${path}: ${errorCode(error)}`);
      if (!res.headersSent) fail(req, res, family, 500, 'server', 'The proxy failed on this request.');
      else res.destroy();
    });
  };
}
