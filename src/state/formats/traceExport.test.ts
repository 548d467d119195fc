import { describe, expect, it } from 'vitest';
import { emptyTurn, type Protocol, type Turn } from '../../core/index.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { AssistantMessage, Attempt, AttemptTrace } from '../domain/types.ts';
import { exportFileName, exportJsonTrace, exportSse, type JsonTrace, readJsonTrace } from './traceExport.ts';

const key = 'sk-test-SECRET-123';

const raw =
  ': hopbase-keepalive\n\n' +
  `data: {"choices":[{"index":0,"delta":{"content":"your key is ${key}"}}]}\n\n` +
  'data: [DONE]\n\n';

function attempt(overrides: Partial<Attempt> = {}, trace: Partial<AttemptTrace> = {}): Attempt {
  const turn: Turn = {
    ...emptyTurn,
    status: 'complete',
    text: `your key is ${key}`,
    parts: [{ kind: 'text', key: 't0', text: `your key is ${key}` }],
    usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
    finishReason: 'stop',
    rawFinishReason: 'stop',
  };
  return {
    id: 'att_1',
    startedAt: Date.UTC(2025, 9, 2, 12, 34, 56, 789),
    request: {
      url: 'https://gw.example/v1/chat/completions',
      path: '/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: { model: 'gpt-x', messages: [{ role: 'user', content: `repeat ${key}` }], stream: true },
    },
    sentHeaders: { 'content-type': 'application/json', authorization: '[redacted]' },
    turn,
    httpError: null,
    trace: {
      ...emptyRecording(),
      headersAt: 40,
      firstOutputAt: 100,
      endedAt: 250,
      bytes: new TextEncoder().encode(raw).length,
      outputEvents: 1,
      items: [
        { t: 60, kind: 'comment', event: '', data: 'hopbase-keepalive' },
        {
          t: 100,
          kind: 'event',
          event: 'message',
          data: `{"choices":[{"index":0,"delta":{"content":"your key is ${key}"}}]}`,
        },
        { t: 250, kind: 'event', event: 'message', data: '[DONE]' },
      ],
      raw,
      ...trace,
    },
    ...overrides,
  };
}

function message(a: Attempt, protocol: Protocol = 'chat'): AssistantMessage {
  return {
    id: 'msg_1',
    role: 'assistant',
    protocol,
    model: 'gpt-x',
    source: { kind: 'gateway' },
    createdAt: 0,
    attempts: [a],
  };
}

describe('exportSse', () => {
  it('is the raw stream byte for byte when it holds no key', () => {
    const clean = ': hopbase-keepalive\r\n\r\nevent: x\ndata: héllo ✓\n\n';
    expect(exportSse(attempt({}, { raw: clean }), key)).toBe(clean);
  });

  it('replaces every occurrence of the API key and nothing else', () => {
    const twice = `${raw}data: ${key}${key}\n\n`;
    const out = exportSse(attempt({}, { raw: twice }), key);
    expect(out).not.toContain(key);
    expect(out).toBe(twice.replaceAll(key, '[redacted]'));
    expect(out.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('does not scrub without a key (an empty key would put [redacted] between every character)', () => {
    expect(exportSse(attempt(), '')).toBe(raw);
  });

  it('does not scrub a key shorter than 4 characters: it would mangle every word containing those letters', () => {
    expect(exportSse(attempt(), 'ke')).toBe(raw);
    expect(exportSse(attempt(), 'abc')).toBe(raw);
    // From 4 characters on, it is scrubbed.
    expect(exportSse(attempt(), 'your')).toBe(raw.replaceAll('your', '[redacted]'));
  });
});

describe('exportJsonTrace', () => {
  it('has the documented shape, with the headers as sent (credentials redacted)', () => {
    const a = attempt();
    const json = exportJsonTrace(message(a), a, 'unrelated-key');
    const document = JSON.parse(json) as JsonTrace;
    expect(readJsonTrace(document)).toEqual({ protocol: 'chat', events: document.events });
    expect(document).toEqual({
      format: 'hopbase-chat-trace',
      version: 1,
      protocol: 'chat',
      model: 'gpt-x',
      startedAt: '2025-10-02T12:34:56.789Z',
      request: {
        url: 'https://gw.example/v1/chat/completions',
        path: '/chat/completions',
        headers: { 'content-type': 'application/json', authorization: '[redacted]' },
        body: a.request.body,
      },
      timings: { headersAtMs: 40, firstOutputAtMs: 100, endedAtMs: 250 },
      bytes: a.trace.bytes,
      truncated: false,
      partial: false,
      events: a.trace.items,
      result: {
        status: 'complete',
        text: `your key is ${key}`,
        reasoning: '',
        refusal: '',
        toolCalls: [],
        usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
        finishReason: 'stop',
        error: null,
      },
    });
  });

  it('keeps the truncation flag and the message protocol', () => {
    const a = attempt({}, { truncated: true });
    const document = JSON.parse(exportJsonTrace(message(a, 'messages'), a, '')) as JsonTrace;
    expect(document.truncated).toBe(true);
    expect(document.protocol).toBe('messages');
  });

  it('scrubs the key from the request body, the events and the result', () => {
    const a = attempt();
    const json = exportJsonTrace(message(a), a, key);
    expect(json).not.toContain(key);
    const document = JSON.parse(json) as JsonTrace;
    expect(JSON.stringify(document.request.body)).toContain('repeat [redacted]');
    expect(document.events[1]!.data).toContain('your key is [redacted]');
    expect(document.result.text).toBe('your key is [redacted]');
  });

  it('is readable JSON after scrubbing', () => {
    const a = attempt();
    expect(() => JSON.parse(exportJsonTrace(message(a), a, key))).not.toThrow();
  });
});

describe('readJsonTrace', () => {
  const exported = () => {
    const a = attempt();
    return JSON.parse(exportJsonTrace(message(a, 'messages'), a, '')) as JsonTrace;
  };

  it('reads an exported trace: its events and its protocol', () => {
    const document = exported();
    expect(readJsonTrace(document)).toEqual({ protocol: 'messages', events: document.events });
  });

  it('does not trust a protocol that is not one of ours', () => {
    for (const protocol of ['bogus', 'constructor', '__proto__', 42, null, undefined]) {
      expect(readJsonTrace({ ...exported(), protocol }).protocol).toBeNull();
    }
  });

  it('rejects what is not a trace, saying why', () => {
    expect(() => readJsonTrace(null)).toThrow('not a HopBase Chat trace');
    expect(() => readJsonTrace('data: x')).toThrow('not a HopBase Chat trace');
    expect(() => readJsonTrace({ format: 'other', events: [] })).toThrow('not a HopBase Chat trace');
    expect(() => readJsonTrace({ format: 'hopbase-chat-trace' })).toThrow('no "events" list');
    expect(() => readJsonTrace({ format: 'hopbase-chat-trace', events: {} })).toThrow('no "events" list');
  });

  it.each([
    ['a string', 'data: x'],
    ['no time', { kind: 'event', event: 'message', data: '{}' }],
    ['a text time', { t: '5', kind: 'event', event: 'message', data: '{}' }],
    ['an infinite time', { t: Number.POSITIVE_INFINITY, kind: 'event', event: 'message', data: '{}' }],
    ['an unknown kind', { t: 5, kind: 'delta', event: 'message', data: '{}' }],
    ['no event name', { t: 5, kind: 'event', data: '{}' }],
    ['object data', { t: 5, kind: 'event', event: 'message', data: { text: 'hi' } }],
  ])('rejects an event with %s, naming it', (_name, bad) => {
    const document = exported();
    expect(() => readJsonTrace({ ...document, events: [...document.events, bad] })).toThrow(
      `Event ${document.events.length + 1} of this trace is not a recorded item`,
    );
  });
});

describe('exportFileName', () => {
  it('names the protocol, model and start time without colons', () => {
    const a = attempt();
    expect(exportFileName(message(a), a, 'sse')).toBe('hopbase-chat-gpt-x-2025-10-02T12-34-56.sse');
    expect(exportFileName(message(a), a, 'json')).toBe('hopbase-chat-gpt-x-2025-10-02T12-34-56.json');
  });

  it('says in the name when the recording is partial (still streaming) or capped', () => {
    const streaming = attempt({ turn: { ...emptyTurn, text: 'Half' } });
    expect(exportFileName(message(streaming), streaming, 'sse')).toBe(
      'hopbase-chat-gpt-x-2025-10-02T12-34-56-partial.sse',
    );
    const capped = attempt({}, { truncated: true });
    expect(exportFileName(message(capped), capped, 'json')).toBe(
      'hopbase-chat-gpt-x-2025-10-02T12-34-56-capped.json',
    );
    const both = attempt({ turn: emptyTurn }, { truncated: true });
    expect(exportFileName(message(both), both, 'sse')).toBe(
      'hopbase-chat-gpt-x-2025-10-02T12-34-56-partial-capped.sse',
    );
  });
});

describe('partial exports', () => {
  it('a JSON trace of a streaming answer says partial, with the result so far', () => {
    const a = attempt({ turn: { ...emptyTurn, text: 'Half an ans' } }, { endedAt: null });
    const document = JSON.parse(exportJsonTrace(message(a), a, '')) as JsonTrace;
    expect(document.partial).toBe(true);
    expect(document.result.status).toBe('streaming');
    expect(document.result.text).toBe('Half an ans');
    expect(document.timings.endedAtMs).toBeNull();
    // Still a trace that imports.
    expect(readJsonTrace(document).events).toEqual(a.trace.items);
  });
});
