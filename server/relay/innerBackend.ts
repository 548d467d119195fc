import { mkdtempSync, rmSync } from 'node:fs';
import {
  type ClientRequest,
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type OutgoingHttpHeaders,
  type Server,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Handler } from '../../simulator/http.ts';

/**
 * The backend (simulator or gateway proxy, exactly as the page's own requests meet it) behind a listener
 * that only the relay's runner reaches: a Unix socket in a directory of its own that only this server's
 * user may enter (mkdtemp makes it 0700). The runner is then one more HTTP client of the backend, with a
 * request of its own that no page's connection holds: the page may go, the gateway's call goes on. The
 * backend's checks all still apply to it (the route allow-list, the body's size and pace, the Origin, the
 * header allow-list, the scrubbing). A socket file rather than a loopback port: nothing on the machine but
 * this server's own user can connect to it, so it needs no secret; nothing outside sees it at all.
 */
export interface InnerBackend {
  /** A request to the backend, as `http.request` makes it. */
  request(options: { method: string; path: string; headers: OutgoingHttpHeaders }): ClientRequest;
  close(): Promise<void>;
}

export async function startInnerBackend(
  handle: Handler,
  timeouts: { headersTimeout: number; requestTimeout: number },
): Promise<InnerBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'hopbase-relay-'));
  const socketPath = join(dir, 'backend.sock');
  const server: Server = createServer(timeouts, (req, res) => {
    req.on('error', () => {});
    res.on('error', () => {});
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A Unix socket refuses a connection at once when its queue is full (a TCP client would retry): room
    // for a burst of starts as large as the caps allow, as far as the kernel's somaxconn lets it.
    server.listen({ path: socketPath, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const agent = new HttpAgent({ keepAlive: true });
  return {
    request: (options) => httpRequest({ ...options, socketPath, agent }),
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
