import { silenceBeforeEnd } from '../../core/index.ts';
import type { Attempt, AttemptTrace, TraceItem } from './types.ts';

/**
 * One attempt's recording: what came down the wire, for the inspector, exports and persistence. The
 * recorder is the only thing that writes one; everyone else gets immutable snapshots.
 */

/**
 * Caps on what one attempt records, by count and by size, so that a runaway stream cannot exhaust memory:
 * a recording holds at most about 8 MB of stream (twice that for text outside Latin-1). Each copy keeps a
 * prefix (nothing after the first item or chunk that does not fit), so an export stays a faithful
 * beginning of the stream, and `truncated` says that the end is missing. The answer itself is capped
 * apart, in the core (`readLimits`).
 */
export const recordingLimits = {
  /** SSE events and comments, for the inspector and the JSON trace: about 20,000 tokens of deltas. */
  items: 20_000,
  /** Characters of event data and comment text in those items (300 events of 1 MB would otherwise all be kept). */
  itemChars: 4_000_000,
  /** Bytes of the raw stream as received, for the `.sse` export: whole network chunks. */
  rawBytes: 4_000_000,
  /**
   * Parts of a recording written as it grows (`tracePartPrefix`): one a second of streaming (each part is
   * packed in one task, so kept small) for more than two and a half hours. A writer that reaches it writes
   * the recording again as one part; a head naming more is not read.
   */
  parts: 10_000,
  /**
   * Bytes of stream one part holds at most, about: a growing recording is written every second, and sooner
   * when this much came (a fast stream: its part would otherwise take one long task to pack and store).
   */
  partBytes: 64_000,
} as const;

const empty: AttemptTrace = Object.freeze({
  headersAt: null,
  firstOutputAt: null,
  endedAt: null,
  bytes: 0,
  outputEvents: 0,
  items: Object.freeze([]),
  raw: '',
  truncated: false,
});

/** The recording of an attempt that has received nothing yet. */
export function emptyRecording(): AttemptTrace {
  return empty;
}

/** Records one attempt as it streams; times are given as clock readings and stored as ms from `startedAt`. */
export class Recorder {
  private readonly items: TraceItem[] = [];
  /** Characters of data in `items`. */
  private itemChars = 0;
  /** Set once an item did not fit: none after it is kept either. */
  private itemsFull = false;
  private raw = '';
  /** The chunks `raw` is made of, and its length after each: see `AttemptTrace.rawSlice`. */
  private readonly rawChunks: string[] = [];
  private readonly rawEnds: number[] = [];
  /** Bytes of the chunks in `raw`. */
  private rawBytes = 0;
  private rawFull = false;
  private headersAt: number | null = null;
  private firstOutputAt: number | null = null;
  private endedAt: number | null = null;
  private bytes = 0;
  private outputEvents = 0;
  private truncated = false;
  /** The last snapshot, until something new is recorded: a frame that changed nothing copies nothing. */
  private latest: AttemptTrace | null = empty;

  constructor(private readonly startedAt: number) {}

  private since(at: number): number {
    return Math.round(at - this.startedAt);
  }

  headers(at: number): void {
    this.headersAt = this.since(at);
    this.latest = null;
  }

  /** New output arrived: the first one sets time to first output. */
  output(at: number): void {
    if (this.firstOutputAt !== null) return;
    this.firstOutputAt = this.since(at);
    this.latest = null;
  }

  chunk(byteLength: number, text: string): void {
    this.bytes += byteLength;
    if (!this.rawFull && this.rawBytes + byteLength <= recordingLimits.rawBytes) {
      this.raw += text;
      this.rawChunks.push(text);
      this.rawEnds.push(this.raw.length);
      this.rawBytes += byteLength;
    } else {
      this.rawFull = true;
      this.truncated = true;
    }
    this.latest = null;
  }

  comment(at: number, text: string): void {
    this.push({ t: this.since(at), kind: 'comment', event: '', data: text });
  }

  event(at: number, event: string, data: string, output: boolean): void {
    if (output) this.outputEvents++;
    this.push({ t: this.since(at), kind: 'event', event, data });
  }

  /** Bytes of the body received so far. */
  get receivedBytes(): number {
    return this.bytes;
  }

  end(at: number): void {
    this.endedAt = this.since(at);
    this.latest = null;
  }

  snapshot(): AttemptTrace {
    this.latest ??= Object.freeze({
      headersAt: this.headersAt,
      firstOutputAt: this.firstOutputAt,
      endedAt: this.endedAt,
      bytes: this.bytes,
      outputEvents: this.outputEvents,
      items: Object.freeze(this.items.slice()),
      raw: this.raw,
      rawSlice: this.rawSlice(this.rawChunks.length),
      truncated: this.truncated,
    });
    return this.latest;
  }

  /** `AttemptTrace.rawSlice` for a snapshot of the first `count` chunks. */
  private rawSlice(count: number): (from: number, to: number) => string {
    const chunks = this.rawChunks;
    const ends = this.rawEnds;
    return (from, to) => {
      // The first chunk that ends after `from`, by binary search over the ends (they only grow).
      let low = 0;
      let high = count;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (ends[mid]! > from) high = mid;
        else low = mid + 1;
      }
      const pieces: string[] = [];
      for (let i = low; i < count; i++) {
        const start = i === 0 ? 0 : ends[i - 1]!;
        if (start >= to) break;
        const chunk = chunks[i]!;
        pieces.push(
          start >= from && ends[i]! <= to ? chunk : chunk.slice(Math.max(0, from - start), to - start),
        );
      }
      return pieces.join('');
    };
  }

  private push(item: TraceItem): void {
    const chars = this.itemChars + item.data.length;
    if (!this.itemsFull && this.items.length < recordingLimits.items && chars <= recordingLimits.itemChars) {
      this.items.push(item);
      this.itemChars = chars;
    } else {
      this.itemsFull = true;
      this.truncated = true;
    }
    this.latest = null;
  }
}

/**
 * Whether an attempt's recording is kept apart: in the database, its events not in memory. Conversations
 * load without their recordings (megabytes each, wanted only by the inspector and exports), and another
 * tab's arrive the same way; `PartLoads` (`partLoads.ts`) brings one in when asked.
 */
export function recordingKeptApart({ trace, turn }: Attempt): boolean {
  return turn.status !== 'streaming' && trace.bytes > 0 && trace.items.length === 0 && trace.raw === '';
}

/**
 * How long the model had been silent when the attempt ended (`silenceBeforeEnd`), from its events when
 * they are in memory, else as its record stored it (`withFiguresKept`): the answer's banner needs it
 * without the recording.
 */
export function silenceBeforeEndOf(attempt: Attempt): number {
  const stored = attempt.trace.silenceBeforeEndMs;
  if (typeof stored === 'number') return stored;
  return recordingKeptApart(attempt) ? 0 : silenceBeforeEnd(attempt.trace);
}

/**
 * A recording as a conversation record stores it: its figures without its events and raw stream (those
 * go to a record of their own), the silence before its end among them when there was one.
 */
export function withFiguresKept(attempt: Attempt): AttemptTrace {
  const silence = silenceBeforeEndOf(attempt);
  const { silenceBeforeEndMs: _, rawSlice: __, ...trace } = attempt.trace;
  return { ...trace, items: [], raw: '', ...(silence > 0 ? { silenceBeforeEndMs: silence } : {}) };
}
