import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// `BENCH_UI_TRACE`: what the page's main thread did in a case, from a Chromium trace.

interface CpuProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url?: string; lineNumber?: number };
}

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own time in the event (CPU), where the trace records it. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      url?: string;
      /** `navigationStart`: the document's address. */
      documentLoaderURL?: string;
      functionName?: string;
      frames?: { url: string }[];
      startTime?: number;
      cpuProfile?: { nodes?: CpuProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
  };
}

/** What traces record: tasks, their timeline events, and the JavaScript sampled in them. */
export const TRACE_CATEGORIES =
  process.env.BENCH_UI_TRACE === 'light'
    ? ['toplevel', 'devtools.timeline']
    : [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-v8.cpu_profiler',
      ];

/**
 * Whether an event is one task of a thread's loop: `ThreadControllerImpl::RunTask` where the trace has it
 * (newer Chromiums; the timeline's own `RunTask` then nests inside it), `RunTask` where it has not.
 */
export function taskTest(events: TraceEvent[]): (e: TraceEvent) => boolean {
  const name = events.some((e) => e.name === 'ThreadControllerImpl::RunTask')
    ? 'ThreadControllerImpl::RunTask'
    : 'RunTask';
  return (e) => e.name === name;
}

/** Either name of a task event, for leaving tasks out of what a task holds. */
const taskEvent = (e: TraceEvent) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask';

/**
 * The page's main thread: the renderer main thread that ran the most of the page's own scripts (served over
 * http). The first one named in a trace may be another renderer's, such as Chromium's omnibox popup.
 */
function pageMainThread(events: TraceEvent[]): number | undefined {
  const calls = new Map<number, number>();
  for (const e of events)
    if (e.name === 'FunctionCall' && e.args?.data?.url?.startsWith('http'))
      calls.set(e.tid, (calls.get(e.tid) ?? 0) + 1);
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return mains.map((e) => e.tid).sort((a, b) => (calls.get(b) ?? 0) - (calls.get(a) ?? 0))[0];
}

/** The main thread's JavaScript samples from a trace: when, and in which function (name file:line). */
function jsSamples(events: TraceEvent[], main: number | undefined): { ts: number; where: string }[] {
  const nodes = new Map<number, CpuProfileNode>();
  const out: { ts: number; where: string }[] = [];
  // Profile ids are per process: two renderers may both have profile 0x1.
  const profiles = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.id}`;
    if (e.name === 'Profile' && e.tid === main) profiles.set(key, e.args?.data?.startTime ?? 0);
    if (e.name !== 'ProfileChunk' || !profiles.has(key)) continue;
    let ts = profiles.get(key)!;
    for (const node of e.args?.data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const samples = e.args?.data?.cpuProfile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    samples.forEach((id, i) => {
      ts += deltas[i] ?? 0;
      const frame = nodes.get(id)?.callFrame;
      if (frame && frame.functionName !== '(idle)' && frame.functionName !== '(program)')
        out.push({
          ts,
          where: `${frame.functionName || '(anonymous)'} ${(frame.url ?? '').split('/').pop()}:${(frame.lineNumber ?? -1) + 1}`,
        });
    });
    profiles.set(key, ts);
  }
  return out;
}

/** `BENCH_UI_TRACE=1`: what each task over 50 ms on the page's main thread spent its time on. */
export function explainLongTasks(buffer: Buffer): void {
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  writeFileSync(path.join(os.tmpdir(), `bench-ui-trace-${Date.now()}.json`), buffer);
  const main = pageMainThread(events);
  const isTask = taskTest(events);
  const own = events.filter((e) => e.tid === main && e.ph === 'X');
  const samples = jsSamples(events, main);
  const top = (by: Map<string, number>) =>
    [...by.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(' | ');
  for (const task of own.filter((e) => isTask(e) && (e.dur ?? 0) > 50_000)) {
    const end = task.ts + task.dur!;
    const inside = own.filter((e) => e !== task && e.ts >= task.ts && e.ts < end && !taskEvent(e));
    const by = new Map<string, number>();
    for (const e of inside) {
      const where = e.args?.data?.functionName || e.args?.data?.url?.split('/').pop() || '';
      const key = `${e.name}${where ? ` ${where}` : ''}`;
      by.set(key, Math.max(by.get(key) ?? 0, (e.dur ?? 0) / 1000));
    }
    // Wall time against the thread's own: the rest is waiting (descheduled, or on a synchronous call).
    const cpu = task.tdur === undefined ? '' : ` (CPU ${(task.tdur / 1000).toFixed(0)} ms)`;
    console.log(`    task ${(task.dur! / 1000).toFixed(0)} ms${cpu}: ${top(by)}`);
    // JavaScript by self time (ms, from the samples taken during the task).
    const js = new Map<string, number>();
    let previous = task.ts;
    for (const sample of samples) {
      if (sample.ts < task.ts || sample.ts >= end) continue;
      js.set(sample.where, (js.get(sample.where) ?? 0) + (sample.ts - previous) / 1000);
      previous = sample.ts;
    }
    if (js.size) console.log(`      js: ${top(js)}`);
  }
}

/**
 * `BENCH_UI_TRACE=1`, a streamed answer: what the main thread and the network did from the key that sent
 * the message until the first text was painted (`firstTextMs` after it): each task over 2 ms with what
 * it ran, the requests' sends, responses and ends, and the frames.
 */
export function explainFirstText(buffer: Buffer, firstTextMs: number): void {
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = pageMainThread(events);
  const isTask = taskTest(events);
  const keys = events.filter(
    (e) =>
      e.tid === main &&
      e.name === 'EventDispatch' &&
      (e.args?.data as { type?: string } | undefined)?.type === 'keydown',
  );
  const t0 = keys.at(-1)?.ts ?? events.find((e) => e.tid === main && isTask(e))?.ts ?? 0;
  const end = t0 + (firstTextMs + 30) * 1000;
  const at = (ts: number) => `${((ts - t0) / 1000).toFixed(1).padStart(6)} ms`;
  const samples = jsSamples(events, main);
  const lines: { ts: number; text: string }[] = [];
  for (const e of events) {
    if (e.ts < t0 - 1000 || e.ts > end) continue;
    const data = e.args?.data as { url?: string; requestId?: string; encodedDataLength?: number } | undefined;
    if (
      e.name === 'ResourceSendRequest' ||
      e.name === 'ResourceReceiveResponse' ||
      e.name === 'ResourceFinish'
    )
      lines.push({
        ts: e.ts,
        text: `net  ${e.name.replace('Resource', '')} ${(data?.url ?? data?.requestId ?? '').split('/').pop()}`,
      });
    if (e.tid !== main || e.ph !== 'X') continue;
    if (isTask(e) && (e.dur ?? 0) > 2000) {
      const inside = events.filter(
        (x) =>
          x.tid === main &&
          x.ph === 'X' &&
          x !== e &&
          x.ts >= e.ts &&
          x.ts < e.ts + e.dur! &&
          !taskEvent(x) &&
          (x.dur ?? 0) > 500,
      );
      const what = [
        ...new Set(
          inside.map((x) => `${x.name}${x.args?.data?.url ? ` ${x.args.data.url.split('/').pop()}` : ''}`),
        ),
      ]
        .slice(0, 8)
        .join(', ');
      const js = new Map<string, number>();
      let previous = e.ts;
      for (const sample of samples) {
        if (sample.ts < e.ts || sample.ts >= e.ts + e.dur!) continue;
        js.set(sample.where, (js.get(sample.where) ?? 0) + (sample.ts - previous) / 1000);
        previous = sample.ts;
      }
      const topJs = [...js.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(' | ');
      lines.push({
        ts: e.ts,
        text: `task ${((e.dur ?? 0) / 1000).toFixed(1)} ms: ${what}${topJs ? `\n                js: ${topJs}` : ''}`,
      });
    }
    if (e.name === 'Paint' || e.name === 'PrePaint') lines.push({ ts: e.ts, text: `${e.name}` });
  }
  console.log(`    from the send to the first text (${firstTextMs.toFixed(0)} ms):`);
  for (const line of lines.sort((a, b) => a.ts - b.ts)) console.log(`    ${at(line.ts)}  ${line.text}`);
}
