import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { type Database, rows } from './database.ts';
import { type Migration, migrations as schemaMigrations } from './migrations.ts';

/**
 * Brings the schema up to date at start. Each step runs in its own transaction holding a transaction-level
 * advisory lock (`pg_advisory_xact_lock`, which PGlite has too): a second process starting at the same
 * time waits on the lock, then finds the step applied and skips it. The lock goes with the transaction,
 * so a process that dies mid-step leaves neither the lock nor half a step behind.
 */

/** Any number of our own: no other program sharing the database is expected to take this lock. */
const lockKey = 0x4862_6368_6174n; // "HbChat"

export class MigrationError extends Error {
  override name = 'MigrationError';
}

const appliedRow = v.object({ name: v.string(), checksum: v.string() });

function checksum(migration: Migration): string {
  return createHash('sha256').update(migration.statements.join('\n;\n')).digest('hex');
}

/** The steps this call applied (none when the database was up to date). */
export async function migrate(
  db: Database,
  migrations: readonly Migration[] = schemaMigrations,
): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [lockKey.toString()]);
      await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const done = rows(appliedRow, await tx.query('SELECT name, checksum FROM schema_migrations'));
      const known = new Map(migrations.map((m) => [m.name, checksum(m)]));
      for (const row of done) {
        if (!known.has(row.name))
          throw new MigrationError(
            `the database has a step this version does not know ("${row.name}"): it was used by a newer version.`,
          );
        if (known.get(row.name) !== row.checksum)
          throw new MigrationError(`step "${row.name}" differs from the one applied to the database.`);
      }
      if (done.some((row) => row.name === migration.name)) return false;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
        migration.name,
        checksum(migration),
      ]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
