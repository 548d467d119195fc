import { type Protocol, recognizeProtocol } from '../core/index.ts';
import type { TraceItem } from '../state/domain/types.ts';
import { readJsonTrace } from '../state/formats/traceExport.ts';
import type { StreamSource } from './sources/streamSource.ts';

export type ReplaySpeed = 'recorded' | 'instant';

/** Chunks of text, each to be delivered `delayMs` after the previous one. */
type Schedule = { delayMs: number; text: string }[];

/** A file read for replay: what to deliver when, and the protocol whose reader takes it. */
export interface Recording {
  schedule: Schedule;
  protocol: Protocol;
}

/** The SSE text of recorded events, at their recorded offsets. */
function scheduleFromTrace(events: readonly TraceItem[]): Schedule {
  let previous = 0;
  return events.map((item) => {
    const text =
      item.kind === 'comment'
        ? `: ${item.data}\n\n`
        : `${item.event === 'message' ? '' : `event: ${item.event}\n`}${item.data
            .split('\n')
            .map((line) => `data: ${line}\n`)
            .join('')}\n`;
    const delayMs = Math.max(0, item.t - previous);
    previous = item.t;
    return { delayMs, text };
  });
}

/** A raw `.sse` file has no timings: "recorded speed" paces it one event every 20 ms, as if it streamed. */
function scheduleFromSse(sse: string, speed: ReplaySpeed): Schedule {
  if (speed === 'instant') return [{ delayMs: 0, text: sse }];
  return (sse.match(/[\s\S]*?(\r\n\r\n|\n\n|\r\r|$)/g) ?? [])
    .filter((block) => block !== '')
    .map((text) => ({ delayMs: 20, text }));
}

function streamFrom(schedule: Schedule, speed: ReplaySpeed): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = schedule[index++];
      if (!next) {
        controller.close();
        return;
      }
      const delay = speed === 'instant' ? 0 : next.delayMs;
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(encoder.encode(next.text));
          resolve();
        }, delay);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
}

/** A raw stream names at least one `data:` field at the start of a line (after an optional BOM). */
const hasSseData = (text: string) => /^\uFEFF?data:|[\r\n]data:/.test(text);

/**
 * What a file holds, checked before anything is stored: a JSON trace must have the exported shape and its
 * protocol is trusted only when it is one of ours; anything else must at least look like an event stream.
 * Throws an error that says what is wrong.
 */
export function readRecording(text: string, speed: ReplaySpeed, fallback: Protocol): Recording {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (!hasSseData(text)) {
      throw new Error('This file is neither a recorded event stream (no "data:" line) nor a JSON trace.');
    }
    return { schedule: scheduleFromSse(text, speed), protocol: recognizeProtocol(text) ?? fallback };
  }
  const trace = readJsonTrace(parsed);
  const protocol =
    trace.protocol ?? recognizeProtocol(trace.events.map((item) => item.data).join('\n')) ?? fallback;
  return { schedule: scheduleFromTrace(trace.events), protocol };
}

/** A recording as a streamed response, delivered on its schedule (or all at once). */
export function recordingResponse(recording: Recording, speed: ReplaySpeed): Response {
  return new Response(streamFrom(recording.schedule, speed), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

/** A recording replayed as an answer: read like a live stream, never tried again on its own. */
export function recordingSource(recording: Recording, speed: ReplaySpeed, file: string): StreamSource {
  return {
    source: { kind: 'replay', file },
    retriesOnItsOwn: false,
    connect: () => ({
      open: async () => recordingResponse(recording, speed),
      sentHeaders: {},
      crossOrigin: false,
    }),
  };
}
