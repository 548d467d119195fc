/**
 * `npm run bench:db`: the team-mode storage on both engines, as the server uses it (through the
 * repositories, rows validated, the page serialized as a route would send it). One person with 10,000
 * conversations (and three others with 1,000 each, so the indexes hold more than one person):
 * - the first page of their list, and a later page (keyset: it should cost the same);
 * - searches: a word in 1 % of the conversations, one in none (the whole text is looked at), two letters;
 * - one conversation written (from its version, as a device does) until a second storage on the same
 *   database (another server process) hears of it: the server's cost of a message reaching another device.
 * PostgreSQL is the one HOPBASE_TEST_DATABASE_URL names or one started from Debian's packages; PGlite keeps
 * its files in a temporary directory, as the server does in HOPBASE_DATA_DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { DatabaseConfig } from '../server/db/open.ts';
import { Storage } from '../server/db/storage.ts';
import { newPerson, startTestPostgres } from '../server/db/testing.ts';
import { conversationRecord, RARE_WORD, random, seedConversations } from './teamSeed.ts';

const CONVERSATIONS = Number(process.env.BENCH_DB_CONVERSATIONS ?? 10_000);
const OTHERS = 3;
const OTHER_CONVERSATIONS = Math.round(CONVERSATIONS / 10);
const RUNS = 40;

interface Figures {
  median: number;
  p90: number;
}

async function measure(work: () => Promise<unknown>, runs = RUNS): Promise<Figures> {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { median: at(0.5), p90: at(0.9) };
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const ms = (f: Figures) => `${f.median.toFixed(1)} (p90 ${f.p90.toFixed(1)})`;

async function bench(name: string, config: DatabaseConfig, second: boolean): Promise<string[]> {
  const loadBefore = load();
  const writer = await Storage.open(config, { log: () => {} });
  const reader = second ? await Storage.open(config, { log: () => {} }) : writer;
  try {
    const [server] = await writer.db.query('SHOW server_version');
    const engine = `${name} ${(server as { server_version: string }).server_version.split(' ')[0]}`;
    const person = await newPerson(writer);
    const seedMs = await seedConversations(person, CONVERSATIONS, 1);
    for (let i = 0; i < OTHERS; i++)
      await seedConversations(await newPerson(writer), OTHER_CONVERSATIONS, 2 + i);
    // What autovacuum does on PostgreSQL, and the server's maintenance on PGlite, after a large import.
    await writer.db.query('ANALYZE');
    await writer.maintain();

    const firstPage = await measure(async () =>
      JSON.stringify(await person.conversations.list({ limit: 50 })),
    );
    let cursor = (await person.conversations.list({ limit: 50 })).next;
    for (let i = 0; i < 100 && cursor; i++)
      cursor = (await person.conversations.list({ limit: 50, after: cursor })).next;
    const laterPage = await measure(async () =>
      JSON.stringify(await person.conversations.list({ limit: 50, after: cursor })),
    );
    const found = (await person.conversations.search(RARE_WORD, { limit: 50 })).items.length;
    const searchRare = await measure(async () =>
      JSON.stringify(await person.conversations.search(RARE_WORD, { limit: 50 })),
    );
    const searchNone = await measure(
      async () => JSON.stringify(await person.conversations.search('quetzalcoatl', { limit: 50 })),
      10,
    );
    const searchShort = await measure(async () =>
      JSON.stringify(await person.conversations.search('qu', { limit: 50 })),
    );

    // One conversation written again and again from its current version, as a device sends a new message.
    const target = conversationRecord(CONVERSATIONS, random(99));
    let version = 0;
    const write = async () => {
      const result = await person.conversations.put({ ...target, updatedAt: Date.now() }, version);
      if (!result.ok) throw new Error('conflict');
      version = result.version;
      return result.version;
    };
    const writeOnly = await measure(write);
    let waiting: { version: number; resolve: () => void } | undefined;
    const stop = reader.changes.subscribe(person.userId, (event) => {
      if (event.type === 'change' && event.version === waiting?.version) waiting.resolve();
    });
    const delivered = await measure(async () => {
      const heard = new Promise<void>((resolve) => {
        waiting = { version: version + 1, resolve };
      });
      await write();
      await heard;
    });
    stop();
    return [
      `| ${engine} | first page of ${CONVERSATIONS.toLocaleString('en')} | ${ms(firstPage)} | ${loadBefore} → ${load()} |`,
      `| ${engine} | page 100 | ${ms(laterPage)} | |`,
      `| ${engine} | search, ${found} found | ${ms(searchRare)} | |`,
      `| ${engine} | search, none found | ${ms(searchNone)} | |`,
      `| ${engine} | search, two letters | ${ms(searchShort)} | |`,
      `| ${engine} | write (5 kB record) | ${ms(writeOnly)} | |`,
      `| ${engine} | write → heard by ${second ? 'a second storage' : 'the feed'} | ${ms(delivered)} | |`,
      `| ${engine} | (seeding: ${(seedMs / CONVERSATIONS).toFixed(1)} ms a conversation) | | |`,
    ];
  } finally {
    if (reader !== writer) await reader.close();
    await writer.close();
  }
}

const postgres = await startTestPostgres({ durable: true });
const dataDir = mkdtempSync(join(os.tmpdir(), 'hopbase-bench-'));
try {
  const lines = [
    `Node ${process.version}, ${os.cpus().length} cores; ms, median of ${RUNS} runs (p90); load average 1/5/15 min`,
    '',
    '| Engine | Operation | ms | Load (start → end) |',
    '| --- | --- | --- | --- |',
    ...(await bench('PostgreSQL', { engine: 'postgres', url: postgres.url }, true)),
    ...(await bench('PGlite', { engine: 'pglite', dataDir }, false)),
  ];
  console.log(lines.join('\n'));
} finally {
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
