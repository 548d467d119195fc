import type { Plugin } from 'vite';
import type { Handler } from '../simulator/http.ts';
import { createBackend } from './backend.ts';
import { proxyConfigFromEnv } from './config.ts';

/**
 * The `/v1` backend of the dev and preview servers: the simulator by default, or the same proxy as the
 * production server when `HOPBASE_BASE_URL` is set. `/__sim/status` tells the page which one it got.
 */
export function hopbaseGateway(): Plugin {
  // Read the environment when a server starts, not at import time, so config loading has no side effects.
  const mount = (server: { middlewares: { use(handler: Handler): unknown }; httpServer: unknown }) => {
    const backend = createBackend(proxyConfigFromEnv(process.env), (line) => console.warn(line));
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
