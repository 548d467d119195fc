import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { MigrationError, migrate } from './migrate.ts';
import { migrations } from './migrations.ts';
import { type DatabaseConfig, openDatabase } from './open.ts';
import { startTimeout, testDatabases } from './testing.ts';

const quiet = () => {};

describe.each(testDatabases())('migrations on $name', (database) => {
  let config: DatabaseConfig;
  let db: Database;
  beforeAll(async () => {
    config = await database.start();
    db = await openDatabase(config, quiet);
  }, startTimeout);
  afterAll(async () => {
    await db?.close();
    await database.stop();
  });

  it('lets two servers starting at once apply each step exactly once, the second waiting for the first', async () => {
    // PostgreSQL: two connection pools, as two processes have; PGlite is one process: the same database twice.
    const other = database.name === 'PostgreSQL' ? await openDatabase(config, quiet) : db;
    try {
      const [first, second] = await Promise.all([migrate(db), migrate(other)]);
      expect([...first, ...second].sort()).toEqual(migrations.map((m) => m.name).sort());
      expect(await db.query('SELECT name FROM schema_migrations')).toHaveLength(migrations.length);
    } finally {
      if (other !== db) await other.close();
    }
  });

  it('finds every step applied at the next start, the schema in place', async () => {
    expect(await migrate(db)).toEqual([]);
    const tables = await db.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    expect(tables.map((row) => (row as { table_name: string }).table_name)).toEqual(
      expect.arrayContaining([
        'attachments',
        'conversations',
        'recordings',
        'request_bodies',
        'sessions',
        'settings',
        'usage',
        'users',
      ]),
    );
  });

  it('refuses a database whose applied step was since edited, or that a newer version migrated', async () => {
    const [step] = migrations;
    if (!step) throw new Error('no migrations');
    const edited = [{ ...step, statements: [...step.statements, 'CREATE TABLE afterthought (x int)'] }];
    await expect(migrate(db, edited)).rejects.toBeInstanceOf(MigrationError);
    await db.query("INSERT INTO schema_migrations (name, checksum) VALUES ('9999 from the future', '')");
    await expect(migrate(db)).rejects.toThrow(/newer version/);
  });
});
