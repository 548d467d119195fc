import { startOidcProvider, type TestOidcProvider } from '../server/auth/testing/oidcProvider.ts';
import { startTestPostgres, type TestPostgres } from '../server/db/testing.ts';
import { type ServerProcess, serverReady, spawnServer } from './servers.ts';

/**
 * Team mode as deployed, for the browser tests: one PostgreSQL, a real OpenID provider, and production
 * servers (`npm run serve`, built by playwright.config.ts) that share the database: two in OIDC mode (two
 * devices may reach different ones, as behind a load balancer) and one behind an "authenticating proxy"
 * (header mode: the test's browser context sends the header the proxy would). A login starting with `admin`
 * is an administrator (the provider puts it in the `hopbase-admins` group, which the OIDC servers read).
 */
const base = Number(process.env.E2E_PORT ?? 4317);
const ports = { first: base + 3, second: base + 4, header: base + 5 };
export const teamUrls = {
  first: `http://127.0.0.1:${ports.first}`,
  second: `http://127.0.0.1:${ports.second}`,
  header: `http://127.0.0.1:${ports.header}`,
};

export interface TeamServers {
  provider: TestOidcProvider;
  close(): Promise<void>;
}

export async function startTeamServers(): Promise<TeamServers> {
  const postgres: TestPostgres = await startTestPostgres();
  const provider = await startOidcProvider({
    redirectUris: [`${teamUrls.first}/auth/callback`, `${teamUrls.second}/auth/callback`],
  });
  const log: string[] = [];
  const oidc = (url: string) => ({
    HOPBASE_AUTH: 'oidc',
    HOPBASE_OIDC_ISSUER: provider.issuer,
    HOPBASE_OIDC_CLIENT_ID: provider.clientId,
    HOPBASE_OIDC_CLIENT_SECRET: provider.clientSecret,
    HOPBASE_OIDC_ADMIN_CLAIM: 'groups=hopbase-admins',
    HOPBASE_PUBLIC_URL: url,
    DATABASE_URL: postgres.url,
  });
  const servers: ServerProcess[] = [
    spawnServer(ports.first, oidc(teamUrls.first), log),
    spawnServer(ports.second, oidc(teamUrls.second), log),
    spawnServer(ports.header, { HOPBASE_AUTH: 'header', DATABASE_URL: postgres.url }, log),
  ];
  try {
    await Promise.all(servers.map(serverReady));
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
  return {
    provider,
    async close() {
      await Promise.all(servers.map((server) => server.stop()));
      await provider.close();
      await postgres.stop();
    },
  };
}
