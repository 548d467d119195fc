import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServerApp } from './app.ts';
import { ConfigError, exposureWarning, type ServerConfig, serverConfigFromEnv } from './config.ts';
import { pricesFromEnv } from './prices.ts';
import { openTeamServer, type TeamSettings, teamSettingsFromEnv } from './team.ts';

// `npm run serve`: the built app and its /v1 backend in one process. Settings come from the environment
// (README, "Deploy"); nothing printed here ever contains the API key or credentials of HOPBASE_BASE_URL.

let config: ServerConfig;
let teamSettings: TeamSettings | undefined;
try {
  config = serverConfigFromEnv(process.env);
  config.prices = pricesFromEnv(process.env, config.proxy === undefined, (line) => console.warn(line));
  teamSettings = teamSettingsFromEnv(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`hopbase-chat: ${error.message}`);
  process.exit(1);
}
if (!existsSync(join(config.distDir, 'index.html'))) {
  console.error(
    `hopbase-chat: ${join(config.distDir, 'index.html')} is missing: run \`npm run build\` first.`,
  );
  process.exit(1);
}

const exposed = exposureWarning(config, process.env);
if (exposed) console.warn(exposed);

const log = (line: string) => console.error(line);
// Team mode opens its database (and brings its schema up to date) before the first request.
const team = teamSettings && (await openTeamServer(teamSettings, log));
const app = createServerApp(config, log, team);
const url = await app.listen();
const backend = config.proxy
  ? `/v1 proxied to ${config.proxy.target.display}${config.proxy.apiKey ? ' with the server key' : ''}`
  : '/v1 answered by the built-in simulator';
const mode = team
  ? `team mode (${team.auth.config.mode} sign-in, ${team.storage.db.engine})`
  : 'single-person mode';
console.log(`HopBase Chat on ${url}, ${mode}: ${backend}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => team?.close())
      .then(() => process.exit(0));
  });
}
