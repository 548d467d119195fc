import type { Plugin } from 'vite';
import type { Handler } from './http.ts';
import { sameOriginOnly, sendJson } from './http.ts';
import { createGatewayProxy } from './proxy.ts';
import { createSimulator, type Simulator } from './server.ts';

/**
 * The `/v1` backend of the dev and preview servers: the simulator by default, or a proxy to the
 * real gateway when `HOPBASE_BASE_URL` is set. `/__sim/status` tells the page which one it got.
 */
export function gatewayMiddleware(env: NodeJS.ProcessEnv = process.env): {
  handle: Handler;
  simulator?: Simulator;
} {
  const baseUrl = env.HOPBASE_BASE_URL;
  if (!baseUrl) {
    const simulator = createSimulator();
    return { handle: simulator.handle, simulator };
  }
  const proxy = createGatewayProxy({ baseUrl, apiKey: env.HOPBASE_API_KEY });
  const handle: Handler = (req, res, next) => {
    const path = new URL(req.url ?? '/', 'http://vite').pathname;
    if (path.startsWith('/__sim/') && !sameOriginOnly(req, res)) return;
    if (path === '/__sim/status') sendJson(res, 200, { mode: 'proxy', target: baseUrl });
    else if (path.startsWith('/__sim/'))
      sendJson(res, 404, { error: 'The simulator is off: /v1 is proxied' });
    else proxy(req, res, next);
  };
  return { handle };
}

export function hopbaseGateway(): Plugin {
  // Read the environment when a server starts, not at import time, so config loading has no side effects.
  const mount = (server: { middlewares: { use(handler: Handler): unknown }; httpServer: unknown }) => {
    const { handle, simulator } = gatewayMiddleware();
    server.middlewares.use(handle);
    const http = server.httpServer as { on?(event: 'close', listener: () => void): unknown } | null;
    if (simulator) http?.on?.('close', () => simulator.close());
  };
  return {
    name: 'hopbase-gateway',
    configureServer: mount,
    configurePreviewServer: mount,
  };
}
