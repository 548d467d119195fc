/**
 * `npm run bench:ui`: the chat pane in Chromium (production build) against a reference page built with
 * `streamdown` + its Shiki code plugin, both rendering the same stream from the same local pacing server.
 *
 * Reports, per contender and pace (2,000 deltas/s, and as fast as possible): long tasks, frame intervals,
 * main-thread busy time and layout + style time (Chrome DevTools protocol metrics), time to first and final
 * text, heap; then ours alone: switching to and reloading on a conversation of 50 ~5 kB answers, hostile
 * inputs, and the JavaScript the first screen loads. Writes bench/ui/results.md.
 *
 * `BENCH_UI_SERVER=own|preview|serve` picks the server the app is loaded from (bench/ui/servers.ts; default
 * own; a list such as `own,preview,serve` runs each case under each server in turn, in the same run), `BENCH_UI_CASES=paced,fast,reload,hostile,js,list,team-list` the cases run (`team-list`: team mode, its own
 * production server in header mode on a seeded PGlite, whatever `BENCH_UI_SERVER` says) (default all; the results file is written
 * only when all ran). `BENCH_UI_REPS=n` runs each streaming case n times (median reported; default 2).
 * `BENCH_UI_RELOADS=n` reloads the 50-answer conversation n times per HTTP cache state (default 5).
 * `BENCH_UI_NAMES=1` builds the app unminified, so that traces and profiles name its functions (the figures
 * are then not the production build's). `BENCH_UI_FILES=1` lists each file a reload loaded, with its timings.
 * `BENCH_UI_TASKS=1` lists each streaming run's long tasks (from the send's own on), when they began after the send
 * (the send's own a little before it) and how long they took.
 * `BENCH_UI_TRACE=1` traces the streaming, reload and hostile cases and team mode's new device, writes each
 * trace to the temp folder and says what each task over 50 ms ran and how much of it was the thread's own
 * time (CPU; the rest is waiting); `BENCH_UI_TRACE=light` leaves out the JavaScript sampling, whose own
 * cost lengthens every task, for a trace that times tasks as they are.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { writeResults } from '../writeResults.ts';
import { longList } from './longList.ts';
import { chooseModel, lastAnswerDone, median, newPage, sendMessage } from './page.ts';
import { PACED_RATE, startServer } from './server.ts';
import { type AppServer, SERVER_KINDS, type ServerKind, startAppServer } from './servers.ts';
import { type TeamOpening, teamList } from './teamList.ts';
import { explainFirstText, explainLongTasks, TRACE_CATEGORIES } from './trace.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_UI_REPS ?? 2);
/** Reloads of the 50-answer conversation per HTTP cache state: one reload's first paint varies by ±100 ms. */
const RELOADS = Number(process.env.BENCH_UI_RELOADS ?? 5);
const SERVERS = (process.env.BENCH_UI_SERVER ?? 'own').split(',').map((k) => k.trim() as ServerKind);
for (const kind of SERVERS)
  if (!SERVER_KINDS.includes(kind))
    throw new Error(`BENCH_UI_SERVER: each must be one of ${SERVER_KINDS.join(', ')}`);
const ALL_CASES = ['paced', 'fast', 'reload', 'hostile', 'js', 'list', 'team-list'] as const;
/** How many conversations the `list` and `team-list` cases open. */
const LIST_CONVERSATIONS = Number(process.env.BENCH_UI_CONVERSATIONS ?? 10_000);
const CASES = new Set(process.env.BENCH_UI_CASES?.split(',').map((c) => c.trim()) ?? ALL_CASES);
for (const c of CASES)
  if (!(ALL_CASES as readonly string[]).includes(c))
    throw new Error(`BENCH_UI_CASES: unknown case ${c} (known: ${ALL_CASES.join(', ')})`);
/** The machine's one-minute load average now: recorded with every figure. */
const load = () => os.loadavg()[0]!;
const tmp = path.join(os.tmpdir(), `hopbase-bench-ui-${process.pid}`);
const appDir = path.join(tmp, 'app');
const referenceDir = path.join(tmp, 'reference');

interface StreamFigures {
  longTasks: number;
  longestTask: number;
  longTasksOver100: number;
  fps: number;
  frameP95: number;
  frameMax: number;
  busyMs: number;
  scriptMs: number;
  layoutStyleMs: number;
  firstTextMs: number;
  finalTextMs: number;
  heapMb: number;
  /** The one-minute load average when the case started. */
  load: number;
}

/** Whether the last element of the answer holds the end marker (a cheap check: no whole-text read). */
function finalShown(marker: string): boolean {
  const texts = document.querySelectorAll('[data-testid="turn-text"]');
  let node = texts[texts.length - 1] as Element | undefined;
  if (!node) return false;
  while (node.lastElementChild) node = node.lastElementChild;
  return (node.textContent ?? '').includes(marker);
}

type Cdp = Awaited<ReturnType<BrowserContext['newCDPSession']>>;

/** Chrome's own counters (seconds of task, script, layout and style time; heap bytes), from one session. */
async function metrics(cdp: Cdp): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

let profiles = 0;

/**
 * A long task of the answer's: from the one that sent it on. The send is stamped inside its task (the
 * Enter's keydown, the reference's call), so that task began a little before the stamp and still counts.
 */
const fromTheSend = (task: { start: number; duration: number }, sendAt: number) =>
  task.start + task.duration >= sendAt;

/** `BENCH_UI_PROFILE=prefix`: a CPU profile of each streamed answer, and its top functions by self time. */
const profile = {
  async start(cdp: Cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  },
  async stop(cdp: Cdp, file: string) {
    const { profile: data } = await cdp.send('Profiler.stop');
    writeFileSync(file, JSON.stringify(data));
    const self = new Map<string, number>();
    const deltas = data.timeDeltas ?? [];
    const byId = new Map(data.nodes.map((n) => [n.id, n]));
    (data.samples ?? []).forEach((id, i) => {
      const node = byId.get(id)!;
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
    });
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
    for (const [name, ms] of top) console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  },
};

/** One streamed answer on one page; `start` begins the stream, `done` says when the stream has ended. */
async function measureStream(page: Page, start: () => Promise<void>, done: () => Promise<boolean>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.waitForTimeout(300); // let startup settle
  const loadAtStart = load();
  const before = await metrics(cdp);
  if (process.env.BENCH_UI_PROFILE) await profile.start(cdp);
  const tracing = process.env.BENCH_UI_TRACE;
  if (tracing)
    await page.context().browser()!.startTracing(page, {
      categories: TRACE_CATEGORIES,
    });
  await start();
  const startedAt = Date.now();
  for (;;) {
    if ((await page.evaluate(finalShown, 'THE-END-MARKER')) && (await done())) break;
    if (Date.now() - startedAt > 120_000) throw new Error('the answer never finished');
    await page.waitForTimeout(20);
  }
  const finalAt = await page.evaluate(() => performance.now());
  await page.waitForTimeout(1_000); // what the end of the stream still costs (highlighting) is counted too
  const after = await metrics(cdp);
  const traced = tracing ? await page.context().browser()!.stopTracing() : null;
  if (traced) explainLongTasks(traced);
  if (process.env.BENCH_UI_PROFILE)
    await profile.stop(cdp, `${process.env.BENCH_UI_PROFILE}-${++profiles}.cpuprofile`);
  await cdp.detach();
  const trace = await page.evaluate(() => {
    const w = window as unknown as {
      __longTasks: { start: number; duration: number }[];
      __frames: number[];
      __sendAt: number;
      __firstAt: number;
    };
    return { longTasks: w.__longTasks, frames: w.__frames, sendAt: w.__sendAt, firstAt: w.__firstAt };
  });
  if (traced) explainFirstText(traced, trace.firstAt - trace.sendAt);
  const sent = trace.longTasks.filter((t) => fromTheSend(t, trace.sendAt));
  const tasks = sent.map((t) => t.duration);
  if (process.env.BENCH_UI_TASKS)
    console.log(
      `    long tasks [ms after the send, length]: ${JSON.stringify(
        sent.map((t) => [Math.round(t.start - trace.sendAt), Math.round(t.duration)]),
      )}; first text ${Math.round(trace.firstAt - trace.sendAt)} ms, final ${Math.round(finalAt - trace.sendAt)} ms`,
    );
  const frames = trace.frames.filter((t) => t >= trace.sendAt && t <= finalAt);
  const intervals = frames.slice(1).map((t, i) => t - frames[i]!);
  const sorted = [...intervals].sort((a, b) => a - b);
  const d = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
  const figures: StreamFigures = {
    longTasks: tasks.length,
    longestTask: Math.max(0, ...tasks),
    longTasksOver100: tasks.filter((t) => t > 100).length,
    fps: frames.length > 1 ? ((frames.length - 1) * 1000) / (frames[frames.length - 1]! - frames[0]!) : 0,
    frameP95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    frameMax: sorted[sorted.length - 1] ?? 0,
    busyMs: d('TaskDuration'),
    scriptMs: d('ScriptDuration'),
    layoutStyleMs: d('LayoutDuration') + d('RecalcStyleDuration'),
    firstTextMs: trace.firstAt - trace.sendAt,
    finalTextMs: finalAt - trace.sendAt,
    heapMb: (after.JSHeapUsedSize ?? 0) / 1e6,
    load: loadAtStart,
  };
  return figures;
}

async function ours(browser: Browser, url: string, model: string): Promise<StreamFigures> {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(url);
    await chooseModel(page, model);
    const figures = await measureStream(
      page,
      () => sendMessage(page, 'The long answer, please'),
      async () => (await page.getByTestId('assistant-turn').last().getAttribute('aria-busy')) === 'false',
    );
    if (process.env.BENCH_UI_SCREENSHOTS) {
      // What the answer looks like once streamed: the long code block, highlighted, mid-way.
      await page
        .locator('pre code')
        .first()
        .evaluate((code) => {
          const chunks = code.querySelectorAll('.md-code-chunk');
          chunks[Math.floor(chunks.length / 2)]?.scrollIntoView({ block: 'center' });
        });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(root, `e2e-artifacts/bench-ui-${model}.png`) });
      // Selecting the code and copying it gives the code exactly, across chunk boundaries.
      const copied = await page
        .locator('pre code')
        .first()
        .evaluate((code) => {
          const range = document.createRange();
          range.selectNodeContents(code);
          getSelection()!.removeAllRanges();
          getSelection()!.addRange(range);
          return { selected: getSelection()!.toString(), text: code.textContent };
        });
      if (copied.selected !== copied.text) console.log('  selection differs from the code text');
      else console.log('  selection of the code equals its text');
    }
    return figures;
  } finally {
    await context.close();
  }
}

async function reference(browser: Browser, url: string, model: string): Promise<StreamFigures> {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${url}/reference/`);
    await page.waitForFunction(
      () => typeof (window as unknown as { startStream?: unknown }).startStream === 'function',
    );
    return await measureStream(
      page,
      () =>
        page.evaluate((m) => {
          (window as unknown as { __sendAt: number }).__sendAt = performance.now();
          (window as unknown as { startStream(m: string): void }).startStream(m);
        }, model),
      () => page.evaluate(() => (window as unknown as { benchDone?: boolean }).benchDone === true),
    );
  } finally {
    await context.close();
  }
}

function medianFigures(runs: StreamFigures[]): StreamFigures {
  const keys = Object.keys(runs[0]!) as (keyof StreamFigures)[];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as StreamFigures;
}

/** How a page's load went, from its Navigation, Resource and Paint timings (ms from the navigation). */
interface LoadTimings {
  /** The document: request sent, first byte, last byte; DOMContentLoaded ended. */
  docRequest: number;
  docFirstByte: number;
  docEnd: number;
  domContentLoaded: number;
  /** Files loaded before the first contentful paint (scripts, styles, fonts…; not fetch()). */
  files: number;
  /** …of which taken from the HTTP cache with no request, revalidated (304), fetched whole. */
  fromCache: number;
  revalidated: number;
  fetched: number;
  /** Bytes on the wire and decoded (compression), of those files. */
  transferKb: number;
  decodedKb: number;
  /** The last script or style sheet of those to end, and when. */
  lastFile: string;
  lastFileEnd: number;
  /** The app's steps as it marked them, ms from the navigation. */
  steps: Record<string, number>;
}

interface ReloadFigures {
  fcpMs: number;
  shownMs: number;
  longest: number;
  load: number;
  timings: LoadTimings;
}

interface LongConversationFigures {
  switchMs: number[];
  switchLongest: number;
  /** Reloaded with the HTTP cache of the first load (the browser's reload), and with it emptied. */
  warm: ReloadFigures[];
  cold: ReloadFigures[];
}

/** The reload of median first paint, and the range of the first paints. */
function medianReload(runs: ReloadFigures[]): { figures: ReloadFigures; fcpRange: [number, number] } {
  const byFcp = [...runs].sort((a, b) => a.fcpMs - b.fcpMs);
  return { figures: byFcp[(byFcp.length - 1) >> 1]!, fcpRange: [byFcp[0]!.fcpMs, byFcp.at(-1)!.fcpMs] };
}

/** The page's own account of its load (see LoadTimings). */
function loadTimings(): LoadTimings {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
  const fcp =
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY;
  const files = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
    (r) => r.initiatorType !== 'fetch' && r.initiatorType !== 'xmlhttprequest' && r.startTime < fcp,
  );
  const last = files
    .filter((r) => /\.(js|css)$/.test(r.name))
    .reduce<PerformanceResourceTiming | undefined>(
      (a, r) => (!a || r.responseEnd > a.responseEnd ? r : a),
      undefined,
    );
  return {
    docRequest: nav.requestStart,
    docFirstByte: nav.responseStart,
    docEnd: nav.responseEnd,
    domContentLoaded: nav.domContentLoadedEventEnd,
    files: files.length,
    fromCache: files.filter((r) => r.transferSize === 0).length,
    revalidated: files.filter((r) => r.transferSize > 0 && r.transferSize < r.encodedBodySize).length,
    fetched: files.filter((r) => r.transferSize > 0 && r.transferSize >= r.encodedBodySize).length,
    transferKb: files.reduce((sum, r) => sum + r.transferSize, 0) / 1000,
    decodedKb: files.reduce((sum, r) => sum + r.decodedBodySize, 0) / 1000,
    lastFile: last ? (last.name.split('/').pop() ?? '') : '',
    lastFileEnd: last?.responseEnd ?? 0,
    // The app's own steps (`startMark` in src/app/main.tsx), ms from the navigation.
    steps: Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('hopbase:'))
        .map((m) => [m.name.slice('hopbase:'.length), Math.round(m.startTime)]),
    ),
  };
}

/** Reloads on the 50-answer conversation (`cold`: with the browser's HTTP cache emptied first). */
async function reloadOn(browser: Browser, page: Page, cold: boolean): Promise<ReloadFigures> {
  if (cold) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
  }
  await page.waitForTimeout(500);
  const loadAtStart = load();
  const tracing = process.env.BENCH_UI_TRACE;
  if (tracing) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.reload();
  await page.waitForFunction(() => {
    const turns = document.querySelectorAll('[data-testid="assistant-turn"]');
    return turns.length === 50 && !!turns[49]!.querySelector('.md table');
  });
  const shown = await page.evaluate(() => performance.now());
  await page.waitForTimeout(1_000);
  if (tracing) {
    console.log(`  reload (${cold ? 'cold' : 'warm'} HTTP cache):`);
    explainLongTasks(await browser.stopTracing());
  }
  const result = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1;
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    return { fcp, longest: Math.max(0, ...w.__longTasks.map((t) => t.duration)) };
  });
  const timings = await page.evaluate(loadTimings);
  if (process.env.BENCH_UI_FILES)
    for (const r of await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => r.initiatorType !== 'fetch')
        .map((r) => ({
          name: r.name.split('/').pop(),
          start: Math.round(r.startTime),
          request: Math.round(r.requestStart),
          end: Math.round(r.responseEnd),
          bytes: r.transferSize,
        })),
    ))
      console.log(`    ${JSON.stringify(r)}`);
  const figures = { fcpMs: result.fcp, shownMs: shown, longest: result.longest, load: loadAtStart, timings };
  console.log(`  reload, ${cold ? 'cold' : 'warm'} HTTP cache:`, JSON.stringify(figures));
  return figures;
}

/** 50 finished ~5 kB answers: switching to that conversation, and reloading on it. */
async function longConversation(browser: Browser, url: string): Promise<LongConversationFigures> {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(url);
    await chooseModel(page, 'bench-medium');
    for (let i = 0; i < 50; i++) {
      const count = await page.getByTestId('assistant-turn').count();
      await sendMessage(page, i === 0 ? 'Fifty answers' : `Answer ${i + 1}`);
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="assistant-turn"]').length > n,
        count,
      );
      await lastAnswerDone(page);
    }
    await page.getByRole('button', { name: 'New chat' }).click();
    await sendMessage(page, 'A short one');
    await lastAnswerDone(page);

    const switchTo = (title: string) =>
      page.evaluate((title) => {
        const button = [...document.querySelectorAll<HTMLElement>('.conversation-open')].find((b) =>
          b.textContent?.includes(title),
        )!;
        const t0 = performance.now();
        button.click();
        // The next frame after the switch has painted what is visible.
        return new Promise<{ ms: number; rendered: boolean; longest: number }>((resolve) =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              const ms = performance.now() - t0;
              const turns = document.querySelectorAll('[data-testid="assistant-turn"]');
              const last = turns[turns.length - 1];
              const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
              const longest = Math.max(
                0,
                ...w.__longTasks.filter((t) => t.start >= t0).map((t) => t.duration),
              );
              resolve({ ms, rendered: !!last?.querySelector('.md table'), longest });
            }),
          ),
        );
      }, title);
    const switchMs: number[] = [];
    let switchLongest = 0;
    for (let i = 0; i < 3; i++) {
      const to50 = await switchTo('Fifty answers');
      if (!to50.rendered) throw new Error('the last answer was not rendered after the switch');
      switchMs.push(to50.ms);
      switchLongest = Math.max(switchLongest, to50.longest);
      await page.waitForTimeout(500);
      await switchTo('A short one');
      await page.waitForTimeout(300);
    }
    await switchTo('Fifty answers');
    await page.waitForTimeout(2_500); // saved
    const warm: ReloadFigures[] = [];
    const cold: ReloadFigures[] = [];
    // Alternately: the machine's load at the time falls on both alike.
    for (let i = 0; i < RELOADS; i++) {
      warm.push(await reloadOn(browser, page, false));
      cold.push(await reloadOn(browser, page, true));
    }
    return { switchMs, switchLongest, warm, cold };
  } finally {
    await context.close();
  }
}

/** Hostile inputs (issue #11), each streamed as fast as possible: the longest task while it renders. */
async function hostileInputs(
  browser: Browser,
  url: string,
): Promise<Record<string, { longest: number; ms: number }>> {
  const out: Record<string, { longest: number; ms: number }> = {};
  for (const name of ['quotes-5000', 'list-500', 'code-100k']) {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(url);
      await chooseModel(page, `bench-hostile-${name}`);
      await page.waitForTimeout(300);
      const tracing = process.env.BENCH_UI_TRACE;
      if (tracing)
        await browser.startTracing(page, {
          categories: TRACE_CATEGORIES,
        });
      await sendMessage(page, 'Hostile');
      await page.waitForFunction(() => {
        const texts = document.querySelectorAll('[data-testid="turn-text"]');
        const t = texts[texts.length - 1];
        return !!t && (t.textContent ?? '').includes('HOSTILE-END') && !t.closest('[aria-busy="true"]');
      });
      await page.waitForTimeout(1_000);
      if (tracing) {
        console.log(`  ${name}:`);
        explainLongTasks(await browser.stopTracing());
      }
      out[name] = await page.evaluate(() => {
        const w = window as unknown as {
          __longTasks: { start: number; duration: number }[];
          __sendAt: number;
        };
        // As `fromTheSend` (the page cannot call the bench's functions).
        const tasks = w.__longTasks.filter((t) => t.start + t.duration >= w.__sendAt);
        return {
          longest: Math.max(0, ...tasks.map((t) => t.duration)),
          ms: performance.now() - w.__sendAt - 1_000,
        };
      });
    } finally {
      await context.close();
    }
  }
  return out;
}

/** The JavaScript the empty app's first screen loads, and when the markdown chunk was asked for. */
interface InitialJsFigures {
  /** Every script requested before the first contentful paint, gzipped. */
  firstScreenKb: number;
  markdownKb: number;
  /** When the markdown chunk was requested and the first contentful paint came, ms from the navigation. */
  markdownAtMs: number | null;
  fcpMs: number;
}

/**
 * The JavaScript the empty app's first screen loads, gzipped: every script requested before its first
 * contentful paint (what is fetched after it, such as the renderer fetched when the page is idle, is not
 * the first screen's); and the markdown chunk, with when it was requested: before the paint (a person
 * then waits for it too, and it is counted with the first screen) or after.
 */
async function initialJs(browser: Browser, url: string): Promise<InitialJsFigures> {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(url);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await page.waitForTimeout(1_500);
    const { fcp, scripts } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => new URL(r.name).pathname.endsWith('.js'))
        .map((r) => ({ path: new URL(r.name).pathname, start: r.startTime })),
    }));
    const gz = (p: string) => gzipSync(readFileSync(path.join(appDir, p)), { level: 9 }).length / 1000;
    const first = scripts.filter((s) => s.start < fcp).reduce((sum, s) => sum + gz(s.path), 0);
    const chunk = readdirSync(path.join(appDir, 'assets')).find((f) => /^Markdown-.*\.js$/.test(f));
    const markdown = scripts.find((s) => chunk !== undefined && s.path.endsWith(`/${chunk}`));
    const figures = {
      firstScreenKb: first,
      markdownKb: chunk ? gz(`assets/${chunk}`) : 0,
      markdownAtMs: markdown?.start ?? null,
      fcpMs: fcp,
    };
    console.log('  first-screen JavaScript:', JSON.stringify(figures));
    return figures;
  } finally {
    await context.close();
  }
}

/** Whether the markdown chunk came before the first paint, in words for the results. */
function markdownWhen({ markdownAtMs, fcpMs }: InitialJsFigures): string {
  if (markdownAtMs === null) return 'not requested';
  const when = `requested at ${markdownAtMs.toFixed(0)} ms, first contentful paint at ${fcpMs.toFixed(0)} ms`;
  return markdownAtMs < fcpMs
    ? `before the paint, counted in the first figure: ${when}`
    : `after the paint: ${when}`;
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');

async function main() {
  // The machine's load when the run starts: figures taken on a busy machine are not comparable.
  const loadAtStart = load();
  console.log('Building the app and the reference page…');
  await build({
    configFile: path.join(root, 'vite.config.ts'),
    root,
    logLevel: 'warn',
    build: { outDir: appDir, emptyOutDir: true, ...(process.env.BENCH_UI_NAMES ? { minify: false } : {}) },
  });
  await build({
    configFile: false,
    root: path.join(root, 'bench/ui/reference'),
    base: '/reference/',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir: referenceDir, emptyOutDir: true, chunkSizeWarningLimit: 100_000 },
  });
  // The pacing server always streams the answers; the app is loaded from the chosen server.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const pacing = await startServer(appDir, referenceDir);
  const apps: AppServer[] = [];
  try {
    for (const kind of SERVERS) apps.push(await startAppServer(kind, root, appDir, referenceDir, pacing.url));
  } catch (error) {
    for (const app of apps) await app.close();
    await browser.close();
    pacing.server.close();
    throw error;
  }
  const several = apps.length > 1;
  const header = () =>
    `Server${several ? 's' : ''}: ${apps.map((a) => a.describe).join('; ')}. Chromium ${browser.version()}, Node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start and ${load().toFixed(1)} at the end (and per case below); median of ${REPS} run(s) per cell.`;
  for (const app of apps) console.log(`Server: ${app.describe} on ${app.url}`);
  console.log(
    `Chromium ${browser.version()}, Node ${process.version}; load average ${loadAtStart.toFixed(1)}`,
  );
  try {
    const rows: { mode: string; ours: StreamFigures; ref: StreamFigures }[] = [];
    for (const [pace, model, name] of [
      [`${PACED_RATE.toLocaleString('en-US')} deltas/s`, 'bench-paced', 'paced'],
      ['as fast as possible', 'bench-max', 'fast'],
    ] as const) {
      if (!CASES.has(name)) continue;
      for (const app of apps) {
        const url = app.url;
        const mode = several ? `${pace}, ${app.kind}` : pace;
        const oursRuns: StreamFigures[] = [];
        const refRuns: StreamFigures[] = [];
        for (let i = 0; i < REPS; i++) {
          // Alternating order: neither always runs on a warmer machine.
          if (i % 2 === 0) {
            oursRuns.push(await ours(browser, url, model));
            if (!process.env.BENCH_UI_OURS_ONLY) refRuns.push(await reference(browser, url, model));
          } else {
            if (!process.env.BENCH_UI_OURS_ONLY) refRuns.push(await reference(browser, url, model));
            oursRuns.push(await ours(browser, url, model));
          }
          console.log(
            `  ${mode}: run ${i + 1} of ${REPS}`,
            JSON.stringify({ ours: oursRuns.at(-1), ref: refRuns.at(-1) }),
          );
        }
        if (refRuns.length > 0)
          rows.push({ mode, ours: medianFigures(oursRuns), ref: medianFigures(refRuns) });
      }
    }
    const longs: { kind: ServerKind; long: LongConversationFigures }[] = [];
    if (CASES.has('reload'))
      for (const app of apps) {
        console.log(`  the 50-answer conversation (${app.kind})…`);
        longs.push({ kind: app.kind, long: await longConversation(browser, app.url) });
      }
    const url = apps[0]!.url;
    let bad: Record<string, { longest: number; ms: number }> = {};
    if (CASES.has('hostile')) {
      console.log('  hostile inputs…');
      bad = await hostileInputs(browser, url);
    }
    const js = CASES.has('js') ? await initialJs(browser, url) : undefined;
    const list = CASES.has('list') ? await longList(browser, url, LIST_CONVERSATIONS) : undefined;
    const team = CASES.has('team-list')
      ? await teamList(browser, root, appDir, LIST_CONVERSATIONS)
      : undefined;

    const lines: string[] = [header(), ''];
    if (rows.length > 0)
      lines.push(
        '| pace | contender | load | long tasks >50 ms (>100 ms) | longest task ms | frames/s | frame p95 / max ms | main-thread busy ms | layout + style ms | script ms | first text ms | final text ms | heap MB |',
        '| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
      );
    for (const { mode, ours: o, ref: r } of rows) {
      for (const [name, x] of [
        ['HopBase Chat', o],
        ['streamdown + Shiki', r],
      ] as const) {
        lines.push(
          `| ${mode} | ${name} | ${f1(x.load)} | ${f0(x.longTasks)} (${f0(x.longTasksOver100)}) | ${f0(x.longestTask)} | ${f0(x.fps)} | ${f0(x.frameP95)} / ${f0(x.frameMax)} | ${f0(x.busyMs)} | ${f0(x.layoutStyleMs)} | ${f0(x.scriptMs)} | ${f0(x.firstTextMs)} | ${f0(x.finalTextMs)} | ${f1(x.heapMb)} |`,
        );
      }
      lines.push(
        `| ${mode} | **ours ÷ reference** | | | ${ratio(o.longestTask, r.longestTask)} | | | ${ratio(o.busyMs, r.busyMs)} | ${ratio(o.layoutStyleMs, r.layoutStyleMs)} | ${ratio(o.scriptMs, r.scriptMs)} | ${ratio(o.firstTextMs, r.firstTextMs)} | ${ratio(o.finalTextMs, r.finalTextMs)} | ${ratio(o.heapMb, r.heapMb)} |`,
      );
    }
    if (longs.length > 0 || Object.keys(bad).length > 0 || js || list || team) {
      const reload = (runs: ReloadFigures[], how: string) => {
        const { figures: x, fcpRange } = medianReload(runs);
        const t = x.timings;
        const longest = Math.max(...runs.map((r) => r.longest));
        return [
          `| reload on it, ${how}, the median of ${runs.length} by first paint (load ${f1(x.load)}): first contentful paint (all ${runs.length}: from–to) / last answer rendered / longest task (of all ${runs.length}) | ${f0(x.fcpMs)} ms (${f0(fcpRange[0])}–${f0(fcpRange[1])}) / ${f0(x.shownMs)} ms / ${f0(longest)} ms |`,
          `| …its document: first byte / last byte / DOMContentLoaded | ${f0(t.docFirstByte)} / ${f0(t.docEnd)} / ${f0(t.domContentLoaded)} ms |`,
          `| …files before the first paint: from cache / revalidated / fetched; on the wire / decoded; last to end | ${t.fromCache} / ${t.revalidated} / ${t.fetched}; ${f1(t.transferKb)} / ${f1(t.decodedKb)} kB; ${t.lastFile} at ${f0(t.lastFileEnd)} ms |`,
          `| …the app's steps: ${Object.keys(t.steps).join(' / ')} | ${Object.values(t.steps).join(' / ')} ms |`,
        ];
      };
      lines.push('', '| HopBase Chat alone | figure |', '| --- | --: |');
      for (const { kind, long } of longs) {
        if (several) lines.push(`| **loaded from ${kind}** | |`);
        lines.push(
          `| switching to a conversation of 50 ~5 kB answers (visible part painted), median of 3 / longest task | ${f0(median(long.switchMs))} ms / ${f0(long.switchLongest)} ms |`,
          ...reload(long.warm, 'warm HTTP cache'),
          ...reload(long.cold, 'cold HTTP cache'),
        );
      }
      lines.push(
        ...Object.entries(bad).map(
          ([name, x]) =>
            `| hostile \`${name}\`: longest task / time to render | ${f0(x.longest)} ms / ${f0(x.ms)} ms |`,
        ),
      );
      if (list)
        lines.push(
          `| reload with 1 conversation: list and message box shown | ${f0(list.oneListMs)} ms |`,
          `| reload with ${list.conversations.toLocaleString('en-US')} conversations (load ${f1(list.load)}): list and message box shown / active answer rendered / all counted / longest task | ${f0(list.listMs)} ms / ${f0(list.answerMs)} ms / ${f0(list.allMs)} ms / ${f0(list.longest)} ms |`,
          `| …the page's JavaScript heap once all are counted, after a full garbage collection | ${f0(list.heapMB)} MB |`,
          `| …then the sidebar's first search, matching all ${list.search.found.toLocaleString('en-US')}: typing to the results shown / longest task | ${f0(list.search.ms)} ms / ${f0(list.search.longest)} ms |`,
          `| …then a ~5 kB answer streamed and saved beside them: send to done / longest task | ${f0(list.answer.ms)} ms / ${f0(list.answer.longest)} ms |`,
        );
      if (team) {
        const n = team.conversations.toLocaleString('en-US');
        const opened = (x: TeamOpening, how: string) => [
          `| team mode, ${how} (load ${f1(x.load)}): newest row and message box shown / the 100 newest listed${x.inOrder ? '' : ' (**not newest first**)'} / longest task | ${f0(x.firstRowMs)} ms / ${f0(x.hundredMs)} ms / ${f0(x.longest)} ms |`,
          `| …its steps, each's end: ${Object.entries(x.steps)
            .sort((a, b) => a[1] - b[1])
            .map(([step, at]) => `${step} ${f0(at)}`)
            .join(' / ')} ms | |`,
        ];
        lines.push(
          ...opened(team.newDevice, `a new device, ${n} conversations on the server`),
          `| …the same, a Chromium with no DevTools protocol attached, 5 new devices (startup trace; load ${team.untouched.map((x) => f1(x.load)).join(', ')}): first commit / longest task (its CPU time, its longest event), each | ${team.untouched.map((x) => `${f0(x.firstCommitMs)} / ${f0(x.longest.ms)} (${f0(x.longest.cpuMs)}, ${x.longest.what})`).join('; ')} ms |`,
          `| …until all ${n} are in its IndexedDB (seeding the server took ${f1(team.seedMsEach)} ms a conversation) / longest task meanwhile | ${f0(team.allCachedMs)} ms / ${f0(team.catchingUpLongest)} ms |`,
          ...opened(team.reloaded, 'the same device reloaded (its IndexedDB the cache)'),
          `| …until all ${n} are read into the list | ${f0(team.reloaded.allReadMs)} ms |`,
          `| team mode, the sidebar's search for a word in 1 % (${team.search.found} found): typing to the results shown / longest task | ${f0(team.search.ms)} ms / ${f0(team.search.longest)} ms |`,
          `| …the same word searched in the database, \`/api/conversations?q=\` fetched by the page (median of 5) | ${f0(team.serverSearchMs)} ms |`,
        );
      }
      if (js)
        lines.push(
          `| JavaScript for the first screen (gzip) / markdown chunk (meant to be fetched once the first screen has painted, when the page is idle; this run: ${markdownWhen(js)}) | ${f1(js.firstScreenKb)} kB / ${f1(js.markdownKb)} kB |`,
        );
    }
    const table = lines.join('\n');
    console.log(`\n${table}\n`);
    if (ALL_CASES.every((c) => CASES.has(c)))
      writeResults(
        path.join(root, 'bench/ui/results.md'),
        `# UI benchmark (\`npm run bench:ui\`)\n\nLast run, ${new Date().toISOString().slice(0, 10)}.\n\n${table}\n`,
      );
  } finally {
    await browser.close();
    for (const app of apps) await app.close();
    pacing.server.close();
  }
}

await main();
