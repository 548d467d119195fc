import { type Handler, sameOriginOnly, sendJson } from '../simulator/http.ts';
import { createSimulator, type Simulator } from '../simulator/server.ts';
import type { ProxyConfig } from './config.ts';
import { createGatewayProxy } from './proxy.ts';

/** What answers `/v1` and `/__sim`: the built-in simulator, or the proxy to a real gateway. */
export interface Backend {
  mode: 'simulator' | 'gateway';
  /** Serves `/v1/*` and `/__sim/*`; anything else goes to `next` (or gets a 404). */
  handle: Handler;
  simulator?: Simulator;
  /** Stops the simulator's running generations, or closes the proxy's connections to the gateway. */
  close(): void;
}

/**
 * The same backend for the dev and preview servers (Vite plugin) and the production server. With a
 * proxy, `/__sim/status` says so and names the gateway without its credentials or query; the other
 * simulator endpoints answer 404.
 */
export function createBackend(proxy: ProxyConfig | undefined, log?: (line: string) => void): Backend {
  if (!proxy) {
    const simulator = createSimulator();
    return { mode: 'simulator', handle: simulator.handle, simulator, close: () => simulator.close() };
  }
  const proxied = createGatewayProxy({ ...proxy, log });
  const handle: Handler = (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== '/__sim' && !path.startsWith('/__sim/')) {
      proxied.handle(req, res, next);
      return;
    }
    if (!sameOriginOnly(req, res)) return;
    if (path === '/__sim/status') sendJson(res, 200, { mode: 'proxy', target: proxy.target.display });
    else sendJson(res, 404, { error: 'The simulator is off: /v1 is proxied' });
  };
  return { mode: 'gateway', handle, close: () => proxied.close() };
}
