import { type ChildProcess, spawn } from 'node:child_process';
import { startOidcProvider, type TestOidcProvider } from '../server/auth/testing/oidcProvider.ts';
import { startTestPostgres, type TestPostgres } from '../server/db/testing.ts';
import { serveKey, simUrl } from './serve.ts';

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

function serve(port: number, env: Record<string, string>, log: string[]): ChildProcess {
  const child = spawn(process.execPath, ['dist-server/server/main.js'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      HOPBASE_BASE_URL: `${simUrl}/v1`,
      HOPBASE_API_KEY: serveKey,
      HOPBASE_DIST_DIR: process.env.E2E_DIST ?? 'dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => log.push(`[${port}] ${chunk.toString()}`);
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

/** Resolves once `url` answers (a server that exits first rejects, with what it said). */
async function ready(url: string, child: ChildProcess, log: string[]): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server for ${url} exited:\n${log.join('')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
  const children = [
    serve(ports.first, oidc(teamUrls.first), log),
    serve(ports.second, oidc(teamUrls.second), log),
    serve(ports.header, { HOPBASE_AUTH: 'header', DATABASE_URL: postgres.url }, log),
  ];
  try {
    await Promise.all(
      [teamUrls.first, teamUrls.second, teamUrls.header].map((url, i) => ready(url, children[i]!, log)),
    );
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }
  return {
    provider,
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill();
            }),
        ),
      );
      await provider.close();
      await postgres.stop();
    },
  };
}
