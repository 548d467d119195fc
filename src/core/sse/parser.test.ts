/**
 * SSE parser edge cases beyond the framing fixtures (which framing.test.ts covers): line ends split across
 * chunks, BOM placement, ids, comments, the injected clock, end of stream, very long lines, and the
 * stream-stage wrapper. Rules: WHATWG "parse an event stream", restated in docs/protocols.md §2.2.
 */
import { describe, expect, it } from 'vitest';
import { createSseParser, SseParserStream } from './parser.ts';
import type { SseItem } from './types.ts';

/** Feeds the chunks in order, then ends the stream; the clock counts chunks (1, 2, 3, …). */
function parse(chunks: string[], { end = true } = {}): SseItem[] {
  const items: SseItem[] = [];
  let clock = 0;
  const parser = createSseParser(
    (item) => items.push(item),
    () => ++clock,
  );
  for (const chunk of chunks) parser.feed(chunk);
  if (end) parser.end();
  return items;
}

/** Just the events, as [event type, data] pairs. */
const events = (chunks: string[]) =>
  parse(chunks).flatMap((i) => (i.type === 'event' ? [[i.event, i.data] as const] : []));

describe('line ends', () => {
  it('treats CR at the end of one chunk and LF at the start of the next as one line end', () => {
    // Two line ends would make a blank line and dispatch "a" on its own.
    expect(events(['data: a\r', '\ndata: b\n\n'])).toEqual([['message', 'a\nb']]);
  });

  it('remembers a trailing CR across an empty chunk', () => {
    expect(events(['data: a\r', '', '\ndata: b\n\n'])).toEqual([['message', 'a\nb']]);
  });

  it('counts CR CR as two line ends (a blank line)', () => {
    expect(events(['data: a\r\rdata: b\r\r'])).toEqual([
      ['message', 'a'],
      ['message', 'b'],
    ]);
  });

  it('counts CR CR split across chunks as two line ends', () => {
    expect(events(['data: a\r', '\rdata: b\n\n'])).toEqual([
      ['message', 'a'],
      ['message', 'b'],
    ]);
  });

  it('counts a CR followed by a non-LF in the next chunk as a line end', () => {
    expect(events(['data: a\r', 'data: b\r\r'])).toEqual([['message', 'a\nb']]);
  });

  it('accepts LF, CRLF and CR mixed in one chunk', () => {
    expect(events(['data: 1\ndata: 2\r\ndata: 3\r\n\r'])).toEqual([['message', '1\n2\n3']]);
  });

  it('joins a line split anywhere, including inside the field name', () => {
    expect(events(['da', 'ta', ':', ' hel', 'lo', '\n', '\n'])).toEqual([['message', 'hello']]);
  });
});

describe('byte order mark', () => {
  it('strips one BOM at the very start', () => {
    expect(events(['\uFEFFdata: a\n\n'])).toEqual([['message', 'a']]);
  });

  it('strips a BOM that arrives alone in the first chunk', () => {
    expect(events(['\uFEFF', 'data: a\n\n'])).toEqual([['message', 'a']]);
  });

  it('strips it only once: a second BOM makes the field name unknown', () => {
    expect(events(['\uFEFF\uFEFFdata: a\n\ndata: b\n\n'])).toEqual([['message', 'b']]);
    expect(events(['\uFEFF', '\uFEFFdata: a\n\ndata: b\n\n'])).toEqual([['message', 'b']]);
  });

  it('keeps a BOM that is not at the start of the stream', () => {
    expect(events(['data: a\n\n', '\uFEFFdata: b\n\n'])).toEqual([['message', 'a']]);
    expect(events(['data: \uFEFFx\n\n'])).toEqual([['message', '\uFEFFx']]);
  });

  it('still strips a BOM that follows an empty first chunk (no text had arrived yet)', () => {
    expect(events(['', '\uFEFFdata: a\n\n'])).toEqual([['message', 'a']]);
  });
});

describe('fields', () => {
  it('drops exactly one space after the colon', () => {
    expect(events(['data:a\n\ndata: b\n\ndata:  c\n\n'])).toEqual([
      ['message', 'a'],
      ['message', 'b'],
      ['message', ' c'],
    ]);
  });

  it('keeps colons inside the value', () => {
    expect(events(['data: {"a":"b:c"}\n\n'])).toEqual([['message', '{"a":"b:c"}']]);
  });

  it('reads a bare `data` line as an empty data line', () => {
    expect(events(['data\ndata\n\n'])).toEqual([['message', '\n']]);
  });

  it('dispatches an event whose only data line is empty', () => {
    expect(events(['data:\n\n'])).toEqual([['message', '']]);
  });

  it('uses the event name, defaults to "message", and resets it after each dispatch', () => {
    expect(events(['event: ping\ndata: 1\n\ndata: 2\n\n'])).toEqual([
      ['ping', '1'],
      ['message', '2'],
    ]);
  });

  it('drops an event with no data and forgets its name', () => {
    expect(events(['event: orphan\n\ndata: x\n\n'])).toEqual([['message', 'x']]);
  });

  it('is case-sensitive about field names and ignores unknown fields and retry', () => {
    expect(events(['Data: no\nevent: e\nretry: 3000\nfoo: bar\nretry: soon\ndata: yes\n\n'])).toEqual([
      ['e', 'yes'],
    ]);
  });
});

describe('id', () => {
  const ids = (chunks: string[]) => parse(chunks).flatMap((i) => (i.type === 'event' ? [i.id] : []));

  it('starts empty and persists across later events until changed', () => {
    expect(ids(['data: a\n\nid: 7\ndata: b\n\ndata: c\n\nid: 8\ndata: d\n\n'])).toEqual(['', '7', '7', '8']);
  });

  it('ignores an id containing NUL', () => {
    expect(ids(['id: 1\ndata: a\n\nid: 2\u0000x\ndata: b\n\n'])).toEqual(['1', '1']);
  });

  it('resets the id with an empty id field', () => {
    expect(ids(['id: 1\ndata: a\n\nid\ndata: b\n\n'])).toEqual(['1', '']);
  });

  it('keeps an id set in an event that was never dispatched', () => {
    expect(ids(['id: 9\n\ndata: a\n\n'])).toEqual(['9']);
  });
});

describe('comments', () => {
  const comments = (chunks: string[]) => parse(chunks).flatMap((i) => (i.type === 'comment' ? [i.text] : []));

  it('reports the text after the colon and one space', () => {
    expect(comments([': hopbase-keepalive\n\n'])).toEqual(['hopbase-keepalive']);
    expect(comments([':no-space\n', ':  two\n', ':\n'])).toEqual(['no-space', ' two', '']);
  });

  it('never dispatches an event for a comment and never ends an event', () => {
    const items = parse(['event: x\n: OPENROUTER PROCESSING\ndata: 1\n: between\ndata: 2\n\n']);
    expect(items).toEqual([
      { type: 'comment', text: 'OPENROUTER PROCESSING', at: 1 },
      { type: 'comment', text: 'between', at: 1 },
      { type: 'event', event: 'x', data: '1\n2', id: '', at: 1 },
    ]);
  });

  it('reports comments and events in arrival order', () => {
    expect(parse([': k1\n\ndata: a\n\n: k2\n\n']).map((i) => i.type)).toEqual([
      'comment',
      'event',
      'comment',
    ]);
  });
});

describe('clock', () => {
  it('stamps each item with the time of the chunk that completed it', () => {
    const items = parse([': ka\n', 'data: a', 'bc\n', '\n', 'data: x\n\n: kb\n']);
    expect(items).toEqual([
      { type: 'comment', text: 'ka', at: 1 },
      { type: 'event', event: 'message', data: 'abc', id: '', at: 4 },
      { type: 'event', event: 'message', data: 'x', id: '', at: 5 },
      { type: 'comment', text: 'kb', at: 5 },
    ]);
  });

  it('reads the clock once per non-empty chunk', () => {
    let calls = 0;
    const parser = createSseParser(
      () => {},
      () => ++calls,
    );
    for (const chunk of ['data: 1\n\ndata: 2\n\n', '', 'data: 3\n\n']) parser.feed(chunk);
    expect(calls).toBe(2);
  });
});

describe('end of stream', () => {
  it('discards an event whose blank line never came', () => {
    expect(events(['data: a\n\ndata: b\n'])).toEqual([['message', 'a']]);
    expect(events(['data: a\n\ndata: b'])).toEqual([['message', 'a']]);
  });

  it('dispatches nothing at end() by itself', () => {
    const items: SseItem[] = [];
    const parser = createSseParser((item) => items.push(item));
    parser.feed('event: x\ndata: pending\n');
    expect(items).toEqual([]);
    parser.end();
    expect(items).toEqual([]);
  });
});

describe('long lines', () => {
  it('parses a 5 MB line fed in 4 KB pieces to exactly that line', () => {
    const payload = 'abcdefghijklmnopqrstuvwxyz'.repeat(210_000).slice(0, 5 * 1024 * 1024);
    const wire = `data: ${payload}\n\n`;
    const pieces: string[] = [];
    for (let i = 0; i < wire.length; i += 4096) pieces.push(wire.slice(i, i + 4096));
    const items = parse(pieces);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item?.type).toBe('event');
    if (item?.type === 'event') {
      expect(item.data.length).toBe(payload.length);
      expect(item.data === payload).toBe(true);
      expect(item.at).toBe(pieces.length);
    }
  });
});

describe('SseParserStream', () => {
  async function collect(chunks: Uint8Array[], now?: () => number): Promise<SseItem[]> {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const items: SseItem[] = [];
    const stream = body
      .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
      .pipeThrough(new SseParserStream(now));
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) items.push(r.value);
    return items;
  }

  it('parses bytes through TextDecoderStream, keeping a multi-byte character split across chunks', async () => {
    const bytes = new TextEncoder().encode(': hi\n\nevent: e\ndata: caf\u00e9 \u20ac\n\ndata: tail');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of €
    let clock = 100;
    const items = await collect([bytes.slice(0, cut), bytes.slice(cut)], () => (clock += 10));
    expect(items).toEqual([
      { type: 'comment', text: 'hi', at: 110 },
      { type: 'event', event: 'e', data: 'caf\u00e9 \u20ac', id: '', at: 120 },
    ]);
  });

  it('drops the unterminated last event on flush', async () => {
    const items = await collect([new TextEncoder().encode('data: a\n\ndata: b\n')]);
    expect(items.map((i) => (i.type === 'event' ? i.data : i.text))).toEqual(['a']);
  });
});
