import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { databaseConfigFromEnv, openDatabase } from './open.ts';
import { DataDirInUse } from './pglite.ts';
import { startTimeout } from './testing.ts';

describe('databaseConfigFromEnv', () => {
  it('uses PostgreSQL when DATABASE_URL is set, PGlite in HOPBASE_DATA_DIR (default ./data) otherwise', () => {
    expect(databaseConfigFromEnv({ DATABASE_URL: ' postgres://app:pw@db.internal:5432/chat ' })).toEqual({
      engine: 'postgres',
      url: 'postgres://app:pw@db.internal:5432/chat',
    });
    expect(databaseConfigFromEnv({ DATABASE_URL: 'postgresql://db/chat' })).toMatchObject({
      engine: 'postgres',
    });
    expect(databaseConfigFromEnv({})).toEqual({ engine: 'pglite', dataDir: resolve('data') });
    expect(databaseConfigFromEnv({ DATABASE_URL: ' ', HOPBASE_DATA_DIR: '/var/lib/hopbase' })).toEqual({
      engine: 'pglite',
      dataDir: '/var/lib/hopbase',
    });
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, without repeating it (it holds a password)', () => {
    const read = () => databaseConfigFromEnv({ DATABASE_URL: 'mysql://root:hunter22@db/chat' });
    expect(read).toThrow(ConfigError);
    expect(read).not.toThrow(/hunter22/);
  });
});

describe('PGlite in a data directory', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps what was written across a restart',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hopbase-data-'));
      dirs.push(dir);
      const first = await openDatabase({ engine: 'pglite', dataDir: dir });
      await first.query('CREATE TABLE kept (note text)');
      await first.query("INSERT INTO kept VALUES ('still here')");
      await first.close();
      const again = await openDatabase({ engine: 'pglite', dataDir: dir });
      try {
        expect(await again.query('SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
      } finally {
        await again.close();
      }
    },
    startTimeout,
  );

  it(
    'is refused while another process uses the directory, and taken over once that process is gone',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hopbase-data-'));
      dirs.push(dir);
      // Another server on the same directory would corrupt it: here, a live process holds the lock.
      const other = spawn('sleep', ['600'], { stdio: 'ignore' });
      try {
        writeFileSync(join(dir, 'pglite.lock'), String(other.pid));
        await expect(openDatabase({ engine: 'pglite', dataDir: dir })).rejects.toBeInstanceOf(DataDirInUse);
      } finally {
        other.kill('SIGKILL');
        await once(other, 'exit');
      }
      const db = await openDatabase({ engine: 'pglite', dataDir: dir });
      await db.close();
    },
    startTimeout,
  );
});
