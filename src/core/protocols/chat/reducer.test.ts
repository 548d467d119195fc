/**
 * Chat Completions reducer: SSE event in (through `decodeChatEvent`), Turn out. Every case states its
 * expected Turn fields by hand from the wire shapes in docs/protocols.md §4.
 */
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../sse/types.ts';
import { emptyTurn, type Turn } from '../../turn.ts';
import { MalformedEvent } from '../json.ts';
import { decodeChatEvent, reduceChat } from './reducer.ts';

/** The decoder as `readTurn` calls it, from a whole SSE event. */
const decode = (event: SseEvent) => decodeChatEvent(event.data, event.event);

function sse(data: unknown, event = 'message'): SseEvent {
  return {
    type: 'event',
    event,
    data: typeof data === 'string' ? data : JSON.stringify(data),
    id: '',
    at: 0,
  };
}

/** A chunk for choice 0 with the given delta (and optional finish reason). */
function delta(d: Record<string, unknown>, finish: string | null = null): SseEvent {
  return sse({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: 'gpt-4o',
    choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finish }],
  });
}

const finish = (reason: string) => delta({}, reason);
const usageChunk = (usage: unknown) => sse({ id: 'chatcmpl-1', choices: [], usage });
const done = sse('[DONE]');

function run(events: SseEvent[], from: Turn = emptyTurn): Turn {
  let turn = from;
  for (const event of events) {
    const decoded = decode(event);
    if (decoded instanceof MalformedEvent) throw new Error(`unexpected decode failure: ${decoded.message}`);
    turn = reduceChat(turn, decoded);
  }
  return turn;
}

describe('tool calls without index', () => {
  it('keys them by id, and their argument pieces go to the last call', () => {
    const turn = run([
      delta({ tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x"' } }] }),
      delta({ tool_calls: [{ function: { arguments: ':1}' } }] }),
      delta({ tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'b', arguments: '{}' } }] }),
    ]);
    expect(turn.toolCalls).toEqual([
      { id: 'call_a', name: 'a', arguments: '{"x":1}' },
      { id: 'call_b', name: 'b', arguments: '{}' },
    ]);
  });
});

describe('decodeChatEvent', () => {
  it('reads [DONE] as the terminator before trying JSON', () => {
    expect(decode(sse('[DONE]'))).toEqual({ type: 'done' });
  });

  it.each([
    ['broken JSON', '{"choices":[{"delta":{"content":"a"'],
    ['a number', '42'],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['empty data', ''],
    ['[DONE] with trailing space', '[DONE] '],
  ])('reports %s as malformed_event', (_label, data) => {
    const decoded = decode(sse(data));
    expect(decoded).toBeInstanceOf(MalformedEvent);
    if (decoded instanceof MalformedEvent) expect(decoded.code).toBe('malformed_event');
  });

  it('quotes a long malformed payload only in part', () => {
    const decoded = decode(sse(`{${'x'.repeat(500)}`));
    expect(decoded).toBeInstanceOf(MalformedEvent);
    if (decoded instanceof MalformedEvent) expect(decoded.message.length).toBeLessThan(250);
  });

  it('turns any chunk with an `error` key into an error event, choices or not', () => {
    const bare = decode(sse({ error: { message: 'boom', code: 'x' } }));
    const withChoices = decode(
      sse({ choices: [{ index: 0, delta: { content: 'a' } }], error: { code: 400, message: 'bad' } }),
    );
    expect(bare).toEqual({ type: 'error', error: { message: 'boom', code: 'x' } });
    expect(withChoices).toEqual({ type: 'error', error: { code: 400, message: 'bad' } });
  });

  it('treats a named `event: error` with a flat payload as an error', () => {
    expect(decode(sse({ message: 'flat', type: 'server_error' }, 'error'))).toEqual({
      type: 'error',
      error: { message: 'flat', type: 'server_error' },
    });
  });
});

describe('reduceChat: text, reasoning, refusal', () => {
  it('joins content deltas into one text part', () => {
    const turn = run([
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Hel' }),
      delta({ content: 'lo' }),
    ]);
    expect(turn.text).toBe('Hello');
    expect(turn.parts).toEqual([{ kind: 'text', key: 'content', text: 'Hello' }]);
    expect(turn.status).toBe('streaming');
  });

  it('adds no part for a role chunk with empty content and null refusal', () => {
    const turn = run([delta({ role: 'assistant', content: '', refusal: null })]);
    expect(turn.parts).toEqual([]);
    expect(turn.text).toBe('');
  });

  it('ignores content: null', () => {
    expect(run([delta({ content: null }), delta({ content: 'a' })]).text).toBe('a');
  });

  it.each([
    ['reasoning_content (DeepSeek)', 'reasoning_content'],
    ['reasoning (OpenRouter, Groq)', 'reasoning'],
  ])('streams %s as reasoning before the text', (_label, field) => {
    const turn = run([
      delta({ [field]: 'Think', content: null }),
      delta({ [field]: 'ing.' }),
      delta({ content: 'Answer' }),
    ]);
    expect(turn.reasoning).toBe('Thinking.');
    expect(turn.text).toBe('Answer');
    expect(turn.parts.map((p) => p.kind)).toEqual(['reasoning', 'text']);
  });

  it('prefers reasoning_content when a chunk carries both names', () => {
    expect(run([delta({ reasoning_content: 'A', reasoning: 'B' })]).reasoning).toBe('A');
  });

  it('collects refusal deltas and reports a refusal on finish "stop"', () => {
    const turn = run([
      delta({ content: null, refusal: '' }),
      delta({ refusal: "I can't" }),
      delta({ refusal: ' help.' }),
      finish('stop'),
    ]);
    expect(turn.refusal).toBe("I can't help.");
    expect(turn.text).toBe('');
    expect(turn.parts).toEqual([{ kind: 'refusal', key: 'refusal', text: "I can't help." }]);
    expect(turn.finishReason).toBe('refusal');
    expect(turn.rawFinishReason).toBe('stop');
  });

  it('shows only choice 0 when n > 1 interleaves choices', () => {
    const choice = (index: number, content: string) =>
      sse({ id: 'c', choices: [{ index, delta: { content }, finish_reason: null }] });
    const turn = run([choice(0, 'a'), choice(1, 'X'), choice(2, 'Y'), choice(0, 'b'), choice(1, 'Z')]);
    expect(turn.text).toBe('ab');
  });

  it('treats a choice without index as choice 0', () => {
    expect(run([sse({ choices: [{ delta: { content: 'hi' } }] })]).text).toBe('hi');
  });

  it('ignores unknown fields (obfuscation, logprobs, prompt_filter_results)', () => {
    const turn = run([
      sse({ id: '', model: '', choices: [], prompt_filter_results: [{ prompt_index: 0 }] }),
      sse({
        id: 'c1',
        model: 'm',
        obfuscation: 'xyz',
        choices: [{ index: 0, delta: { content: 'ok' }, logprobs: { content: [] } }],
      }),
    ]);
    expect(turn.text).toBe('ok');
  });

  it('does not modify the turn it was given', () => {
    const before = run([delta({ content: 'a' })]);
    const copy = structuredClone(before);
    run([delta({ content: 'b' }), finish('stop'), done], before);
    expect(before).toEqual(copy);
  });
});

describe('reduceChat: identity', () => {
  it('takes id and model from the chunks', () => {
    const turn = run([delta({ content: 'a' })]);
    expect(turn.responseId).toBe('chatcmpl-1');
    expect(turn.model).toBe('gpt-4o');
  });

  it("fills in identity after Azure's anonymous first chunk (id:'' model:'')", () => {
    const turn = run([
      sse({ id: '', model: '', choices: [] }),
      sse({ id: 'chatcmpl-9', model: 'gpt-5', choices: [] }),
    ]);
    expect(turn.responseId).toBe('chatcmpl-9');
    expect(turn.model).toBe('gpt-5');
  });
});

describe('reduceChat: tool calls', () => {
  const start = (index: number, id: string, name: string, args = '') => ({
    index,
    id,
    type: 'function',
    function: { name, arguments: args },
  });
  const piece = (index: number, args: string) => ({ index, function: { arguments: args } });

  it('assembles one call from pieces keyed by index', () => {
    const turn = run([
      delta({ tool_calls: [start(0, 'call_a', 'get_weather')] }),
      delta({ tool_calls: [piece(0, '{"ci')] }),
      delta({ tool_calls: [piece(0, 'ty": "Paris"}')] }),
      finish('tool_calls'),
    ]);
    expect(turn.toolCalls).toEqual([{ id: 'call_a', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(turn.parts).toEqual([
      {
        kind: 'tool_call',
        key: '0',
        call: { id: 'call_a', name: 'get_weather', arguments: '{"city": "Paris"}' },
      },
    ]);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.rawFinishReason).toBe('tool_calls');
  });

  it('keeps interleaved parallel calls apart by index', () => {
    const turn = run([
      delta({ tool_calls: [start(0, 'call_a', 'a')] }),
      delta({ tool_calls: [start(1, 'call_b', 'b')] }),
      delta({ tool_calls: [piece(1, '{"y":')] }),
      delta({ tool_calls: [piece(0, '{"x":')] }),
      delta({ tool_calls: [piece(0, '1}'), piece(1, '2}')] }),
    ]);
    expect(turn.toolCalls).toEqual([
      { id: 'call_a', name: 'a', arguments: '{"x":1}' },
      { id: 'call_b', name: 'b', arguments: '{"y":2}' },
    ]);
  });

  it('takes a whole call in one chunk (Groq)', () => {
    const turn = run([
      delta({ tool_calls: [start(0, 'fc_1', 'search', '{"q":"cats"}')] }),
      finish('tool_calls'),
    ]);
    expect(turn.toolCalls).toEqual([{ id: 'fc_1', name: 'search', arguments: '{"q":"cats"}' }]);
  });

  it('keeps an empty-argument call with empty arguments text', () => {
    expect(run([delta({ tool_calls: [start(0, 'c', 'now')] })]).toolCalls).toEqual([
      { id: 'c', name: 'now', arguments: '' },
    ]);
  });

  it('keeps text before tool calls in order', () => {
    const turn = run([delta({ content: 'Checking.' }), delta({ tool_calls: [start(0, 'c', 'f', '{}')] })]);
    expect(turn.parts.map((p) => p.kind)).toEqual(['text', 'tool_call']);
    expect(turn.text).toBe('Checking.');
  });

  it('maps the legacy finish "function_call" to tool_calls', () => {
    const turn = run([finish('function_call')]);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.rawFinishReason).toBe('function_call');
  });
});

describe('reduceChat: finish reasons', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['eos', 'other'],
  ])('maps %s to %s and keeps the raw value', (raw, mapped) => {
    const turn = run([delta({ content: 'x' }), finish(raw)]);
    expect(turn.finishReason).toBe(mapped);
    expect(turn.rawFinishReason).toBe(raw);
    expect(turn.status).toBe('streaming');
  });

  it('does not complete the turn on finish_reason alone', () => {
    expect(run([finish('stop')]).status).toBe('streaming');
  });

  it('completes on [DONE], keeping the finish reason', () => {
    const turn = run([delta({ content: 'hi' }), finish('stop'), done]);
    expect(turn.status).toBe('complete');
    expect(turn.finishReason).toBe('stop');
    expect(turn.text).toBe('hi');
    expect(turn.error).toBeNull();
  });

  it('completes on [DONE] even without a finish reason (finish stays null)', () => {
    const turn = run([delta({ content: 'hi' }), done]);
    expect(turn.status).toBe('complete');
    expect(turn.finishReason).toBeNull();
  });
});

describe('reduceChat: usage', () => {
  const u = { prompt_tokens: 14, completion_tokens: 52, total_tokens: 66 };

  it('reads the final usage chunk (choices: [])', () => {
    expect(run([delta({ content: 'a' }), finish('stop'), usageChunk(u)]).usage).toEqual({
      inputTokens: 14,
      outputTokens: 52,
      totalTokens: 66,
    });
  });

  it('keeps the last non-null usage: usage:null on later chunks does not erase it', () => {
    const turn = run([
      sse({ choices: [{ index: 0, delta: { content: 'a' } }], usage: null }),
      usageChunk({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }),
      usageChunk(u),
      sse({ choices: [], usage: null }),
    ]);
    expect(turn.usage).toEqual({ inputTokens: 14, outputTokens: 52, totalTokens: 66 });
  });

  it('reads reasoning and cached token details', () => {
    const turn = run([
      usageChunk({
        ...u,
        prompt_tokens_details: { cached_tokens: 8 },
        completion_tokens_details: { reasoning_tokens: 30 },
      }),
    ]);
    expect(turn.usage).toEqual({
      inputTokens: 14,
      outputTokens: 52,
      totalTokens: 66,
      cachedTokens: 8,
      reasoningTokens: 30,
    });
  });

  it('reads usage carried beside choices on the last chunk (DeepSeek)', () => {
    const turn = run([
      sse({ id: 'd', choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], usage: u }),
    ]);
    expect(turn.usage?.totalTokens).toBe(66);
    expect(turn.finishReason).toBe('stop');
  });

  it('falls back to x_groq.usage', () => {
    const turn = run([
      sse({
        id: 'g',
        choices: [],
        x_groq: { id: 'req', usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
      }),
    ]);
    expect(turn.usage).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });

  it('prefers top-level usage over x_groq', () => {
    const turn = run([
      sse({
        choices: [],
        usage: u,
        x_groq: { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
      }),
    ]);
    expect(turn.usage?.totalTokens).toBe(66);
  });

  it('sums prompt and completion when total_tokens is missing', () => {
    expect(run([usageChunk({ prompt_tokens: 5, completion_tokens: 6 })]).usage?.totalTokens).toBe(11);
  });
});

describe('reduceChat: mid-stream errors', () => {
  const partial = [
    delta({ role: 'assistant', content: '' }),
    delta({ content: 'The capital' }),
    delta({ content: ' of France' }),
  ];

  it('fails on a bare {"error":…} chunk (OpenAI/HopBase), keeping the text', () => {
    const turn = run([
      ...partial,
      sse({
        error: {
          message: 'Response stream interrupted, please retry',
          type: 'server_error',
          param: null,
          code: null,
        },
      }),
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({
      code: 'server_error',
      message: 'Response stream interrupted, please retry',
    });
    expect(turn.text).toBe('The capital of France');
  });

  it('uses error.code over error.type', () => {
    const turn = run([
      sse({ error: { message: 'm', type: 'invalid_request_error', code: 'context_length_exceeded' } }),
    ]);
    expect(turn.error?.code).toBe('context_length_exceeded');
  });

  it('fails on an OpenRouter error chunk that also has choices and usage, with a numeric code', () => {
    const turn = run([
      delta({ reasoning: 'hmm' }),
      sse({
        id: 'gen-1',
        choices: [{ index: 0, delta: { content: 'IGNORED' }, finish_reason: 'length' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        error: { code: 400, message: 'Provider returned error' },
      }),
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code: '400', message: 'Provider returned error' });
    expect(turn.reasoning).toBe('hmm');
    expect(turn.text).toBe('');
  });

  it('fails on a named `event: error` (Groq) with a nested error', () => {
    const turn = run([
      ...partial,
      sse(
        {
          error: {
            message: 'Tool call validation failed',
            type: 'invalid_request_error',
            code: 'tool_use_failed',
          },
        },
        'error',
      ),
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code: 'tool_use_failed', message: 'Tool call validation failed' });
    expect(turn.text).toBe('The capital of France');
  });

  it('fails on a named `event: error` with a flat payload', () => {
    const turn = run([sse({ message: 'Overloaded', type: 'overloaded_error' }, 'error')]);
    expect(turn.error).toEqual({ code: 'overloaded_error', message: 'Overloaded' });
  });

  it('falls back to code "error" and a generic message when the error says nothing', () => {
    const turn = run([sse({ error: {} }, 'error')]);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('error');
    expect(turn.error?.message).not.toBe('');
  });
});
