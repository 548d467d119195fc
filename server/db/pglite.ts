import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database, Queryable, Transaction } from './database.ts';
import { checkChannel } from './postgres.ts';

/**
 * PGlite: PostgreSQL in this process, its files in the data directory, nothing to install. One process
 * only: a second one on the same directory would corrupt it, so the directory is locked while open.
 */

/** Raised when another live process holds the data directory. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `dir`'s lock file, or throws DataDirInUse. A lock left by a process that is gone is taken over, as
 * is one bearing this process's id: a container's first process is always 1, restarted or not. Process
 * ids mean nothing across machines or containers: the lock guards against a second server on one host.
 */
function lockDir(dir: string): () => void {
  const file = join(dir, 'pglite.lock');
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(file, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new DataDirInUse(
        `${dir} is in use by process ${holder}: one process per data directory (several processes need DATABASE_URL).`,
      );
    }
    rmSync(file, { force: true });
  }
}

/** `dataDir` null: in memory, gone when closed (tests). */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let unlock = () => {};
  if (dataDir !== null) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDir(dataDir);
  }
  let db: PGlite;
  try {
    db = await PGlite.create({
      ...(dataDir === null ? {} : { dataDir: join(dataDir, 'pglite') }),
      extensions: { pg_trgm },
      // As the PostgreSQL engine reads them (`postgres.ts`).
      parsers: { [types.INT8]: (value: string) => Number(value) },
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const run =
    (on: Pick<PGlite, 'query'>): Queryable['query'] =>
    async (sql, params = []) =>
      (await on.query(sql, params as unknown[])).rows as unknown[];
  return {
    engine: 'pglite',
    query: run(db),
    transaction: <T>(work: (tx: Transaction) => Promise<T>) =>
      db.transaction((tx) =>
        work({
          query: run(tx),
          notify: async (channel, payload) => {
            await tx.query('SELECT pg_notify($1, $2)', [channel, payload]);
          },
        }),
      ) as Promise<T>,
    async listen(channel, handlers) {
      // The database is in this process: its connection is never lost, so `reconnected` never comes.
      return db.listen(checkChannel(channel), handlers.message);
    },
    async close() {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
  };
}
