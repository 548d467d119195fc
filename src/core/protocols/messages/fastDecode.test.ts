/**
 * The Messages template reader agrees with JSON.parse on every input (see `testing/fastDecodeChecks.ts`):
 * on every event of every fixture, on the bench streams, and on random edits of the templates.
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
import { fastReaders } from '../../testing/fastEvents.ts';
import { loadStreamFixtures } from '../../testing/fixtures.ts';

const readers = fastReaders();
const read = readers.messages;
const all = Object.values(readers);

const templates = [
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
  '{"type":"content_block_delta","index":12,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\":"}   }',
  '{"type":"content_block_delta","index":3,"delta":{"type":"thinking_delta","thinking":"hm"} }',
  '{"type": "ping"}',
  '{"type":"content_block_stop","index":2}',
  '{"type":"content_block_stop","index":0   }',
  '{"type":"message_stop"        }',
];

describe('Messages template reader agrees with JSON.parse', () => {
  it('on every event of every fixture, and takes the hot events', () => {
    let taken = 0;
    for (const fixture of loadStreamFixtures()) {
      for (const data of eventData(fixture.bytes)) {
        // Other protocols' events too: the reader must decline them.
        agrees(read, data);
        if (fixture.protocol === 'messages' && read(data) !== undefined) taken++;
      }
    }
    expect(taken).toBeGreaterThan(300);
  });

  it('on the bench stream, where nearly every event takes the fast path', () => {
    const events = eventData(generateStream('messages', 300, 7).bytes);
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
    ];
    for (const data of cases) for (const r of all) agrees(r, data);
  });

  it('on every JSON escape, alone and in runs', () => {
    for (const literal of escapeLiterals) {
      const data = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${literal}"}}`;
      expect(read(data)).toStrictEqual(JSON.parse(data));
    }
  });
});
