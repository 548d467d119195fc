import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContextOptions, expect, type Locator, type Page } from '@playwright/test';
import { firstScreenFonts } from '../src/app/firstScreen/warmFonts.ts';

export const protocolLabels = {
  chat: 'Chat Completions',
  responses: 'Responses',
  messages: 'Anthropic Messages',
} as const;

export type ProtocolKey = keyof typeof protocolLabels;
export const protocolKeys = Object.keys(protocolLabels) as ProtocolKey[];

export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

export async function choose(page: Page, protocol: ProtocolKey, model: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption({ label: protocolLabels[protocol] });
  await page.getByRole('combobox', { name: 'Model' }).selectOption(model);
}

export function turns(page: Page): Locator {
  return page.getByTestId('assistant-turn');
}

/**
 * Runs `action` (a send, a tool result, an import) and returns the answer it added, once it is on the
 * page: never the previous answer, even if that one has already finished.
 */
export async function newTurn(page: Page, action: () => Promise<unknown>): Promise<Locator> {
  const before = await turns(page).count();
  await action();
  await expect(turns(page)).toHaveCount(before + 1);
  return turns(page).nth(before);
}

/** Sends a message; returns the answer it starts. */
export function send(page: Page, text: string): Promise<Locator> {
  return newTurn(page, async () => {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  });
}

/** Waits until `turn` (from `send` or `newTurn`) has stopped streaming. */
export async function waitForAnswer(turn: Locator): Promise<Locator> {
  await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  return turn;
}

/**
 * Starts noting whether any answer shows as streaming (aria-busy="true"); the returned check says whether
 * one did. A short answer may finish before a poll of the attribute could see it streaming.
 */
export async function watchStreaming(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    const seen = { busy: false };
    (window as unknown as { hopbaseSawStreaming: typeof seen }).hopbaseSawStreaming = seen;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="assistant-turn"][aria-busy="true"]')) seen.busy = true;
    }).observe(document.body, { subtree: true, childList: true, attributeFilter: ['aria-busy'] });
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { hopbaseSawStreaming: { busy: boolean } }).hopbaseSawStreaming.busy,
    );
}

/** Sets settings through the dialog, as a person would. */
export async function setSettings(page: Page, fields: Record<string, string>): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/** A word no other test sends, to find this test's requests in the simulator's shared log. */
export function uniqueText(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 10)}`;
}

export interface LoggedRequest {
  id: number;
  path: string;
  body: unknown;
  /** SHA-256 of the body bytes exactly as the simulator received them. */
  rawSha256: string;
  headers: Record<string, string>;
}

export async function requestsContaining(page: Page, needle: string): Promise<LoggedRequest[]> {
  const response = await page.request.get('/__sim/requests');
  const all = (await response.json()) as LoggedRequest[];
  return all.filter((r) => JSON.stringify(r.body).includes(needle));
}

/**
 * Which of the requests carrying `needle` the simulator is still generating for. The simulator is
 * shared by the tests running in parallel, so its global count would mix theirs in.
 */
export async function activeRequestsContaining(page: Page, needle: string): Promise<number[]> {
  const ids = new Set((await requestsContaining(page, needle)).map((r) => r.id));
  const status = (await (await page.request.get('/__sim/status')).json()) as { activeRequests: number[] };
  return status.activeRequests.filter((id) => ids.has(id));
}

export interface StoredAttempt {
  status: string;
  text: string;
}

/**
 * Sends `text` in a conversation of its own and waits until IndexedDB holds the finished answer; returns the
 * answer's text.
 */
export async function conversationWith(page: Page, text: string): Promise<string> {
  await page.getByRole('button', { name: 'New chat' }).click();
  const turn = await waitForAnswer(await send(page, text));
  await expect
    .poll(async () => (await storedAttempts(page, text))?.map((a) => a.status))
    .toEqual(['complete']);
  return (await turn.getByTestId('turn-text').textContent()) ?? '';
}

/** One request to the app's IndexedDB store, made in the page as another program could. */
type StoreRequest =
  | { kind: 'get'; key: string }
  | { kind: 'getAll' }
  | { kind: 'keys'; prefix: string }
  | { kind: 'put'; key: string; value: unknown };

/** Runs `request` on the app's database; `null` while the app has not made it (this never makes it). */
function onAppDatabase(page: Page, request: StoreRequest): Promise<unknown> {
  return page.evaluate(async (request) => {
    const db = await new Promise<IDBDatabase | null>((resolve, reject) => {
      const open = indexedDB.open('hopbase-chat');
      // Never create the database: the app creates it with its store.
      open.onupgradeneeded = () => open.transaction?.abort();
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => (open.error?.name === 'AbortError' ? resolve(null) : reject(open.error));
    });
    if (!db) return null;
    try {
      if (!db.objectStoreNames.contains('state')) return null;
      return await new Promise<unknown>((resolve, reject) => {
        const tx = db.transaction('state', request.kind === 'put' ? 'readwrite' : 'readonly');
        const store = tx.objectStore('state');
        const result =
          request.kind === 'get'
            ? store.get(request.key)
            : request.kind === 'getAll'
              ? store.getAll()
              : request.kind === 'keys'
                ? store.getAllKeys(IDBKeyRange.bound(request.prefix, `${request.prefix}\uffff`))
                : store.put(request.value, request.key);
        tx.oncomplete = () => resolve(request.kind === 'put' ? undefined : result.result);
        tx.onerror = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  }, request);
}

/** The record stored under `key` (undefined: none; null: no database yet). */
export function storedRecord(page: Page, key: string): Promise<unknown> {
  return onAppDatabase(page, { kind: 'get', key });
}

/** The keys of the records whose key starts with `prefix` (null: no database yet). */
export async function storedKeys(page: Page, prefix: string): Promise<string[] | null> {
  return (await onAppDatabase(page, { kind: 'keys', prefix })) as string[] | null;
}

/** Writes `value` under `key`, as another program (or a damaged disk) could. */
export async function storeRecord(page: Page, key: string, value: unknown): Promise<void> {
  await onAppDatabase(page, { kind: 'put', key, value });
}

/** A stored attempt's turn: what an answer ended as, as IndexedDB holds it. */
interface StoredTurn {
  status: string;
  text: string;
  toolCalls: { name: string; arguments: string }[];
  usage: { inputTokens: number; outputTokens: number } | null;
}

/** A turn as its record holds it: its text in its text parts, and only there where they make it. */
type RecordTurn = Omit<StoredTurn, 'text'> & { text?: string; parts?: { kind: string; text?: string }[] };

/** The turn's text, as the app reads it back. */
function withText({ parts = [], ...turn }: RecordTurn): StoredTurn {
  const fromParts = parts.map((part) => (part.kind === 'text' ? (part.text ?? '') : '')).join('');
  return { ...turn, text: fromParts || (turn.text ?? '') };
}

/**
 * The turns of the last answer's attempts, as IndexedDB holds them now, in the stored conversation that
 * contains `needle`; `null` until that conversation has been written.
 */
export async function storedTurns(page: Page, needle: string): Promise<StoredTurn[] | null> {
  const values = (await onAppDatabase(page, { kind: 'getAll' })) as unknown[] | null;
  type Stored = { messages?: { role: string; attempts?: { turn: RecordTurn }[] }[] };
  const conversation = values?.find(
    (v): v is Stored =>
      typeof v === 'object' && v !== null && 'messages' in v && JSON.stringify(v).includes(needle),
  );
  const answer = conversation?.messages?.findLast((m) => m.role === 'assistant');
  return answer?.attempts?.map((a) => withText(a.turn)) ?? null;
}

/**
 * The attempts of the last answer, as IndexedDB holds them now, in the stored conversation that
 * contains `needle`; `null` until that conversation has been written.
 */
export async function storedAttempts(page: Page, needle: string): Promise<StoredAttempt[] | null> {
  return (await storedTurns(page, needle))?.map(({ status, text }) => ({ status, text })) ?? null;
}

/** WCAG 2.1 A and AA violations, as axe-core finds them, on the page (or its part `include`) as it is now. */
export async function violations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  // The rule, its impact and where: enough to find and fix it from the test output.
  return violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => n.target.join(' ')),
  }));
}

/** How far the page is wider than its window, in CSS pixels: 0 when nothing makes it scroll sideways. */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Runs `run` on a page of a browser context of its own (a viewport, a colour scheme), closed after. */
export async function inContext(
  browser: Browser,
  options: BrowserContextOptions,
  run: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext(options);
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

export const artifactsDir = 'e2e-artifacts';

/**
 * On a phone in dark mode: `show` opens the app and brings something onto the page; the page must then not
 * scroll sideways and must pass axe. Its screenshot is saved as `screenshot` (a file name in the artifacts).
 */
export async function onDarkPhone(
  browser: Browser,
  show: (page: Page) => Promise<void>,
  screenshot: string,
): Promise<void> {
  await inContext(browser, { colorScheme: 'dark', viewport: { width: 390, height: 780 } }, async (page) => {
    await openApp(page);
    await show(page);
    expect(await pageOverflow(page)).toBe(0);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/${screenshot}` });
  });
}

/** Fills the open chat's parameters through the toolbar's dialog, as a person would, and saves them. */
export async function setParameters(
  page: Page,
  values: Record<string, string>,
  stops: string[] = [],
): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Parameters' });
  const field = (name: string) => dialog.getByRole('textbox', { name: new RegExp(`^${name}`) });
  await page.getByRole('button', { name: 'Parameters', exact: true }).click();
  for (const [name, value] of Object.entries(values)) await field(name).fill(value);
  for (const [i, stop] of stops.entries()) {
    await dialog.getByRole('button', { name: 'Add stop sequence' }).click();
    await field(`Stop sequence ${i + 1}`).fill(stop);
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * The fonts of the text on screen that `warmFonts` does not make ready before the first layout
 * (`src/app/firstScreen/warmFonts.ts`): `family weight size`, `text` for the page's own family.
 */
export async function fontsNotWarmed(page: Page): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const text = getComputedStyle(document.body).fontFamily;
    const fonts = new Set<string>();
    for (const element of document.querySelectorAll('body *')) {
      const ownText =
        ['INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName) ||
        [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      const box = element.getBoundingClientRect();
      if (!ownText || box.width === 0 || box.bottom < 0 || box.top > innerHeight) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden') continue;
      const family = style.fontFamily === text ? 'text' : style.fontFamily;
      fonts.add(`${family} ${style.fontWeight} ${style.fontSize}`);
    }
    return [...fonts];
  });
  const warmed = new Set(firstScreenFonts.map((f) => `${f.family} ${f.weight} ${f.sizePx}px`));
  return shown.filter((font) => !warmed.has(font)).sort();
}
