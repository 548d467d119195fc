/**
 * The exact-shape readers must agree with JSON.parse on every input: for each data string they return
 * either `undefined` (fall back) or a value deep-equal to `JSON.parse(data)`, never anything for text
 * JSON.parse rejects. Checked on every event of every fixture, on the bench streams, and on random
 * mutations of the templates (quotes, backslashes, \u escapes, surrogates, control characters, numbers
 * with signs and exponents, stray whitespace, truncation).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateStream } from '../../../bench/generate.ts';
import { createSseParser } from '../sse/parser.ts';
import { loadStreamFixtures } from '../testing/fixtures.ts';
import { fastChatChunk, fastMessagesEvent, fastResponsesEvent, responsesMiddleMisses } from './fastDecode.ts';

const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

const readers = { chat: fastChatChunk, responses: fastResponsesEvent, messages: fastMessagesEvent };
const all = Object.values(readers);

/** The contract, for one reader and one data string. */
function agrees(read: (data: string) => object | undefined, data: string): boolean {
  const fast = read(data);
  if (fast === undefined) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new Error(`fast path accepted invalid JSON: ${data}`);
  }
  expect(fast).toStrictEqual(parsed);
  expect(Object.keys(fast)).toEqual(Object.keys(parsed as object));
  return true;
}

function eventData(text: string): string[] {
  const out: string[] = [];
  const parser = createSseParser((item) => {
    if (item.type === 'event') out.push(item.data);
  });
  parser.feed(text);
  parser.end();
  return out;
}

describe('fast paths agree with JSON.parse', () => {
  it('on every event of every fixture, and take the hot events', () => {
    let taken = 0;
    for (const fixture of loadStreamFixtures()) {
      for (const data of eventData(new TextDecoder().decode(fixture.bytes))) {
        // Every reader on every payload: a reader must also decline other protocols' events correctly.
        for (const read of all) agrees(read, data);
        if (readers[fixture.protocol](data) !== undefined) taken++;
      }
    }
    expect(taken).toBeGreaterThan(300);
  });

  it('on the bench streams, where nearly every event takes the fast path', () => {
    for (const protocol of ['chat', 'responses', 'messages'] as const) {
      const events = eventData(new TextDecoder().decode(generateStream(protocol, 300, 7).bytes));
      let taken = 0;
      for (const data of events) {
        agrees(readers[protocol], data);
        if (readers[protocol](data) !== undefined) taken++;
      }
      expect(taken).toBeGreaterThan(events.length * 0.9);
    }
  });

  // Pieces that stress the string and number rules, spliced into and around real templates.
  const tricky = fc.constantFrom(
    '"',
    '\\',
    '\\"',
    '\\\\',
    '\\n',
    '\\u0041',
    '\\u00e9',
    '\\ud83d\\ude80',
    '\\ud83d',
    '\\u12',
    '\\x',
    '\\/',
    '\\b',
    '\\f',
    '\\r',
    '\\t',
    '\\u00E9',
    '\\uD83D\\uDE80',
    '\\uDE80\\uD83D',
    '\\uzzzz',
    '\\U0041',
    '\\u004',
    '\ud83d',
    '🚀',
    '\u0000',
    '\n',
    '\t',
    '\u001f',
    '\u007f',
    ' ',
    '-1',
    '01',
    '1e3',
    '1.5',
    '-0',
    '1E+2',
    '123456789012345678',
    '}',
    ']',
    ',',
    ':',
    'null',
    '__proto__',
  );
  const piece = fc.oneof(fc.string({ maxLength: 6, unit: 'binary' }), tricky, fc.integer().map(String));

  const templates = [
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
    '{"type":"content_block_delta","index":12,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\":"}   }',
    '{"type":"content_block_delta","index":3,"delta":{"type":"thinking_delta","thinking":"hm"} }',
    '{"type": "ping"}',
    '{"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[],"obfuscation":"abc"}',
    '{"type":"response.function_call_arguments.delta","sequence_number":9,"item_id":"fc_1","output_index":1,"delta":"{\\"","obfuscation":"x"}',
    '{"type":"response.reasoning_summary_text.delta","sequence_number":7,"item_id":"rs_1","output_index":0,"summary_index":1,"delta":"ok"}',
    '{"type":"response.output_text.delta","sequence_number":6,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"a\\n\\"b\\"","logprobs":[]}',
    '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"q"}',
    '{"id":"c","object":"chat.completion.chunk","created":2,"model":"m","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"r"},"logprobs":null,"finish_reason":null}]}',
    '{"id":"c","object":"chat.completion.chunk","created":2,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}]}',
    '{"id":"c","created":2,"choices":[{"index":0,"delta":{"reasoning":"r"},"logprobs":null,"finish_reason":null}],"obfuscation":"o"}',
  ];

  it('on random edits of the templates (insert, replace, truncate)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), piece), { minLength: 1, maxLength: 4 }),
        (template, edits) => {
          let data = template;
          for (const [at, removed, inserted] of edits) {
            const i = at % (data.length + 1);
            data = data.slice(0, i) + inserted + data.slice(i + removed);
          }
          // Twice, so that the remembered prefixes and headers are exercised as well as the first read.
          for (const read of all) {
            agrees(read, template);
            agrees(read, data);
            agrees(read, data);
          }
          for (const read of all) agrees(read, data.slice(0, at0(edits) % (data.length + 1)));
        },
      ),
      { numRuns: 3000, ...seed },
    );
  });

  it('on templates whose strings and numbers are arbitrary', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.array(tricky).map((xs) => xs.join('')),
    );
    const literal = fc.oneof(
      text.map((s) => JSON.stringify(s)),
      text.map((s) => `"${s}"`),
    );
    const number = fc.oneof(
      fc.nat().map(String),
      tricky.filter((t) => /^[-\d]/.test(t)),
    );
    fc.assert(
      fc.property(fc.constantFrom(...templates), fc.array(fc.tuple(literal, number)), (template, values) => {
        let k = 0;
        const data = template.replace(/"[^"\\]*(?:\\.[^"\\]*)*"(?=[,}\]])|\d+/g, (match) => {
          const value = values[k++ % Math.max(values.length, 1)];
          if (value === undefined) return match;
          return match.startsWith('"') ? value[0] : value[1];
        });
        for (const read of all) {
          agrees(read, data);
          agrees(read, data);
        }
      }),
      { numRuns: 3000, ...seed },
    );
  });

  it('on the known tricky cases', () => {
    const cases = [
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\u0000b"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\u0001b"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\ud800"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\ud800"}}',
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":1e0,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}} x',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}',
      '{"__proto__":null,"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"a","choices":null,"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"a","usage":1,"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}],"usage":null}',
      '{"id":{"choices":[1]},"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"x\\",\\"choices\\":[","choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"a",\n"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
    ];
    for (const data of cases) for (const read of all) agrees(read, data);
  });

  it("on every JSON escape, alone and in runs, in each protocol's delta", () => {
    const escapes = [
      '\\"',
      '\\\\',
      '\\/',
      '\\b',
      '\\f',
      '\\n',
      '\\r',
      '\\t',
      '\\u0041',
      '\\u00e9',
      '\\uFFFF',
      '\\ud83d\\ude80',
    ];
    const literals = [...escapes, escapes.join(''), `a${escapes.join('b')}c`];
    for (const literal of literals) {
      const text = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${literal}"}}`;
      const args = `{"type":"response.function_call_arguments.delta","sequence_number":1,"item_id":"fc","output_index":1,"delta":"${literal}"}`;
      const chat = `{"id":"c","choices":[{"index":0,"delta":{"content":"${literal}"},"logprobs":null,"finish_reason":null}]}`;
      expect(fastMessagesEvent(text)).toStrictEqual(JSON.parse(text));
      expect(fastResponsesEvent(args)).toStrictEqual(JSON.parse(args));
      expect(fastChatChunk(chat)).toStrictEqual(JSON.parse(chat));
    }
  });

  it('on argument deltas of parallel tool calls, interleaved, reading each call in full only once', () => {
    const data = (seq: number, item: number) =>
      `{"type":"response.function_call_arguments.delta","sequence_number":${seq},"item_id":"fc_${item}","output_index":${item + 1},"delta":"x${item}","obfuscation":"o"}`;
    const check = (seq: number, item: number) => {
      const event = data(seq, item);
      expect(fastResponsesEvent(event)).toStrictEqual(JSON.parse(event));
    };
    // Four stale calls fill the cache; then three new calls take turns in an uneven pattern.
    for (let item = 10; item < 14; item++) check(item, item);
    const before = responsesMiddleMisses();
    const pattern = [0, 1, 0, 2, 0, 1, 2, 2, 1, 0];
    for (let round = 0; round < 10; round++) {
      for (const [k, item] of pattern.entries()) check(100 + round * 10 + k, item);
    }
    expect(responsesMiddleMisses() - before).toBe(3);
    // Six calls taking turns, more than are remembered: every event still reads right.
    for (let seq = 0; seq < 60; seq++) check(seq, (seq * 5) % 6);
  });
});

function at0(edits: [number, number, string][]): number {
  return edits[0]![0];
}
