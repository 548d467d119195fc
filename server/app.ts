import { existsSync, readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { etag } from 'hono/etag';
import { type ErrorKind, errorBody, familyForPath, requestIdFor } from '../simulator/errors.ts';
import { isAllowedHost, sendJson } from '../simulator/http.ts';
import { personOf } from './auth/routes.ts';
import { type Backend, createBackend } from './backend.ts';
import type { ServerConfig, ServerLimits } from './config.ts';
import { clientKey, createConcurrencyLimit } from './limits.ts';
import { PRICES_PATH, servePrices } from './prices.ts';
import { isGatewayPath } from './proxy.ts';
import { DbLog } from './relay/dbLog.ts';
import { type InnerBackend, startInnerBackend } from './relay/innerBackend.ts';
import { DEFAULT_RELAY_SETTINGS, LOCAL_OWNER, Relay } from './relay/relay.ts';
import { isAnswersPath, serveAnswers } from './relay/routes.ts';
import { type AnswerStart, relayedAttempt, runAnswer } from './relay/runner.ts';
import { inlineScriptHashes, isAmbiguousPath, securityHeaders } from './security.ts';
import { isTeamPath, type TeamServer } from './team.ts';
import { serveMetered, serveTeamGateway } from './teamGateway.ts';

/** Vite puts every hashed file under `assets/`: its name changes with its content, so it never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** `index.html` and the unhashed public files: the browser revalidates them (ETag) before each use. */
export const REVALIDATE = 'no-cache';
/** Seconds a client refused for being over a cap is told to wait. */
const RETRY_AFTER_S = 5;

export interface ServerApp {
  readonly server: Server;
  readonly backend: Backend;
  /** The answers this server runs (docs/relay.md). */
  readonly relay: Relay;
  /** Listens on the configured host and port; resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Sets Cache-Control on the files found (not on a 404, which must not be kept). */
function cacheControl(value: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.ok || c.res.status === 304) c.header('cache-control', value);
  };
}

/**
 * The static side (Hono): the built app with cache headers, precompressed `.br`/`.gz` files when the
 * build wrote them and gzip on the fly otherwise, ETags for revalidation, and `/healthz`.
 */
/** The hashes of the built page's inline scripts, read once at startup (none when there is no build yet). */
function pageScriptHashes(distDir: string): string[] {
  const page = join(distDir, 'index.html');
  return existsSync(page) ? inlineScriptHashes(readFileSync(page, 'utf8')) : [];
}

function staticApp(config: ServerConfig, backend: Backend): Hono {
  const app = new Hono();
  app.get('/healthz', (c) =>
    c.json({ status: 'ok', mode: backend.mode }, 200, { 'cache-control': 'no-store' }),
  );
  // The files themselves: the variant the browser accepts, precompressed or gzipped on the fly.
  const files = [
    compress(),
    serveStatic({ root: config.distDir, precompressed: true }),
  ] satisfies MiddlewareHandler[];
  app.use('/assets/*', cacheControl(IMMUTABLE), ...files);
  // A conversation's own address (`/c/<id>`) is the app's page: the app then opens that conversation.
  app.get(
    '/c/*',
    etag(),
    cacheControl(REVALIDATE),
    compress(),
    serveStatic({
      root: config.distDir,
      precompressed: true,
      rewriteRequestPath: () => '/index.html',
    }),
  );
  app.use('*', etag(), cacheControl(REVALIDATE), ...files);
  app.notFound((c) => c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  return app;
}

/** A JSON error in the protocol's own shape (by path), with its request id, as the gateway would send. */
function sendError(
  res: ServerResponse,
  path: string,
  error: { status: number; kind: ErrorKind; message: string; code?: string },
  headers: Record<string, string> = {},
): void {
  const family = familyForPath(path);
  const requestId = requestIdFor(family);
  sendJson(res, error.status, errorBody(family, error, requestId.value), {
    [requestId.header]: requestId.value,
    ...headers,
  });
}

/** Node's own timers for slow clients; the headers' timeout may not exceed the whole request's. */
function timeouts(limits: ServerLimits) {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for expired requests: often enough that a timeout is kept to within a quarter.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeout / 4)),
  };
}

/**
 * A request Node could not parse, or a client too slow with its headers or body: answered with a status
 * and a JSON message that says so, then the connection is closed. A request already being answered
 * (a body that stopped under the whole request's timeout) gets the answer in its protocol's shape.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = timedOut
    ? [408, 'The request took too long to arrive (HOPBASE_HEADERS_TIMEOUT_MS, HOPBASE_REQUEST_TIMEOUT_MS).']
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large.']
      : [400, `Malformed HTTP request (${error.code ?? 'unparsable'}).`];
  if (pending && !timedOut) {
    // Bytes after a request that is still being answered (a body longer than its Content-Length): the
    // answer goes out, then the connection closes; the garbage gets none.
    pending.once('close', () => socket.destroy());
    return;
  }
  if (pending?.req) {
    const path = (pending.req.url ?? '/').split('?')[0] ?? '/';
    pending.once('finish', () => socket.destroy());
    sendError(pending, path, { status, kind: 'invalid_request', message }, { connection: 'close' });
    return;
  }
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * The production server: one Node HTTP server, `/v1` and `/__sim` to the backend (the very handler the
 * Vite plugin mounts in development: simulator or gateway proxy), the rest to the static app. Every
 * response carries the security headers; a `Host` that is not this server's (DNS rebinding) and a
 * path with encoded slashes or dot segments are refused before anything interprets them. `/v1`
 * requests in flight are capped per client and in total; slow clients time out. No request, however
 * it fails, can end the process: a failure is logged and answered, or its connection closed.
 */
export function createServerApp(
  config: ServerConfig,
  log: (line: string) => void = console.error,
  /** Team mode's sign-in and storage; undefined: single-person mode. */
  team?: TeamServer,
): ServerApp {
  const backend = createBackend(config.proxy, log);
  const serveFiles = getRequestListener(staticApp(config, backend).fetch, { overrideGlobalObjects: false });
  const serveTeam = team && getRequestListener(team.routes.fetch, { overrideGlobalObjects: false });
  const headers = Object.entries(securityHeaders(config.connectSrc, pageScriptHashes(config.distDir)));
  const prices = JSON.stringify(config.prices ?? {});
  const { maxRequests, maxRequestsPerClient } = config.limits;
  const inFlight = createConcurrencyLimit(maxRequests, maxRequestsPerClient);
  // Team mode keeps the answers in the database, for every server process; single-person mode in memory.
  const relaySettings = { ...DEFAULT_RELAY_SETTINGS, ...config.relay };
  const relay = new Relay(relaySettings, team && new DbLog(team.storage.db, { log, ...relaySettings }));
  let inner: InnerBackend | undefined;

  /** Takes a place under the caps; false: refused (answered). */
  const admitted = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const slot = inFlight.enter(clientKey(req.socket.remoteAddress));
    if (slot !== 'client' && slot !== 'total') return slot;
    const [status, kind, message] =
      slot === 'client'
        ? ([
            429,
            'rate_limit',
            `Too many requests at once from your address (HOPBASE_MAX_REQUESTS_PER_CLIENT is ${maxRequestsPerClient}): wait for one to finish.`,
          ] as const)
        : ([
            503,
            'server',
            `The server is handling as many requests as it may (HOPBASE_MAX_REQUESTS is ${maxRequests}): try again shortly.`,
          ] as const);
    const code = slot === 'client' ? 'rate_limit_exceeded' : 'overloaded';
    sendError(
      res,
      path,
      { status, kind, message, code },
      { 'retry-after': String(RETRY_AFTER_S), connection: 'close' },
    );
    return undefined;
  };

  const route = (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (!isAllowedHost(req.headers.host, config.host, config.allowedHosts)) {
      sendJson(res, 403, {
        error:
          'This server answers only requests addressed to localhost, its own address or a name listed in HOPBASE_ALLOWED_HOSTS (Host header).',
      });
      return;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (isAmbiguousPath(path)) {
      const message =
        'Encoded slashes, encoded dots, backslashes, empty and dot segments are not allowed in the path.';
      sendError(res, path, { status: 400, kind: 'invalid_request', message });
      return;
    }
    // Not personal: in team mode too, before team mode's `/api/*`.
    if (path === PRICES_PATH) {
      servePrices(req, res, prices);
      return;
    }
    if (isAnswersPath(path)) {
      // Not under the /v1 caps: a page following an answer costs a connection and a listener, no gateway
      // call (the answer holds its place while it runs), as team mode's change stream does; a stop must
      // get through whatever the caps say.
      const owner = team ? personOf(team.auth, req).then((user) => user?.id) : Promise.resolve(LOCAL_OWNER);
      owner
        .then((id) => serveAnswers(relay, req, res, path, id))
        .catch((error: unknown) => fault(req, res, error));
      return;
    }
    if (!isGatewayPath(path)) {
      if (path === '/__sim' || path.startsWith('/__sim/')) backend.handle(req, res);
      else if (serveTeam && isTeamPath(path))
        serveTeam(req, res).catch((error: unknown) => fault(req, res, error));
      else serveFiles(req, res).catch((error: unknown) => fault(req, res, error));
      return;
    }
    const slot = admitted(req, res, path);
    if (!slot) return;
    // The place is the page's until the relay takes it over: then it is held while the answer runs too.
    let handedOver = false;
    res.once('close', () => {
      if (!handedOver) slot.release();
    });
    const refuse = ({ headers: extra, ...error }: Parameters<AnswerStart['refuse']>[0]) =>
      sendError(res, path, error, extra);
    const attempt = inner && relayedAttempt(req, path);
    const run = (start: Omit<AnswerStart, 'release' | 'refuse' | 'log'>) => {
      handedOver = true;
      if (!inner) throw new Error('the relay has not started');
      runAnswer(relay, inner, req, res, { ...start, refuse, release: slot.release, log }).catch(
        (error: unknown) => fault(req, res, error),
      );
    };
    if (team) {
      // In team mode the gateway (and the operator's key) serves signed-in people only, within their limits.
      serveTeamGateway(team, req, path, {
        refuse,
        forward: () => backend.handle(req, res),
        answer: (request) => {
          if (!attempt) {
            serveMetered(req, res, request, { refuse, forward: () => backend.handle(req, res) }).catch(
              (error: unknown) => fault(req, res, error),
            );
            return;
          }
          run({
            key: { owner: request.userId, attemptId: attempt.attemptId },
            conversationId: attempt.conversationId,
            admit: request.admit,
            meter: request.meter,
          });
        },
        log,
      }).catch((error: unknown) => fault(req, res, error));
    } else if (attempt)
      run({
        key: { owner: LOCAL_OWNER, attemptId: attempt.attemptId },
        conversationId: attempt.conversationId,
      });
    else backend.handle(req, res);
  };

  /** The last line of defence: one request's failure is logged and answered, never fatal. */
  const fault = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    log(`server: ${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { error: 'The server failed on this request.' });
  };

  const server = createServer(timeouts(config.limits), (req, res) => {
    // A client that goes away makes its request and response emit 'error': expected, never fatal.
    req.on('error', () => {});
    res.on('error', () => {});
    try {
      route(req, res);
    } catch (error) {
      fault(req, res, error);
    }
  });
  server.on('clientError', answerClientError);
  // Node's own answer to an `Expect` other than 100-continue is a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    const message = `Expect: ${req.headers.expect} is not supported (only 100-continue).`;
    sendJson(res, 417, { error: message }, { connection: 'close' });
  });

  return {
    server,
    backend,
    relay,
    listen: async () => {
      await relay.start();
      inner ??= await startInnerBackend(backend.handle, timeouts(config.limits));
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          const { port } = server.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          resolve(`http://${host}:${port}`);
        });
      });
    },
    close: async () => {
      // Answers still running end as `lost` (written down, in team mode), then the backend closes.
      await relay.close();
      await inner?.close();
      backend.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
