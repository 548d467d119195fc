/**
 * The Responses template reader agrees with JSON.parse on every input (see `testing/fastDecodeChecks.ts`):
 * on every event of every fixture, on the bench streams, and on random edits of the templates; and its
 * middle cache reads each of several interleaved items in full only once.
 */
import { describe, expect, it } from 'vitest';
import { generateStream } from '../../../../bench/generate.ts';
import {
  agrees,
  checkArbitraryValues,
  checkEditedTemplates,
  escapeLiterals,
  eventData,
} from '../../testing/fastDecodeChecks.ts';
import { fastReaders, responsesEvent } from '../../testing/fastEvents.ts';
import { loadStreamFixtures } from '../../testing/fixtures.ts';
import { ResponsesFastDecoder } from './fastDecode.ts';

const readers = fastReaders();
const read = readers.responses;
const all = Object.values(readers);

const templates = [
  '{"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[],"obfuscation":"abc"}',
  '{"type":"response.function_call_arguments.delta","sequence_number":9,"item_id":"fc_1","output_index":1,"delta":"{\\"","obfuscation":"x"}',
  '{"type":"response.reasoning_summary_text.delta","sequence_number":7,"item_id":"rs_1","output_index":0,"summary_index":1,"delta":"ok"}',
  '{"type":"response.output_text.delta","sequence_number":6,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"a\\n\\"b\\"","logprobs":[]}',
];

const argsDelta = (seq: number, item: number, delta = `x${item}`) =>
  `{"type":"response.function_call_arguments.delta","sequence_number":${seq},"item_id":"fc_${item}","output_index":${item + 1},"delta":"${delta}","obfuscation":"o"}`;

describe('Responses template reader agrees with JSON.parse', () => {
  it('on every event of every fixture, and takes the hot events', () => {
    let taken = 0;
    for (const fixture of loadStreamFixtures()) {
      for (const data of eventData(fixture.bytes)) {
        // Other protocols' events too: the reader must decline them.
        agrees(read, data);
        if (fixture.protocol === 'responses' && read(data) !== undefined) taken++;
      }
    }
    expect(taken).toBeGreaterThan(600);
  });

  it('on the bench stream, where nearly every event takes the fast path', () => {
    const events = eventData(generateStream('responses', 300, 7).bytes);
    let taken = 0;
    for (const data of events) {
      agrees(read, data);
      if (read(data) !== undefined) taken++;
    }
    expect(taken).toBeGreaterThan(events.length * 0.9);
  });

  it('on random edits of the templates (insert, replace, truncate)', () => {
    checkEditedTemplates(all, templates);
  });

  it('on templates whose strings and numbers are arbitrary', () => {
    checkArbitraryValues(all, templates);
  });

  it('on every JSON escape, alone and in runs', () => {
    for (const literal of escapeLiterals) {
      const data = argsDelta(1, 0, literal);
      expect(read(data)).toStrictEqual(JSON.parse(data));
    }
  });

  it('on argument deltas of parallel tool calls, interleaved, reading each call in full only once', () => {
    const decoder = new ResponsesFastDecoder();
    const check = (seq: number, item: number) => {
      const data = argsDelta(seq, item);
      expect(responsesEvent(decoder, data)).toStrictEqual(JSON.parse(data));
    };
    // Four stale calls fill the cache; then three new calls take turns in an uneven pattern.
    for (let item = 10; item < 14; item++) check(item, item);
    const before = decoder.middleMisses;
    const pattern = [0, 1, 0, 2, 0, 1, 2, 2, 1, 0];
    for (let round = 0; round < 10; round++) {
      for (const [k, item] of pattern.entries()) check(100 + round * 10 + k, item);
    }
    expect(decoder.middleMisses - before).toBe(3);
    // Six calls taking turns, more than are remembered: every event still reads right.
    for (let seq = 0; seq < 60; seq++) check(seq, (seq * 5) % 6);
  });

  it('keeps each stream to its own cache: two decoders, interleaved, each read their two items in full once', () => {
    const a = new ResponsesFastDecoder();
    const b = new ResponsesFastDecoder();
    for (let seq = 0; seq < 40; seq++) {
      // The same item ids in both streams, with other output indexes.
      const inA = argsDelta(seq, seq % 2);
      const inB = `{"type":"response.function_call_arguments.delta","sequence_number":${seq},"item_id":"fc_${seq % 2}","output_index":${7 + (seq % 2)},"delta":"y","obfuscation":"o"}`;
      expect(responsesEvent(a, inA)).toStrictEqual(JSON.parse(inA));
      expect(responsesEvent(b, inB)).toStrictEqual(JSON.parse(inB));
    }
    expect([a.middleMisses, b.middleMisses]).toEqual([2, 2]);
  });
});
