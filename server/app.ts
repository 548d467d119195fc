import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { etag } from 'hono/etag';
import { errorBody, familyForPath } from '../simulator/errors.ts';
import { isAllowedHost, sendJson } from '../simulator/http.ts';
import { type Backend, createBackend } from './backend.ts';
import type { ServerConfig } from './config.ts';
import { isGatewayPath } from './proxy.ts';
import { isAmbiguousPath, securityHeaders } from './security.ts';

/** Vite puts every hashed file under `assets/`: its name changes with its content, so it never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** `index.html` and the unhashed public files: the browser revalidates them (ETag) before each use. */
export const REVALIDATE = 'no-cache';

export interface ServerApp {
  readonly server: Server;
  readonly backend: Backend;
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
  app.use('*', etag(), cacheControl(REVALIDATE), ...files);
  app.notFound((c) => c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  return app;
}

/**
 * The production server: one Node HTTP server, `/v1` and `/__sim` to the backend (the very handler the
 * Vite plugin mounts in development: simulator or gateway proxy), the rest to the static app. Every
 * response carries the security headers; a `Host` that is not this server's (DNS rebinding) and a
 * path with encoded slashes or dot segments are refused before anything interprets them.
 */
export function createServerApp(
  config: ServerConfig,
  log: (line: string) => void = console.error,
): ServerApp {
  const backend = createBackend(config.proxy, log);
  const serveFiles = getRequestListener(staticApp(config, backend).fetch, { overrideGlobalObjects: false });
  const headers = Object.entries(securityHeaders(config.connectSrc));

  const listener = (req: IncomingMessage, res: ServerResponse) => {
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
      sendJson(
        res,
        400,
        errorBody(familyForPath(path), { status: 400, kind: 'invalid_request', message }, ''),
      );
      return;
    }
    if (isGatewayPath(path) || path === '/__sim' || path.startsWith('/__sim/')) backend.handle(req, res);
    else void serveFiles(req, res);
  };
  const server = createServer(listener);

  return {
    server,
    backend,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          const { port } = server.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          resolve(`http://${host}:${port}`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        backend.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
