import type { Plugin } from 'vite';
import type { Handler } from '../simulator/http.ts';
import { createBackend } from './backend.ts';
import { proxyConfigFromEnv } from './config.ts';
import { PRICES_PATH, pricesFromEnv, servePrices } from './prices.ts';

/**
 * The `/v1` backend of the dev and preview servers: the simulator by default, or the same proxy as the
 * production server when `HOPBASE_BASE_URL` is set. `/__sim/status` tells the page which one it got.
 * `/api/prices` serves the price table as the production server does (`prices.ts`).
 */
export function hopbaseGateway(): Plugin {
  // Read the environment when a server starts, not at import time, so config loading has no side effects.
  const mount = (server: { middlewares: { use(handler: Handler): unknown }; httpServer: unknown }) => {
    const log = (line: string) => console.warn(line);
    const proxy = proxyConfigFromEnv(process.env);
    const prices = JSON.stringify(pricesFromEnv(process.env, proxy === undefined, log));
    const backend = createBackend(proxy, log);
    server.middlewares.use((req, res, next) => {
      if ((req.url ?? '').split('?')[0] === PRICES_PATH) servePrices(req, res, prices);
      else next?.();
    });
    server.middlewares.use(backend.handle);
    const http = server.httpServer as { on?(event: 'close', listener: () => void): unknown } | null;
    http?.on?.('close', () => backend.close());
  };
  return {
    name: 'hopbase-gateway',
    configureServer: mount,
    configurePreviewServer: mount,
  };
}
