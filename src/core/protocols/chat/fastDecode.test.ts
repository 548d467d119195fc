/**
 * The Chat Completions template reader agrees with JSON.parse on every input (see
 * `testing/fastDecodeChecks.ts`): on every event of every fixture, on the bench streams, and on random
 * edits of the templates.
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
const read = readers.chat;
const all = Object.values(readers);

const templates = [
  '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"q"}',
  '{"id":"c","object":"chat.completion.chunk","created":2,"model":"m","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"r"},"logprobs":null,"finish_reason":null}]}',
  '{"id":"c","object":"chat.completion.chunk","created":2,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}]}',
  '{"id":"c","created":2,"choices":[{"index":0,"delta":{"reasoning":"r"},"logprobs":null,"finish_reason":null}],"obfuscation":"o"}',
  '{"id":"c","object":"chat.completion.chunk","created":2,"model":"m","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null,"obfuscation":"o"}',
];

describe('Chat Completions template reader agrees with JSON.parse', () => {
  it('on every event of every fixture, and takes the hot events', () => {
    let taken = 0;
    for (const fixture of loadStreamFixtures()) {
      for (const data of eventData(fixture.bytes)) {
        // Other protocols' events too: the reader must decline them.
        agrees(read, data);
        if (fixture.protocol === 'chat' && read(data) !== undefined) taken++;
      }
    }
    expect(taken).toBeGreaterThan(250);
  });

  it('on the bench stream, where nearly every event takes the fast path', () => {
    const events = eventData(generateStream('chat', 300, 7).bytes);
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
      '{"__proto__":null,"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"a","choices":null,"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"a","usage":1,"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}],"usage":null}',
      '{"id":{"choices":[1]},"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"x\\",\\"choices\\":[","choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
      '{"id":"a",\n"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}',
    ];
    for (const data of cases) for (const r of all) agrees(r, data);
  });

  it('on every JSON escape, alone and in runs', () => {
    for (const literal of escapeLiterals) {
      const data = `{"id":"c","choices":[{"index":0,"delta":{"content":"${literal}"},"logprobs":null,"finish_reason":null}]}`;
      expect(read(data)).toStrictEqual(JSON.parse(data));
    }
  });
});
