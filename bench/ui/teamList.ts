import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { Storage } from '../../server/db/storage.ts';
import { conversationPrefix } from '../../src/state/formats/records.ts';
import { personalDatabaseName } from '../../src/state/storage/database.ts';
import { RARE_WORD, seedConversations } from '../teamSeed.ts';
import { longestTaskUntil, type TimedSearch, timedSearch, whenShown } from './longList.ts';
import { newPage } from './page.ts';
import { startProductionServer } from './servers.ts';
import { explainLongTasks, TRACE_CATEGORIES } from './trace.ts';
import { newDeviceWithoutDevtools, type UntouchedOpening } from './withoutDevtools.ts';

/** Words in each of a conversation's three answers: about 5 kB each, as in the other benches. */
const ANSWER_WORDS = 850;
const EMAIL = 'many@example.test';

/** One opening of the app in team mode, in ms from the navigation. */
export interface TeamOpening {
  /** The sidebar's row of the conversation last worked on and the message box are on screen. */
  firstRowMs: number;
  /** …all of the 100 last worked on are listed. */
  hundredMs: number;
  /** The longest task from the navigation until then. */
  longest: number;
  /** Whether the sidebar then lists them newest first. */
  inOrder: boolean;
  /** When each step of the start ended: the document, the app's marks, `/api/me`, team mode's chunk, the server's first page and first records. */
  steps: Record<string, number>;
  load: number;
}

export interface TeamListFigures {
  conversations: number;
  /** Seeding the server's database, ms a conversation. */
  seedMsEach: number;
  /** A browser that has never synced (empty IndexedDB). */
  newDevice: TeamOpening;
  /** The same, five times in a Chromium with no DevTools protocol attached (`withoutDevtools.ts`). */
  untouched: UntouchedOpening[];
  /** …until every conversation is in its IndexedDB (and the sync's place kept), from the navigation. */
  allCachedMs: number;
  /** The longest task from the 100 listed until then: the catching up on the rest. */
  catchingUpLongest: number;
  /** The same browser reloaded, its IndexedDB the server's cache. */
  reloaded: TeamOpening & { allReadMs: number };
  /** The sidebar's search for a word in 1 % of the conversations: found, from typing to the results shown, longest task meanwhile. */
  search: TimedSearch;
  /** The same word searched in the database through the server's API from the page: median of 5, ms. */
  serverSearchMs: number;
}

// Page functions: no named inner functions (the bench's transpiler would wrap them in a helper the page
// does not have), and passed as functions, never strings (the production server's CSP forbids eval).

/** The rows whose titles are all of `titles` are listed, with the message box. */
const listed = (titles: string[]) => {
  if (document.querySelector('textarea[aria-label="Message"]') === null) return false;
  const shown = new Set(
    [...document.querySelectorAll('.conversation-list .conversation-title')].map((e) => e.textContent),
  );
  return titles.every((t) => shown.has(t)) && performance.now();
};

/** When each step of the app's start ended (ms from the navigation; the first request of each kind), and when the sync's reads were asked. */
const startSteps = () => {
  const out: Record<string, number> = {};
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  out.document = navigation?.responseEnd ?? -1;
  for (const mark of performance.getEntriesByType('mark'))
    if (mark.name.startsWith('hopbase:')) out[mark.name.slice('hopbase:'.length)] = mark.startTime;
  for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    const { pathname, search } = new URL(entry.name);
    const step =
      pathname === '/api/me'
        ? '/api/me'
        : pathname.includes('/teamServices')
          ? 'team chunk'
          : pathname === '/api/conversations' && search.includes('limit=')
            ? 'first page'
            : pathname === '/api/conversation-records'
              ? 'records'
              : '';
    if (!step || step in out) continue;
    out[step] = entry.responseEnd;
    // The sync's two reads: when each was asked too (what came before it is the app's own).
    if (step === 'first page' || step === 'records') out[`${step} asked`] = entry.startTime;
  }
  return out;
};

/** How many conversations the person's IndexedDB holds, and the sync's place (its last change taken in). */
const cached = ({ name, prefix }: { name: string; prefix: string }) =>
  new Promise<{ count: number; cursor: number }>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction('state');
      const count = tx.objectStore('state').count(IDBKeyRange.bound(prefix, `${prefix}\uffff`));
      const memory = tx.objectStore('state').get('server-sync');
      tx.oncomplete = () => {
        db.close();
        resolve({
          count: count.result,
          cursor: (memory.result as { cursor?: number } | undefined)?.cursor ?? 0,
        });
      };
      tx.onerror = () => reject(tx.error);
    };
  });

async function opening(page: Page, newest: string[]): Promise<TeamOpening> {
  const load = os.loadavg()[0]!;
  const firstRowMs = await whenShown(page, listed, newest.slice(0, 1));
  const hundredMs = await whenShown(page, listed, newest);
  return {
    firstRowMs,
    hundredMs,
    longest: await longestTaskUntil(page, hundredMs),
    inOrder: await page.evaluate(
      (titles) =>
        [...document.querySelectorAll('.conversation-list .conversation-title')]
          .slice(0, titles.length)
          .every((e, i) => e.textContent === titles[i]),
      newest,
    ),
    steps: await page.evaluate(startSteps),
    load,
  };
}

/** Polls until all `count` conversations are in the person's IndexedDB and the sync's place stays put. */
async function allCached(page: Page, count: number): Promise<number> {
  let before = -1;
  for (const started = Date.now(); Date.now() - started < 300_000; ) {
    const now = await page.evaluate(cached, {
      name: personalDatabaseName(EMAIL),
      prefix: conversationPrefix,
    });
    if (now.count === count && now.cursor > 0 && now.cursor === before)
      return page.evaluate(() => performance.now());
    before = now.count === count ? now.cursor : -1;
    await page.waitForTimeout(500);
  }
  throw new Error(`the ${count} conversations never all reached IndexedDB`);
}

/**
 * A person with `count` conversations on a team server (the production server in header mode, PGlite in a
 * temporary data directory, seeded through `server/db`) opens the app on a new device, then reloads it, then
 * searches: see `TeamListFigures`. `appDir` is the built app.
 */
export async function teamList(
  browser: Browser,
  root: string,
  appDir: string,
  count: number,
): Promise<TeamListFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hopbase-bench-team-'));
  let server: Awaited<ReturnType<typeof startProductionServer>> | undefined;
  try {
    console.log(`  team list: seeding ${count.toLocaleString('en-US')} conversations…`);
    const storage = await Storage.open({ engine: 'pglite', dataDir }, { log: () => {} });
    let seedMs: number;
    let newest: string[];
    try {
      const user = await storage.users.signIn(
        { issuer: 'header', subject: EMAIL },
        { email: EMAIL, displayName: null, isAdmin: false },
      );
      const person = storage.forUser(user.id);
      seedMs = await seedConversations(person, count, 1, ANSWER_WORDS);
      // As the server keeps PGlite: vacuumed and analyzed.
      await storage.maintain();
      newest = (await person.conversations.list({ limit: 100 })).items.map((item) => item.title);
    } finally {
      await storage.close();
    }
    server = await startProductionServer(root, appDir, { HOPBASE_AUTH: 'header', HOPBASE_DATA_DIR: dataDir });
    // The person's header, as a proxy on loopback (trusted by default) would add it.
    const { context, page } = await newPage(browser, { extraHTTPHeaders: { 'x-forwarded-email': EMAIL } });
    try {
      const tracing = process.env.BENCH_UI_TRACE;
      if (tracing) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await page.goto(server.url);
      const newDevice = await opening(page, newest);
      console.log('  team list, new device:', JSON.stringify(newDevice));
      if (tracing) explainLongTasks(await browser.stopTracing());
      const allCachedMs = await allCached(page, count);
      const catchingUpLongest = await longestTaskUntil(page, allCachedMs, newDevice.hundredMs);
      await page.reload();
      const reloadedOpening = await opening(page, newest);
      const rest = (count - 100).toLocaleString('en-US');
      const allReadMs = await whenShown(
        page,
        (text) =>
          [...document.querySelectorAll('.more-conversations button')].some((b) =>
            b.textContent?.includes(text),
          ) && performance.now(),
        rest,
      );
      const reloaded = { ...reloadedOpening, allReadMs };
      console.log('  team list, reloaded:', JSON.stringify(reloaded));

      const found = Math.ceil(count / 100);
      const search = await timedSearch(page, RARE_WORD, found);
      const serverTimes = await page.evaluate(async (word) => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          const response = await fetch(`/api/conversations?q=${encodeURIComponent(word)}&limit=50`);
          await response.json();
          times.push(performance.now() - started);
        }
        return times.sort((a, b) => a - b);
      }, RARE_WORD);
      const untouched = await newDeviceWithoutDevtools(server.url, { 'x-forwarded-email': EMAIL }, 5);
      console.log('  team list, new device without DevTools:', JSON.stringify(untouched));
      const figures: TeamListFigures = {
        conversations: count,
        seedMsEach: seedMs / count,
        newDevice,
        untouched,
        allCachedMs,
        catchingUpLongest,
        reloaded,
        search,
        serverSearchMs: serverTimes[2]!,
      };
      console.log('  team list:', JSON.stringify({ search, serverTimes, allCachedMs, catchingUpLongest }));
      return figures;
    } finally {
      await context.close();
    }
  } finally {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
