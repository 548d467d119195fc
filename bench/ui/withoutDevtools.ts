import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type TraceEvent, taskTest } from './trace.ts';

/**
 * A new device's opening as a person's browser runs it: Chromium started on its own, with no DevTools
 * protocol attached. Playwright attaches one and enables its `Runtime` domain, which makes Blink take the
 * whole JavaScript stack at each `fetch`, Web Lock and storage call: V8 then re-parses every script on
 * that stack for its source positions, 19–22 ms more in the module graph's evaluation on a new device
 * (docs/performance.md, session 29). What the page did is read from a startup trace.
 */
export interface UntouchedOpening {
  load: number;
  /** The app's first commit (`hopbase:first-commit`), ms from the navigation. */
  firstCommitMs: number;
  /**
   * The longest task on the page's main thread, from the navigation to the trace's end: wall and CPU ms,
   * and the longest event in it (`FunctionCall` with the function's name).
   */
  longest: { ms: number; cpuMs: number; what: string };
}

/** How long each startup trace runs: the page is opened a second after the browser starts. */
const TRACE_SECONDS = 5;

/** A proxy to `target` that adds the person's header, as the authenticating proxy of header mode would. */
async function headerProxy(
  target: string,
  headers: Record<string, string>,
): Promise<{ url: string; asked: (path: string) => Promise<void>; close(): void }> {
  const { hostname, port } = new URL(target);
  const waiting: { prefix: string; resolve: () => void }[] = [];
  const proxy = http.createServer((req, res) => {
    for (const w of waiting.filter((w) => req.url?.startsWith(w.prefix))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    // The Host header is kept: the server compares it with the page's origin.
    const upstream = http.request(
      { host: hostname, port, path: req.url, method: req.method, headers: { ...req.headers, ...headers } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // A browser ended mid-stream (the change stream) ends the server's stream too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`,
    asked: (prefix) => new Promise((resolve) => waiting.push({ prefix, resolve })),
    close: () => {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}

/** The event that lasted longest, if any. */
const longestOf = (events: TraceEvent[]) =>
  events.reduce<TraceEvent | undefined>((a, b) => ((b.dur ?? 0) > (a?.dur ?? 0) ? b : a), undefined);

/** The opening of `url` in one startup trace: its first commit and its longest task. */
function readOpening(events: TraceEvent[], url: string, load: number): UntouchedOpening {
  // Its navigation names the main thread: the renderer's others (about:blank, the start page) do not.
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url,
  );
  const main = navigation?.tid;
  const commit = events.find((e) => e.tid === main && e.name === 'hopbase:first-commit');
  if (!navigation || !commit)
    throw new Error(`the page did not show its first screen within the trace's ${TRACE_SECONDS} s`);
  const isTask = taskTest(events);
  const own = events.filter((e) => e.tid === main && e.ph === 'X');
  const task = longestOf(own.filter((e) => isTask(e) && e.ts >= navigation.ts));
  const end = (task?.ts ?? 0) + (task?.dur ?? 0);
  const inside = longestOf(
    own.filter((e) => task && e !== task && !isTask(e) && e.ts >= task.ts && e.ts < end),
  );
  const name = inside?.args?.data?.functionName;
  return {
    load,
    firstCommitMs: (commit.ts - navigation.ts) / 1000,
    longest: {
      ms: (task?.dur ?? 0) / 1000,
      cpuMs: (task?.tdur ?? 0) / 1000,
      what: inside ? `${inside.name}${name ? ` ${name}` : ''}` : '',
    },
  };
}

/** Resolves with `promise`, or fails after `seconds` saying what did not happen. */
function within<T>(promise: Promise<T>, seconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Waits for Chromium to write the whole trace to `file`, which it does once the trace's time is up. */
async function traceWritten(file: string, seconds: number): Promise<void> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until; ) {
    if (existsSync(file) && readFileSync(file, 'utf8').trimEnd().endsWith('}')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Chromium wrote no trace within ${seconds} s`);
}

/**
 * Opens `url` `runs` times, each in a Chromium of its own with an empty profile (a new device), `headers`
 * added to each request, until team mode's sync has started (`/api/changes` asked) and the trace has ended.
 */
export async function newDeviceWithoutDevtools(
  url: string,
  headers: Record<string, string>,
  runs: number,
): Promise<UntouchedOpening[]> {
  const proxy = await headerProxy(url, headers);
  const out: UntouchedOpening[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'hopbase-bench-untouched-'));
      const file = path.join(dir, 'trace.json');
      const synced = proxy.asked('/api/changes');
      const load = os.loadavg()[0]!;
      // A page that opens the app once the browser has started, so that its start is not the page's.
      const start = `data:text/html,<script>setTimeout(() => location.assign(${JSON.stringify(proxy.url)}), 1000)</script>`;
      const browser = spawn(
        process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--window-size=1280,800',
          `--user-data-dir=${path.join(dir, 'profile')}`,
          '--trace-startup=toplevel,devtools.timeline,blink.user_timing',
          '--trace-startup-format=json',
          `--trace-startup-file=${file}`,
          `--trace-startup-duration=${TRACE_SECONDS}`,
          start,
        ],
        // A process group of its own: ended whole, its helper processes with it.
        { stdio: 'ignore', detached: true },
      );
      try {
        await within(synced, 120, 'the page did not start its sync with the server');
        await traceWritten(file, 120);
        out.push(readOpening(JSON.parse(readFileSync(file, 'utf8')).traceEvents, proxy.url, load));
      } finally {
        if (browser.exitCode === null && browser.signalCode === null) {
          const exited = new Promise((resolve) => browser.once('exit', resolve));
          process.kill(-browser.pid!, 'SIGKILL');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      }
    }
  } finally {
    proxy.close();
  }
  return out;
}
