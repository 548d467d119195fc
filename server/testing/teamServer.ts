import { rm } from 'node:fs/promises';
import { createServerApp } from '../app.ts';
import { DEFAULT_LIMITS, proxyConfigFromEnv } from '../config.ts';
import type { DatabaseConfig } from '../db/open.ts';
import { openTeamServer, type TeamServer, teamSettingsFromEnv } from '../team.ts';
import { type FakeGateway, onePageDist, startFakeGateway } from '../testing.ts';

/** The production server in team mode for tests, opened from settings as `npm run serve` opens it. */

const quiet = () => {};

export interface ServedTeam {
  url: string;
  /** Closes the server (not `team`: several may serve one) and removes its app. */
  close(): Promise<void>;
}

/**
 * The production server (`createServerApp`) serving a one-page app and `team`, on a free port: `/v1` goes to
 * `gatewayUrl` with the operator's key, or without one to the built-in simulator.
 */
export async function serveTeam(team: TeamServer, gatewayUrl?: string): Promise<ServedTeam> {
  const distDir = await onePageDist();
  const app = createServerApp(
    {
      host: '127.0.0.1',
      port: 0,
      distDir,
      proxy: gatewayUrl
        ? proxyConfigFromEnv({ HOPBASE_BASE_URL: gatewayUrl, HOPBASE_API_KEY: 'sk-operator' })
        : undefined,
      connectSrc: [],
      allowedHosts: [],
      limits: DEFAULT_LIMITS,
    },
    quiet,
    team,
  );
  return {
    url: await app.listen(),
    async close() {
      await app.close();
      await rm(distDir, { recursive: true, force: true });
    },
  };
}

export interface TestTeam extends ServedTeam {
  team: TeamServer;
  gateway: FakeGateway;
}

/**
 * Team mode as `env` sets it (HOPBASE_AUTH and the rest) on `database`, served before a scripted gateway
 * that answers with `respond`. `close` closes all three (not the database).
 */
export async function startTestTeam(
  env: NodeJS.ProcessEnv,
  database: DatabaseConfig,
  respond: Parameters<typeof startFakeGateway>[0],
): Promise<TestTeam> {
  const settings = teamSettingsFromEnv(env);
  if (!settings) throw new Error('team mode expected: set HOPBASE_AUTH');
  const gateway = await startFakeGateway(respond);
  const team = await openTeamServer({ ...settings, database }, quiet);
  const served = await serveTeam(team, gateway.url);
  return {
    ...served,
    team,
    gateway,
    async close() {
      await served.close();
      await team.close();
      await gateway.close();
    },
  };
}
