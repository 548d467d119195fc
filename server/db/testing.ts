import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { ConversationRecord } from './conversations.ts';
import type { DatabaseConfig } from './open.ts';
import type { Person, Storage } from './storage.ts';

/**
 * A real PostgreSQL for the storage tests: the one HOPBASE_TEST_DATABASE_URL names (CI starts it), with a
 * fresh database made in it per test file; otherwise one started here from Debian's packages, in a
 * temporary directory, on a free loopback port, gone when stopped. PostgreSQL refuses to run as root:
 * run as root (containers, CI), it runs as `nobody`.
 */

export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** The newest PostgreSQL under /usr/lib/postgresql, or HOPBASE_TEST_PG_BIN. */
function binDir(): string {
  const given = process.env.HOPBASE_TEST_PG_BIN;
  if (given) return given;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error(
      'No PostgreSQL to test with: install Debian\'s "postgresql" package, or set HOPBASE_TEST_DATABASE_URL.',
    );
  return join(root, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Tries to connect until PostgreSQL answers, the process has exited, or a minute has passed. The server
 * that answers must be ours (its data directory): another test file's may have taken the port first.
 */
async function ready(url: string, child: ChildProcess, data: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`postgres exited (${child.exitCode}) before accepting connections`);
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      const [row] = (await client.query('SHOW data_directory')).rows as { data_directory: string }[];
      await client.end();
      if (row?.data_directory === data) return;
      throw new Error('could not bind: another server answers on this port');
    } catch (error) {
      await client.end().catch(() => {});
      if (/could not bind/.test((error as Error).message) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startCluster(durable: boolean): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'hopbase-pg-'));
  const asRoot = process.getuid?.() === 0;
  // As root: the same command under setpriv, as nobody (65534), which then owns the directory.
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', join(bin, program), ...args]]
      : [join(bin, program), args];
  if (asRoot) chownSync(dir, 65534, 65534);
  const data = join(dir, 'data');
  try {
    await run(
      ...command('initdb', [
        '-D',
        data,
        '-U',
        'hopbase',
        '--auth=trust',
        '-E',
        'UTF8',
        '--no-locale',
        '--no-sync',
      ]),
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  // A port found free may be taken before postgres binds it: then try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const [program, args] = command('postgres', [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      // A throwaway database: durability only costs time (a benchmark keeps it, as a server would).
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ]);
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const url = `postgres://hopbase@127.0.0.1:${port}/postgres`;
    try {
      await ready(url, child, data);
    } catch (error) {
      child.kill('SIGKILL');
      await exited(child);
      if (attempt < 3 && /could not bind|already in use/i.test(`${log} ${(error as Error).message}`))
        continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`);
    }
    // A test run that ends without stopping it (a crash, ^C) leaves no server behind.
    const orphaned = () => child.kill('SIGKILL');
    process.once('exit', orphaned);
    return {
      url,
      async stop() {
        process.off('exit', orphaned);
        // SIGINT: the fast shutdown, which ends open connections instead of waiting for them.
        child.kill('SIGINT');
        await exited(child);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}

/** A database of its own in the server HOPBASE_TEST_DATABASE_URL names, dropped when stopped. */
async function freshDatabase(serverUrl: string): Promise<TestPostgres> {
  const name = `hopbase_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async stop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** `durable`: a started cluster writes to disk as a server's does (the benchmark's), instead of skipping it. */
export function startTestPostgres({ durable = false } = {}): Promise<TestPostgres> {
  const given = process.env.HOPBASE_TEST_DATABASE_URL?.trim();
  return given ? freshDatabase(given) : startCluster(durable);
}

/** The two engines every storage test runs on; `start` gives a config for a database of its own. */
export interface TestDatabase {
  name: 'PostgreSQL' | 'PGlite';
  start(): Promise<DatabaseConfig>;
  stop(): Promise<void>;
}

export function testDatabases(): TestDatabase[] {
  let postgres: TestPostgres | undefined;
  return [
    {
      name: 'PostgreSQL',
      start: async () => {
        postgres = await startTestPostgres();
        return { engine: 'postgres', url: postgres.url };
      },
      stop: async () => postgres?.stop(),
    },
    { name: 'PGlite', start: async () => ({ engine: 'pglite', dataDir: null }), stop: async () => {} },
  ];
}

/** Starting PostgreSQL or PGlite on a loaded machine: PGlite's first start alone can take 20 s. */
export const startTimeout = 180_000;

/** A conversation record shaped as the browser writes it (`src/state/domain/types.ts`). */
export function conversation(id: string, over: Partial<ConversationRecord> = {}): ConversationRecord {
  return {
    id,
    title: 'A conversation',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    messages: [
      { id: `${id}-u`, role: 'user', text: 'What is the capital of Iceland?', createdAt: 1_700_000_000_000 },
      {
        id: `${id}-a`,
        role: 'assistant',
        protocol: 'chat',
        model: 'gpt-test',
        source: { kind: 'gateway' },
        createdAt: 1_700_000_000_001,
        parentId: `${id}-u`,
        attempts: [
          { id: `${id}-t1`, startedAt: 1, turn: { status: 'error', text: 'Lost in transit' } },
          { id: `${id}-t2`, startedAt: 2, turn: { status: 'complete', text: 'It is **Reykjavík**.' } },
        ],
      },
    ],
    selected: { '': `${id}-u` },
    systemPrompt: 'Be brief.',
    ...over,
  };
}

/** A person signed in for the first time, with nothing stored yet. */
export async function newPerson(storage: Storage, email = `${randomUUID()}@example.test`): Promise<Person> {
  const user = await storage.users.signIn(
    { issuer: 'https://idp.example.test', subject: randomUUID() },
    { email, displayName: 'Someone', isAdmin: false },
  );
  return storage.forUser(user.id);
}
