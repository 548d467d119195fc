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

/**
 * A WHATWG "parse an event stream" parser over text. Written by hand because it is the hot path:
 * it scans each chunk once (line-end positions are remembered, never rescanned) and keeps a long
 * pending line as a list of pieces joined once, so multi-megabyte lines cost linear time.
 * Every item is stamped with the arrival time of the chunk that completed it.
 */
export function createSseParser(onItem: (item: SseItem) => void, now: () => number = defaultNow): SseParser {
  let pieces: string[] = [];
  let skipLeadingLf = false;
  let atStart = true;
  let data: string | null = null;
  let eventType = '';
  let lastId = '';
  let at = 0;

  function dispatch(): void {
    if (data !== null) {
      onItem({ type: 'event', event: eventType === '' ? 'message' : eventType, data, id: lastId, at });
    }
    data = null;
    eventType = '';
  }

  /** Whether `source` has `name` followed by a colon at `start` (the two fields of nearly every line). */
  function isField(source: string, start: number, end: number, name: string): boolean {
    const n = name.length;
    if (end - start <= n || source.charCodeAt(start + n) !== COLON) return false;
    for (let i = 0; i < n; i++) if (source.charCodeAt(start + i) !== name.charCodeAt(i)) return false;
    return true;
  }

  /** One line, `source[start, end)`: read in place, so the common lines cost a single slice (their value). */
  function line(source: string, start: number, end: number): void {
    if (start === end) {
      dispatch();
      return;
    }
    const first = source.charCodeAt(start);
    if (first === COLON) {
      const from = source.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1;
      onItem({ type: 'comment', text: source.slice(from, end), at });
      return;
    }
    if (first === 100 /* d */ && isField(source, start, end, 'data')) {
      const value = source.slice(source.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      data = data === null ? value : `${data}\n${value}`;
      return;
    }
    if (first === 101 /* e */ && isField(source, start, end, 'event')) {
      eventType = source.slice(source.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end);
      return;
    }
    const text = source.slice(start, end);
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
        data = data === null ? value : `${data}\n${value}`;
        break;
      case 'event':
        eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) lastId = value;
        break;
      // `retry` only matters to EventSource reconnection; unknown fields are ignored by the spec.
    }
  }

  function feed(chunk: string): void {
    const len = chunk.length;
    if (len === 0) return;
    at = now();
    let pos = 0;
    if (atStart) {
      atStart = false;
      if (chunk.charCodeAt(0) === BOM) pos = 1;
    }
    if (skipLeadingLf) {
      skipLeadingLf = false;
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
        if (pos === len) skipLeadingLf = true;
        else if (chunk.charCodeAt(pos) === LF) pos++;
      }
      if (pieces.length > 0) {
        pieces.push(chunk.slice(start, end));
        const text = pieces.join('');
        pieces = [];
        line(text, 0, text.length);
      } else line(chunk, start, end);
    }
    if (pos < len) pieces.push(pos === 0 ? chunk : chunk.slice(pos));
  }

  function end(): void {
    pieces = [];
    data = null;
    eventType = '';
  }

  return { feed, end };
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
