/**
 * `npm run bench:sync`: team mode from one device to another, as the browser's own sync code does it
 * (`ServerSync`, the page's stores), against two team servers (each its own storage, connection pool and
 * LISTEN) over one PostgreSQL, as two server processes behind a load balancer:
 * - a message written on device A until it is in device B's stores (A's write, the NOTIFY, B's change
 *   stream, B's read of the conversation): p50, p95 and the slowest of 100;
 * - what each message costs the servers: the time spent in the requests it caused (A's write, B's read);
 * - a new device of a person with 10,000 conversations: until the 100 last worked on are in its stores
 *   (its sidebar's first screen), and until all are.
 * PostgreSQL is the one HOPBASE_TEST_DATABASE_URL names or one started from Debian's packages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { apiRoutes } from '../server/api/routes.ts';
import { authConfigFromEnv } from '../server/auth/config.ts';
import { authRoutes } from '../server/auth/routes.ts';
import { TeamAuth, type TeamConfig } from '../server/auth/teamAuth.ts';
import { Storage } from '../server/db/storage.ts';
import { startTestPostgres } from '../server/db/testing.ts';
import { type AppStores, createAppStores } from '../src/state/stores/appStores.ts';
import { ServerSync } from '../src/state/team/serverSync.ts';
import { emptyMemory, type SyncMemory } from '../src/state/team/syncMemory.ts';
import { TeamApi } from '../src/state/team/teamApi.ts';
import { fetchChangeStream } from '../src/testing/fetchChangeStream.ts';

const MESSAGES = 100;
const CONVERSATIONS = Number(process.env.BENCH_SYNC_CONVERSATIONS ?? 10_000);

interface TimedServer {
  base: string;
  storage: Storage;
  /** Milliseconds spent answering requests (the change stream apart: it stays open). */
  busyMs: number;
  close(): Promise<void>;
}

async function teamServer(url: string): Promise<TimedServer> {
  const storage = await Storage.open({ engine: 'postgres', url });
  const auth = new TeamAuth(authConfigFromEnv({ HOPBASE_AUTH: 'header' }) as TeamConfig, storage);
  const routes = authRoutes(auth, () => {});
  routes.route('/', apiRoutes(auth, storage));
  const listener = getRequestListener(routes.fetch);
  const timed: TimedServer = { base: '', storage, busyMs: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/api/changes')) return listener(req, res);
    const started = performance.now();
    res.on('finish', () => {
      timed.busyMs += performance.now() - started;
    });
    return listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  timed.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  timed.close = async () => {
    server.closeAllConnections();
    server.close();
    await storage.close();
  };
  return timed;
}

function device(server: TimedServer, email: string): { stores: AppStores; sync: ServerSync } {
  const fetchFn: typeof fetch = (input, init) =>
    fetch(new URL(String(input), server.base), {
      ...init,
      headers: {
        ...(init?.headers as Record<string, string> | undefined),
        'x-forwarded-email': email,
        'sec-fetch-site': 'same-origin',
      },
    });
  const stores = createAppStores();
  stores.conversations.getState().hydrate([], null);
  let kept: SyncMemory = emptyMemory;
  const sync = new ServerSync({
    conversations: stores.conversations,
    settings: stores.settings,
    team: stores.team,
    api: new TeamApi(fetchFn),
    memory: {
      read: async () => kept,
      write: async (value) => {
        kept = value;
      },
    },
    openStream: fetchChangeStream(fetchFn),
    // As in the page: a message is structural, sent at once; this is the wait for streaming frames only.
    delayMs: 1_000,
  });
  return { stores, sync };
}

/** Resolves once `test` holds for `stores` (checked on each of their changes). */
function until(stores: AppStores, test: () => boolean): Promise<void> {
  if (test()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = stores.conversations.subscribe(() => {
      if (!test()) return;
      stop();
      resolve();
    });
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (value: number) => value.toFixed(1);

async function main() {
  const postgres = await startTestPostgres({ durable: true });
  const first = await teamServer(postgres.url);
  const second = await teamServer(postgres.url);
  const rows: string[] = [];
  try {
    // One message at a time from A (on the first server) to B (on the second).
    const a = device(first, 'bench@example.test');
    const b = device(second, 'bench@example.test');
    await Promise.all([a.sync.start(), b.sync.start()]);
    await until(a.stores, () => a.stores.team.getState().connection === 'live');
    await until(b.stores, () => b.stores.team.getState().connection === 'live');
    const id = a.stores.conversations.getState().newConversation('Bench');
    await until(b.stores, () => b.stores.conversations.getState().conversations[id] !== undefined);
    const times: number[] = [];
    first.busyMs = second.busyMs = 0;
    for (let i = 0; i < MESSAGES; i++) {
      const count = (a.stores.conversations.getState().conversations[id]?.messages.length ?? 0) + 1;
      const started = performance.now();
      a.stores.conversations.getState().addUserMessage(id, `Message ${i}: ${'lorem ipsum '.repeat(20)}`);
      await until(
        b.stores,
        () => b.stores.conversations.getState().conversations[id]?.messages.length === count,
      );
      times.push(performance.now() - started);
    }
    const serverMs = (first.busyMs + second.busyMs) / MESSAGES;
    times.sort((x, y) => x - y);
    rows.push(
      `| a message, device A → device B (two servers, one PostgreSQL) | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.95))} | ${ms(times.at(-1)!)} |`,
      `| the servers' time per message (A's write + B's read) | ${ms(serverMs)} | | |`,
    );
    await Promise.all([a.sync.stop(), b.sync.stop()]);

    // A person with 10,000 conversations (stored as their devices would have written them) opens a new device.
    const email = 'many@example.test';
    const user = await first.storage.users.signIn(
      { issuer: 'header', subject: email },
      { email, displayName: null, isAdmin: false },
    );
    const person = first.storage.forUser(user.id);
    const made: string[] = [];
    const now = Date.now();
    for (let start = 0; start < CONVERSATIONS; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, CONVERSATIONS - start) }, (_, k) => {
          const i = start + k;
          const conversationId = `conv_${i.toString(16).padStart(12, '0')}`;
          made.push(conversationId);
          const at = now - CONVERSATIONS + i;
          return person.conversations.put(
            {
              id: conversationId,
              title: `Conversation ${i}`,
              createdAt: at,
              updatedAt: at,
              messages: [
                { id: `${conversationId}-u`, role: 'user', text: 'lorem ipsum '.repeat(40), createdAt: at },
              ],
            },
            0,
          );
        }),
      );
    }
    const latest = new Set(made.slice(-100));
    const fresh = device(second, email);
    const opened = performance.now();
    const firstScreen = until(fresh.stores, () => {
      const here = fresh.stores.conversations.getState().conversations;
      for (const wanted of latest) if (!here[wanted]) return false;
      return true;
    }).then(() => performance.now() - opened);
    const everything = until(
      fresh.stores,
      () => Object.keys(fresh.stores.conversations.getState().conversations).length === CONVERSATIONS,
    ).then(() => performance.now() - opened);
    await fresh.sync.start();
    const [firstMs, allMs] = await Promise.all([firstScreen, everything]);
    rows.push(
      `| a new device, ${CONVERSATIONS.toLocaleString('en')} conversations: the 100 last worked on | ${ms(firstMs)} | | |`,
      `| a new device, ${CONVERSATIONS.toLocaleString('en')} conversations: all of them | ${ms(allMs)} | | |`,
    );
    await fresh.sync.stop();
  } finally {
    await first.close();
    await second.close();
    await postgres.stop();
  }
  console.log('| what | p50 ms | p95 ms | max ms |\n| --- | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
}

await main();
