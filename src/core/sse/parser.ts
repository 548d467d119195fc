import { keepShape } from '../keepShape.ts';
import type { SseItem } from './types.ts';

export interface SseParser {
  /** Feed decoded text; any split is allowed (inside a line, between `\r` and `\n`). */
  feed(text: string): void;
  /** End of stream: an event whose closing blank line never came is discarded, as the spec says. */
  end(): void;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;

const defaultNow = () => performance.now();

/** Receives the fields of each dispatched event and comment, as `SseEvent` / `SseComment` have them. */
export interface SseSink {
  event(event: string, data: string, id: string, at: number): void;
  comment(text: string, at: number): void;
}

/** `data:` at `i` (the first character already known to be `d`); a shorter line fails on its line end. */
const isData = (s: string, i: number) =>
  s.charCodeAt(i + 1) === 97 &&
  s.charCodeAt(i + 2) === 116 &&
  s.charCodeAt(i + 3) === 97 &&
  s.charCodeAt(i + 4) === COLON;

/** `event:` at `i` (the first character already known to be `e`). */
const isEvent = (s: string, i: number) =>
  s.charCodeAt(i + 1) === 118 &&
  s.charCodeAt(i + 2) === 101 &&
  s.charCodeAt(i + 3) === 110 &&
  s.charCodeAt(i + 4) === 116 &&
  s.charCodeAt(i + 5) === COLON;

/**
 * A WHATWG "parse an event stream" parser over text. Written by hand because it is the hot path:
 * it scans each chunk once (line-end positions are remembered, never rescanned) and keeps a long
 * pending line as a list of pieces joined once, so multi-megabyte lines cost linear time.
 * Every event and comment is stamped with the arrival time of the chunk that completed it.
 *
 * The fields go to a sink as arguments: `readTurn` needs only the data, and an object per event was
 * measurable garbage. Without `comments`, comment lines are skipped unread. A class, not closures (see
 * docs/performance.md).
 */
export class SseScanner implements SseParser {
  private pieces: string[] = [];
  /** The length of `pieces` joined. */
  private piecesChars = 0;
  private skipLeadingLf = false;
  private atStart = true;
  private data: string | null = null;
  private eventType = '';
  private lastId = '';
  private at = 0;

  constructor(
    private readonly sink: SseSink,
    /** The clock stamping events and comments; null when nobody reads the stamps (they stay 0). */
    private readonly now: (() => number) | null = defaultNow,
    private readonly comments = true,
  ) {}

  private dispatch(): void {
    const data = this.data;
    if (data !== null) {
      this.data = null;
      const type = this.eventType;
      this.eventType = '';
      this.sink.event(type === '' ? 'message' : type, data, this.lastId, this.at);
    } else this.eventType = '';
  }

  /** One line, `source[start, end)`: read in place, so the common lines cost a single slice (their value). */
  private line(source: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    const first = source.charCodeAt(start);
    if (first === 100 /* d */ && isData(source, start)) {
      const value = source.slice(source.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      this.data = this.data === null ? value : `${this.data}\n${value}`;
      return;
    }
    if (first === 101 /* e */ && isEvent(source, start)) {
      this.eventType = source.slice(source.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end);
      return;
    }
    if (first === COLON) {
      if (!this.comments) return;
      const from = source.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1;
      this.sink.comment(source.slice(from, end), this.at);
      return;
    }
    this.otherLine(source.slice(start, end));
  }

  /** Any other line: split at the first colon, as the spec says. */
  private otherLine(text: string): void {
    const colon = text.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = text;
      value = '';
    } else {
      field = text.slice(0, colon);
      value = text.charCodeAt(colon + 1) === SPACE ? text.slice(colon + 2) : text.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.data = this.data === null ? value : `${this.data}\n${value}`;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      // `retry` only matters to EventSource reconnection; unknown fields are ignored by the spec.
    }
  }

  /** Feed decoded text; any split is allowed (inside a line, between `\r` and `\n`). */
  feed(chunk: string): void {
    const len = chunk.length;
    if (len === 0) return;
    if (this.now !== null) this.at = this.now();
    let pos = 0;
    if (this.atStart) {
      this.atStart = false;
      if (chunk.charCodeAt(0) === BOM) pos = 1;
    }
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (chunk.charCodeAt(pos) === LF) pos++;
    }
    let nextLf = chunk.indexOf('\n', pos);
    let nextCr = chunk.indexOf('\r', pos);
    while (pos < len) {
      if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf('\n', pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf('\r', pos);
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextLf, nextCr);
      if (end === -1) break;
      const start = pos;
      pos = end + 1;
      if (chunk.charCodeAt(end) === CR) {
        if (pos === len) this.skipLeadingLf = true;
        else if (chunk.charCodeAt(pos) === LF) pos++;
      }
      if (this.pieces.length > 0) {
        this.pieces.push(chunk.slice(start, end));
        const text = this.pieces.join('');
        this.pieces = [];
        this.piecesChars = 0;
        this.line(text, 0, text.length);
      } else this.line(chunk, start, end);
    }
    if (pos < len) {
      this.pieces.push(pos === 0 ? chunk : chunk.slice(pos));
      this.piecesChars += len - pos;
    }
  }

  /**
   * Characters held for the event still being received: its `data:` lines so far and a line without its end.
   * Read per chunk by `readTurn`, to bound what one event may hold.
   */
  bufferedChars(): number {
    return (this.data === null ? 0 : this.data.length) + this.piecesChars;
  }

  /** End of stream: an event whose closing blank line never came is discarded, as the spec says. */
  end(): void {
    this.pieces = [];
    this.piecesChars = 0;
    this.data = null;
    this.eventType = '';
  }
}

/** Builds the `SseItem` objects for `createSseParser`. */
class ItemSink implements SseSink {
  constructor(private readonly onItem: (item: SseItem) => void) {}
  event(event: string, data: string, id: string, at: number): void {
    this.onItem({ type: 'event', event, data, id, at });
  }
  comment(text: string, at: number): void {
    this.onItem({ type: 'comment', text, at });
  }
}

keepShape(new SseScanner(new ItemSink(() => {}), null, false));

/** The parser for callers that want items: each event and comment as an `SseItem` object. */
export function createSseParser(onItem: (item: SseItem) => void, now: () => number = defaultNow): SseParser {
  return new SseScanner(new ItemSink(onItem), now);
}

/** The same parser as a stream stage: `body.pipeThrough(new TextDecoderStream()).pipeThrough(new SseParserStream())`. */
export class SseParserStream extends TransformStream<string, SseItem> {
  constructor(now?: () => number) {
    let parser: SseParser;
    super({
      start(controller) {
        parser = createSseParser((item) => controller.enqueue(item), now);
      },
      transform(chunk) {
        parser.feed(chunk);
      },
      flush() {
        parser.end();
      },
    });
  }
}
