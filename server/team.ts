import { attachmentRoutes } from './api/attachmentRoutes.ts';
import { recordingRoutes } from './api/recordingRoutes.ts';
import { apiRoutes } from './api/routes.ts';
import { usageRoutes } from './api/usageRoutes.ts';
import { authConfigFromEnv } from './auth/config.ts';
import { authRoutes } from './auth/routes.ts';
import { TeamAuth, type TeamConfig } from './auth/teamAuth.ts';
import { type PersonLimits, personLimitsFromEnv } from './config.ts';
import { type DatabaseConfig, databaseConfigFromEnv } from './db/open.ts';
import { Storage } from './db/storage.ts';

/** Team mode's settings: who may sign in and how, the database, what each person may use (README, "Deploy"). */
export interface TeamSettings {
  readonly auth: TeamConfig;
  readonly database: DatabaseConfig;
  readonly limits: PersonLimits;
}

/** Undefined in single-person mode (HOPBASE_AUTH unset). Throws ConfigError on a bad setting. */
export function teamSettingsFromEnv(env: NodeJS.ProcessEnv): TeamSettings | undefined {
  const auth = authConfigFromEnv(env);
  const limits = personLimitsFromEnv(env, auth.mode !== 'none');
  return auth.mode === 'none' ? undefined : { auth, database: databaseConfigFromEnv(env), limits };
}

/** What the server needs in team mode, opened at start: the storage (migrated) and sign-in. */
export interface TeamServer {
  readonly auth: TeamAuth;
  readonly storage: Storage;
  /** What each person may use of the gateway. */
  readonly limits: PersonLimits;
  /** `/auth/*` and `/api/*`. */
  readonly routes: ReturnType<typeof teamRoutes>;
  close(): Promise<void>;
}

/** `/auth/*` and `/api/*`: sign-in, and each person's data. */
export function teamRoutes(auth: TeamAuth, storage: Storage, log: (line: string) => void) {
  const routes = authRoutes(auth, log);
  // Before apiRoutes, whose guard is on all of `/api/*`: these routes have their own (asked once, not twice).
  routes.route('/', attachmentRoutes(auth, storage));
  routes.route('/', recordingRoutes(auth, storage));
  routes.route('/', usageRoutes(auth, storage));
  routes.route('/', apiRoutes(auth, storage));
  // A path or method no route takes is refused in JSON, as everything else here is.
  routes.notFound((c) => c.json({ error: 'No such address, or not with this method.' }, 404));
  return routes;
}

/** PGlite has no autovacuum: the server does its upkeep (on PostgreSQL, `maintain` does nothing). */
const MAINTENANCE_MS = 60 * 60 * 1000;

export async function openTeamServer(
  settings: TeamSettings,
  log: (line: string) => void,
): Promise<TeamServer> {
  const storage = await Storage.open(settings.database, { sessionMs: settings.auth.sessionMs, log });
  const auth = new TeamAuth(settings.auth, storage);
  const routes = teamRoutes(auth, storage, log);
  const upkeep = setInterval(() => {
    storage.maintain().catch((error: unknown) => log(`storage upkeep failed: ${String(error)}`));
  }, MAINTENANCE_MS);
  upkeep.unref();
  return {
    auth,
    storage,
    limits: settings.limits,
    routes,
    close: () => {
      clearInterval(upkeep);
      return storage.close();
    },
  };
}

/** Whether a path is one of team mode's own (sign-in and the person's data). */
export function isTeamPath(path: string): boolean {
  return path.startsWith('/auth/') || path.startsWith('/api/');
}
