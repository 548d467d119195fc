/**
 * SSE framing vectors (`synthetic/framing/*.sse` + `.expected.json`, the WHATWG "parse an event stream" result)
 * through `createSseParser` and `SseParserStream`, whole and byte by byte, plus comment handling.
 */
import { describe, expect, it } from 'vitest';
import { createSseParser, SseParserStream } from './index.ts';
import type { SseItem } from './sse/types.ts';
import {
  type ExpectedSseEvent,
  everyNBytes,
  loadFramingFixtures,
  splitBytes,
  streamFromBytes,
} from './testing/fixtures.ts';

const framing = loadFramingFixtures();

function toExpected(items: SseItem[]): ExpectedSseEvent[] {
  return items.flatMap((i) =>
    i.type === 'event' ? [{ event: i.event, data: i.data, lastEventId: i.id }] : [],
  );
}

function comments(items: SseItem[]): string[] {
  return items.flatMap((i) => (i.type === 'comment' ? [i.text] : []));
}

/**
 * Feeds the chunks through a streaming TextDecoder into `createSseParser`. `ignoreBOM` keeps a leading BOM in the
 * text so the parser's own BOM handling is what gets tested (the contract: feed() text may start with a BOM).
 */
function parseChunks(chunks: Uint8Array[], ignoreBOM = true): SseItem[] {
  const items: SseItem[] = [];
  let clock = 0;
  const parser = createSseParser(
    (item) => items.push(item),
    () => ++clock,
  );
  const decoder = new TextDecoder('utf-8', { ignoreBOM });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  parser.end();
  return items;
}

async function parseWithStream(
  bytes: Uint8Array,
  offsets: number[],
  decoderOptions: TextDecoderOptions,
): Promise<SseItem[]> {
  const items: SseItem[] = [];
  const stream = streamFromBytes(bytes, offsets)
    .pipeThrough(
      new TextDecoderStream('utf-8', decoderOptions) as unknown as TransformStream<Uint8Array, string>,
    )
    .pipeThrough(new SseParserStream());
  for await (const item of stream as unknown as AsyncIterable<SseItem>) items.push(item);
  return items;
}

/**
 * The comment lines of a stream, found independently of the parser: every line (any of CRLF / LF / CR ends it)
 * that starts with ':', minus the colon and one optional space. A trailing line with no line end never counts.
 */
function commentLinesOf(bytes: Uint8Array): string[] {
  const text = new TextDecoder('utf-8').decode(bytes); // strips a leading BOM
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop();
  return lines.filter((l) => l.startsWith(':')).map((l) => (l.startsWith(': ') ? l.slice(2) : l.slice(1)));
}

describe('SSE framing vectors', () => {
  it('finds the framing fixtures', () => {
    expect(framing.length).toBeGreaterThanOrEqual(11);
  });

  for (const f of framing) {
    describe(f.name, () => {
      it('createSseParser, whole stream in one chunk', () => {
        const items = parseChunks([f.bytes]);
        expect(toExpected(items)).toEqual(f.expected);
        expect(comments(items)).toEqual(commentLinesOf(f.bytes));
      });

      it('createSseParser, 1-byte chunks', () => {
        const items = parseChunks(splitBytes(f.bytes, everyNBytes(f.bytes.length, 1)));
        expect(toExpected(items)).toEqual(f.expected);
        expect(comments(items)).toEqual(commentLinesOf(f.bytes));
      });

      it('createSseParser, text already stripped of a BOM by a default TextDecoder', () => {
        expect(toExpected(parseChunks([f.bytes], false))).toEqual(f.expected);
      });

      it('SseParserStream (TextDecoderStream keeping the BOM), whole and 1-byte chunks', async () => {
        expect(toExpected(await parseWithStream(f.bytes, [], { ignoreBOM: true }))).toEqual(f.expected);
        const items = await parseWithStream(f.bytes, everyNBytes(f.bytes.length, 1), { ignoreBOM: true });
        expect(toExpected(items)).toEqual(f.expected);
        expect(comments(items)).toEqual(commentLinesOf(f.bytes));
      });

      it('SseParserStream (default TextDecoderStream), 7-byte chunks', async () => {
        const items = await parseWithStream(f.bytes, everyNBytes(f.bytes.length, 7), {});
        expect(toExpected(items)).toEqual(f.expected);
      });
    });
  }
});

describe('SSE comments', () => {
  function parseText(...pieces: string[]): SseItem[] {
    const items: SseItem[] = [];
    const parser = createSseParser((i) => items.push(i));
    for (const p of pieces) parser.feed(p);
    parser.end();
    return items;
  }

  it('surfaces a comment as a comment item, never as an event', () => {
    const items = parseText(': hopbase-keepalive\n\n');
    expect(items).toEqual([{ type: 'comment', text: 'hopbase-keepalive', at: expect.any(Number) }]);
  });

  it('a comment between event: and data: neither ends nor splits the event', () => {
    const items = parseText(
      'event: ping\n: hopbase-keepalive\n:no-space\n:\ndata: {"a":1}\n: after data\n\n',
    );
    expect(toExpected(items)).toEqual([{ event: 'ping', data: '{"a":1}', lastEventId: '' }]);
    expect(comments(items)).toEqual(['hopbase-keepalive', 'no-space', '', 'after data']);
    // In arrival order: four comments, then the event, dispatched at the blank line.
    expect(items.map((i) => i.type)).toEqual(['comment', 'comment', 'comment', 'comment', 'event']);
  });

  it('a stream of only comments dispatches nothing', () => {
    const items = parseText(': a\r\n: b\r: c\n\n\n');
    expect(toExpected(items)).toEqual([]);
    expect(comments(items)).toEqual(['a', 'b', 'c']);
  });

  it('keeps only one leading space of a comment, like a field value', () => {
    expect(comments(parseText(':  two spaces\n'))).toEqual([' two spaces']);
  });

  it('a comment split across chunks, and a CR/LF pair split across chunks, is one comment', () => {
    const items = parseText(': hop', 'base-keep', 'alive\r', '\n', 'data: x\r', '\n\r', '\n');
    expect(comments(items)).toEqual(['hopbase-keepalive']);
    expect(toExpected(items)).toEqual([{ event: 'message', data: 'x', lastEventId: '' }]);
  });

  it('a leading BOM before a comment is dropped; a BOM elsewhere is data', () => {
    const items = parseText('\uFEFF: hi\n', 'data: \uFEFFx\n\n');
    expect(comments(items)).toEqual(['hi']);
    expect(toExpected(items)).toEqual([{ event: 'message', data: '\uFEFFx', lastEventId: '' }]);
  });
});

describe('SSE item timestamps', () => {
  it('stamps an event with the arrival time of the chunk that completed it', () => {
    const items: SseItem[] = [];
    let t = 100;
    const parser = createSseParser(
      (i) => items.push(i),
      () => t,
    );
    parser.feed('data: a\n');
    t = 200;
    parser.feed(': k\n');
    t = 300;
    parser.feed('\n');
    parser.end();
    expect(items).toEqual([
      { type: 'comment', text: 'k', at: 200 },
      { type: 'event', event: 'message', data: 'a', id: '', at: 300 },
    ]);
  });

  it('discards an event whose blank line never came (end of stream)', () => {
    const items: SseItem[] = [];
    const parser = createSseParser((i) => items.push(i));
    parser.feed('data: complete\n\ndata: cut');
    parser.end();
    expect(toExpected(items)).toEqual([{ event: 'message', data: 'complete', lastEventId: '' }]);
  });
});
