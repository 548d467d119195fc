import { resolve } from 'node:path';
import { ConfigError } from '../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** Which database the server uses, from the environment (README, "Deploy"). */
export type DatabaseConfig =
  | { engine: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` null: in memory (tests). */
  | { engine: 'pglite'; dataDir: string | null };

/** DATABASE_URL=postgres://…: PostgreSQL; unset: PGlite in HOPBASE_DATA_DIR (default `./data`). */
export function databaseConfigFromEnv(env: NodeJS.ProcessEnv): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    // The message never repeats the value: it holds a password.
    if (!/^postgres(ql)?:\/\//i.test(url))
      throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL.');
    return { engine: 'postgres', url };
  }
  return { engine: 'pglite', dataDir: resolve(env.HOPBASE_DATA_DIR?.trim() || 'data') };
}

/** Connects (PostgreSQL: lazily, on the first query) or starts PGlite. Nothing else runs before this. */
export async function openDatabase(
  config: DatabaseConfig,
  log: (line: string) => void = (line) => console.error(line),
): Promise<Database> {
  return config.engine === 'postgres'
    ? openPostgres({ url: config.url, poolSize: config.poolSize, log })
    : openPglite(config.dataDir);
}
