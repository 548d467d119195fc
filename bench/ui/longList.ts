import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { chooseModel, lastAnswerDone, newPage, sendMessage } from './page.ts';

/** A reload of a browser that keeps `conversations` conversations: when each part of the first screen shows. */
export interface LongListFigures {
  conversations: number;
  /** The same, with one conversation stored: the app's own start. */
  oneListMs: number;
  /** From the navigation: the sidebar's first row and the message box are on screen. */
  listMs: number;
  /** …the active conversation's last answer is rendered. */
  answerMs: number;
  /** …the sidebar counts every conversation (its "Show N more" names all the rest). */
  allMs: number;
  /** The longest task from the navigation until all were counted. */
  longest: number;
  load: number;
  /** Then the sidebar's first search, matching every conversation. */
  search: TimedSearch;
  /** The page's JavaScript heap once all were counted, after a full garbage collection (MB). */
  heapMB: number;
  /** Then an answer streamed into the active conversation, saved as it grows beside all the others. */
  answer: { ms: number; longest: number };
}

/**
 * Copies the conversation this page made (its record and its request bodies) `count - 1` times into the
 * app's IndexedDB under new ids, each an hour older than the one before, as a person with that many
 * conversations would have them. Plain JavaScript run in the page (a function would be transpiled with
 * helpers the page does not have).
 */
const seedCopies = (count: number) => `(async () => {
  const done = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await done(indexedDB.open('hopbase-chat'));
  const read = db.transaction('state').objectStore('state');
  const [keys, values] = await Promise.all([done(read.getAllKeys()), done(read.getAll())]);
  const records = new Map(keys.map((k, i) => [String(k), values[i]]));
  const found = [...records].find(([k]) => k.startsWith('conversation:'));
  if (!found) throw new Error('no conversation record among ' + [...records.keys()].join(', '));
  const [key, conversation] = found;
  const attemptIds = conversation.messages.flatMap((m) => (m.attempts || []).map((a) => a.id));
  const ids = [conversation.id, ...conversation.messages.map((m) => m.id), ...attemptIds];
  const text = JSON.stringify(conversation);
  const bodies = attemptIds.map((id) => [id, JSON.stringify(records.get('request:' + id))]);
  const renamed = (json, n) => ids.reduce((s, id) => s.split(id).join(id + '-' + n), json);
  for (let n = 1; n < ${count}; ) {
    const tx = db.transaction('state', 'readwrite');
    const store = tx.objectStore('state');
    for (const end = Math.min(${count}, n + 500); n < end; n++) {
      const copy = JSON.parse(renamed(text, n));
      copy.title = 'Conversation ' + n + ' of the bench';
      copy.updatedAt = conversation.updatedAt - n * 3600000;
      copy.createdAt = copy.updatedAt;
      store.put(copy, key + '-' + n);
      for (const [id, body] of bodies)
        if (body !== undefined) store.put(JSON.parse(renamed(body, n)), 'request:' + id + '-' + n);
    }
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
  }
  db.close();
})()`;

// Each predicate answers when it first held, in ms from the navigation. Functions, not strings: the
// production server's CSP forbids the `eval` a string predicate needs.

/** The sidebar's first row and the message box are on screen. */
const listShown = () =>
  document.querySelector('.conversation-open') !== null &&
  document.querySelector('textarea[aria-label="Message"]') !== null &&
  performance.now();
/** The last answer in view is whole. */
const answerShown = () =>
  [...document.querySelectorAll('[data-testid="assistant-turn"]')]
    .at(-1)
    ?.querySelector('.md')
    ?.textContent?.includes('END-OF-ANSWER') === true && performance.now();
/** The sidebar's "more" button counts the rest of the list. */
const allCounted = (rest: string) =>
  [...document.querySelectorAll('.more-conversations button')].some((b) => b.textContent?.includes(rest)) &&
  performance.now();

/** When `holds` first held on a frame, in ms from the navigation (it answers `performance.now()` then). */
export async function whenShown<Arg = string>(
  page: Page,
  holds: (arg: Arg) => number | false,
  arg?: Arg,
): Promise<number> {
  const handle = await page.waitForFunction(holds as (arg: unknown) => number | false, arg, {
    polling: 'raf',
    timeout: 120_000,
  });
  return (await handle.jsonValue()) as number;
}

/** The longest task that started between `from` and `until` (ms from the navigation). */
export function longestTaskUntil(page: Page, until: number, from = 0): Promise<number> {
  return page.evaluate(
    ([start, end]) =>
      Math.max(
        0,
        ...(window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks
          .filter((t) => t.start >= start && t.start <= end)
          .map((t) => t.duration),
      ),
    [from, until] as const,
  );
}

/** A search typed in the sidebar: how many it found, from the typing to "N conversations match", the longest task meanwhile. */
export interface TimedSearch {
  found: number;
  ms: number;
  longest: number;
}

/** Types `word` in the sidebar's search and waits for it to say that `found` conversations match. */
export async function timedSearch(page: Page, word: string, found: number): Promise<TimedSearch> {
  const box = page.getByRole('searchbox', { name: 'Search conversations' });
  await box.focus();
  await page.evaluate(() => {
    const w = window as unknown as { __typedAt: number };
    document.addEventListener('input', () => (w.__typedAt = performance.now()), {
      once: true,
      capture: true,
    });
  });
  await box.fill(word);
  const shownAt = await whenShown(
    page,
    (text) =>
      (document.querySelector('.search-status')?.textContent ?? '').includes(text) && performance.now(),
    `${found.toLocaleString('en-US')} conversations match`,
  );
  const typedAt = await page.evaluate(() => (window as unknown as { __typedAt: number }).__typedAt);
  return { found, ms: shownAt - typedAt, longest: await longestTaskUntil(page, shownAt, typedAt) };
}

/** Clears the search, sends a question in the active conversation: until its answer is done, and the longest task meanwhile. */
async function timedAnswer(page: Page): Promise<{ ms: number; longest: number }> {
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
  const turns = await page.getByTestId('assistant-turn').count();
  const sentAt = await page.evaluate(() => performance.now());
  await sendMessage(page, 'Fourth question');
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="assistant-turn"]').length > n,
    turns,
  );
  await lastAnswerDone(page);
  const doneAt = await page.evaluate(() => performance.now());
  return { ms: doneAt - sentAt, longest: await longestTaskUntil(page, doneAt, sentAt) };
}

/** `BENCH_UI_SCREENSHOTS=1`: the long history as a person sees it, at desktop width, then on a phone in dark mode. */
async function screenshots(page: Page): Promise<void> {
  const dir = path.resolve(import.meta.dirname, '../../e2e-artifacts');
  await page.screenshot({ path: path.join(dir, 'bench-ui-long-list.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  // The sidebar slides out of the way at this width: the picture is of where it ends.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(dir, 'bench-ui-long-list-phone-dark.png') });
}

/** The page's JavaScript heap in use after a full garbage collection, in MB. */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / 1e6;
  } finally {
    await cdp.detach();
  }
}

/**
 * A person with `count` conversations (three ~5 kB answers each) reloads: when the list, the answer and
 * the whole list's count show, and the longest task meanwhile.
 */
export async function longList(browser: Browser, url: string, count: number): Promise<LongListFigures> {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(url);
    await chooseModel(page, 'bench-medium');
    for (const text of ['First question', 'Second question', 'Third question']) {
      const count = await page.getByTestId('assistant-turn').count();
      await sendMessage(page, text);
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="assistant-turn"]').length > n,
        count,
      );
      await lastAnswerDone(page);
    }
    await page.waitForTimeout(2_500); // saved
    // The same reload with this one conversation: what the app's own start costs.
    await page.reload();
    const oneListMs = await whenShown(page, listShown);
    await page.evaluate(seedCopies(count));
    const load = os.loadavg()[0]!;
    await page.reload();
    const listMs = await whenShown(page, listShown);
    const answerMs = await whenShown(page, answerShown);
    const rest = (count - 100).toLocaleString('en-US');
    const allMs = await whenShown(page, allCounted, rest);
    const longest = await longestTaskUntil(page, allMs);
    const heapMB = await heapAfterGc(page);
    // Every copy asked the same questions: the first search indexes all of them, a slice at a time.
    const search = await timedSearch(page, 'Third question', count);
    const answer = await timedAnswer(page);
    if (process.env.BENCH_UI_SCREENSHOTS) await screenshots(page);
    const figures = {
      conversations: count,
      oneListMs,
      listMs,
      answerMs,
      allMs,
      longest,
      heapMB,
      load,
      search,
      answer,
    };
    console.log('  long list:', JSON.stringify(figures));
    return figures;
  } finally {
    await context.close();
  }
}
