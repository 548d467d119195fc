import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { authConfigFromEnv } from '../auth/config.ts';
import { TeamAuth, type TeamConfig } from '../auth/teamAuth.ts';
import type { DatabaseConfig } from '../db/open.ts';
import { Storage } from '../db/storage.ts';
import { teamRoutes } from '../team.ts';

/** The team API in header mode on a port of its own, over a fresh embedded database: the real server, for tests. */
export interface TeamApiServer {
  base: string;
  storage: Storage;
  /** A `fetch` as the app's page of `email` would make it: same-origin, the proxy naming the person. */
  fetchAs(email: string): typeof fetch;
  close(): Promise<void>;
}

export async function startTeamApiServer(
  database: DatabaseConfig = { engine: 'pglite', dataDir: null },
): Promise<TeamApiServer> {
  const storage = await Storage.open(database);
  const auth = new TeamAuth(authConfigFromEnv({ HOPBASE_AUTH: 'header' }) as TeamConfig, storage);
  const routes = teamRoutes(auth, storage, () => {});
  const server: Server = createServer(getRequestListener(routes.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    storage,
    fetchAs: (email) => (input, init) =>
      fetch(new URL(String(input), base), {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string> | undefined),
          'x-forwarded-email': email,
          'sec-fetch-site': 'same-origin',
        },
      }),
    async close() {
      server.closeAllConnections();
      server.close();
      await storage.close();
    },
  };
}
