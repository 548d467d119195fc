import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
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
export const FORWARDED_REQUEST_HEADERS = new Set([
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

/** A gateway silent this long (no headers, no byte of the answer, not even a keepalive) is given up on. */
const GATEWAY_SILENCE_MS = 300_000;

export interface GatewayProxyOptions extends ProxyConfig {
  /** Where refusals and failures are reported (one line each, never with a credential). */
  log?: ((line: string) => void) | undefined;
  /** For tests: GATEWAY_SILENCE_MS otherwise. */
  gatewaySilenceMs?: number;
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
function operatorParamsNamed(base: URL, search: string): string[] {
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

type BodyProblem = 'too-large' | 'idle';

/**
 * Sends the request body on to the gateway as the client sends it, counted and paced by both: nothing
 * is held beyond the sockets' buffers, whatever the body's size. After `idleMs` with no byte from the
 * client, or past `limit` bytes, `stopped` is called (the gateway's request is to be cancelled), then
 * `refuse`: at once for an idle client; for a body too large once the client has sent the rest
 * (thrown away: see `discard`).
 */
function pipeBody(
  req: IncomingMessage,
  upstream: ClientRequest,
  limit: number,
  idleMs: number,
  on: { stopped(): void; refuse(problem: BodyProblem, size: number): void },
): void {
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = (problem: BodyProblem) => {
    clearTimeout(timer);
    req.off('data', onData);
    on.stopped();
    if (problem === 'idle') on.refuse(problem, size);
    else discard(req, 4 * limit - size, () => on.refuse(problem, size));
    req.resume();
  };
  // The clock runs only while we wait for the client, not while the gateway is slow to take more.
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop('idle'), idleMs);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      stop('too-large');
      return;
    }
    if (upstream.write(chunk)) {
      arm();
      return;
    }
    clearTimeout(timer);
    req.pause();
    upstream.once('drain', () => {
      arm();
      req.resume();
    });
  };
  arm();
  req.on('data', onData);
  req.on('end', () => {
    clearTimeout(timer);
    if (req.listeners('data').includes(onData)) upstream.end();
  });
  req.on('close', () => clearTimeout(timer));
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

/** Reads a whole (error) body, decoded; `undefined` past `limit` (either way) or in an unknown encoding. */
function readLimited(body: IncomingMessage, limit: number, then: (text: string | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  body.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      then(undefined);
      return;
    }
    chunks.push(chunk);
  });
  body.on('end', () => {
    const bytes = Buffer.concat(chunks);
    const encoding = (body.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const options = { maxOutputLength: limit };
    try {
      if (encoding === 'identity') then(bytes.toString('utf8'));
      else if (encoding === 'gzip') then(gunzipSync(bytes, options).toString('utf8'));
      else if (encoding === 'deflate') then(inflateSync(bytes, options).toString('utf8'));
      else if (encoding === 'br') then(brotliDecompressSync(bytes, options).toString('utf8'));
      else then(undefined);
    } catch {
      then(undefined);
    }
  });
}

function errorCode(error: unknown): string {
  if (error instanceof Error) {
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

export interface GatewayProxy {
  handle: Handler;
  /** Closes the kept-alive connections to the gateway. */
  close(): void;
}

export function createGatewayProxy(options: GatewayProxyOptions): GatewayProxy {
  const secrets = [...(options.apiKey ? [options.apiKey] : []), ...options.target.secrets];
  // Connections to the gateway are kept and reused: no handshake per request.
  const secure = options.target.url.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
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

  function forward(req: IncomingMessage, res: ServerResponse, path: string, search: string): void {
    const family = familyForPath(path);
    const limit = options.maxBodyBytes;
    const tooLarge = (size: number) => {
      const message = `Request body of ${size} bytes exceeds this proxy's limit of ${limit} bytes.`;
      fail(req, res, family, 413, 'too_large', message, { connection: 'close' });
    };
    const declared = req.headers['content-length'];
    if (req.method === 'POST' && Number(declared) > limit) {
      // Never sent on: read and thrown away (up to 4 × the limit) so the client gets to read the 413.
      if (Number(declared) > 4 * limit) tooLarge(Number(declared));
      else discard(req, 4 * limit, () => tooLarge(Number(declared)));
      return;
    }
    const headers = upstreamHeaders(req.headers, options);
    // Node checked it is one number; the body goes on with it, as it came (or chunked, as it came).
    if (req.method === 'POST' && declared !== undefined) headers['content-length'] = declared;
    // The proxy itself ended the gateway's request: whatever that request reports next is no news.
    let cancelled = false;
    const upstream = send(upstreamUrl(options.target.url, path, search), {
      method: req.method,
      headers,
      agent,
    });
    // The browser went away (or stopped the answer): stop the upstream generation too.
    res.on('close', () => {
      if (res.writableFinished) return;
      cancelled = true;
      upstream.destroy();
    });
    upstream.on('error', (error) => {
      if (cancelled) return;
      if (res.headersSent) {
        // The gateway cut the stream: cut ours the same way so the client sees it.
        log(`proxy: ${req.method} ${path}: the gateway's answer broke off (${errorCode(error)})`);
        res.destroy();
        return;
      }
      const message = `Could not reach the HopBase gateway at ${options.target.display} (${errorCode(error)}).`;
      fail(req, res, family, 502, 'server', message);
    });
    upstream.setTimeout(options.gatewaySilenceMs ?? GATEWAY_SILENCE_MS, () => {
      upstream.destroy(Object.assign(new Error('the gateway went silent'), { code: 'ETIMEDOUT' }));
    });
    upstream.on('response', (answer) => relay(req, res, family, path, answer));
    if (req.method !== 'POST') {
      upstream.end();
      return;
    }
    pipeBody(req, upstream, limit, options.bodyIdleTimeoutMs, {
      stopped: () => {
        cancelled = true;
        upstream.destroy();
      },
      refuse: (problem, size) => {
        if (problem === 'too-large') tooLarge(size);
        else {
          const message = `The request body stopped arriving: nothing for ${options.bodyIdleTimeoutMs} ms.`;
          fail(req, res, family, 408, 'invalid_request', message, { connection: 'close' });
        }
      },
    });
  }

  /** The gateway's answer to the client: an error read whole and scrubbed, anything else streamed. */
  function relay(
    req: IncomingMessage,
    res: ServerResponse,
    family: ErrorFamily,
    path: string,
    answer: IncomingMessage,
  ): void {
    // Answered already (a refused body, the server's request timeout): this answer is not wanted.
    if (res.headersSent || res.destroyed) {
      answer.destroy();
      return;
    }
    const status = answer.statusCode ?? 502;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && passesResponseHeader(name)) {
        headers[name] = scrub(Array.isArray(value) ? value.join(', ') : value, secrets);
      }
    }
    answer.on('error', () => {});
    if (status >= 400) {
      // Error bodies are small: read them whole and scrub the key, in case the gateway echoes it.
      readLimited(answer, MAX_ERROR_BODY_BYTES, (text) => {
        if (res.headersSent || res.destroyed) return;
        if (text === undefined) {
          const message = `The HopBase gateway at ${options.target.display} answered ${status} with an error body this proxy cannot read (over ${MAX_ERROR_BODY_BYTES} bytes, or in an unknown encoding).`;
          fail(req, res, family, 502, 'server', message);
          return;
        }
        const scrubbed = scrub(text, secrets);
        res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(scrubbed)) });
        res.end(scrubbed);
      });
      return;
    }
    // Asked for `identity`; a gateway that compresses anyway is relayed as it is, saying so.
    const encoding = answer.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') headers['content-encoding'] = encoding;
    res.writeHead(status, headers);
    res.flushHeaders();
    // Each chunk goes out as it arrives (no buffering), pausing only for backpressure.
    answer.pipe(res);
    answer.on('close', () => {
      if (answer.complete || res.destroyed) return;
      log(`proxy: ${req.method} ${path}: the gateway's answer broke off`);
      res.destroy();
    });
  }

  const handle: Handler = (req, res, next) => {
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
    forward(req, res, path, search);
  };
  return { handle, close: () => agent.destroy() };
}
