/**
 * Anthropic Messages reducer: SSE event in (through `decodeMessagesEvent`), Turn out. Expectations come
 * from docs/protocols.md §6 and the HopBase contract in §1.
 */
import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../conversation.ts';
import type { SseEvent } from '../../sse/types.ts';
import { emptyTurn, type Turn } from '../../turn.ts';
import { MalformedEvent } from '../json.ts';
import { decodeMessagesEvent, reduceMessages } from './reducer.ts';

/** The decoder as `readTurn` calls it, from a whole SSE event. */
const decode = (event: SseEvent) => decodeMessagesEvent(event.data);

function ev(type: string, fields: Record<string, unknown> = {}): SseEvent {
  return { type: 'event', event: type, data: JSON.stringify({ type, ...fields }), id: '', at: 0 };
}

function run(events: SseEvent[], from: Turn = emptyTurn): Turn {
  let turn = from;
  for (const event of events) {
    const decoded = decode(event);
    if (decoded instanceof MalformedEvent) throw new Error(`unexpected decode failure: ${decoded.message}`);
    turn = reduceMessages(turn, decoded);
  }
  return turn;
}

const messageStart = (usage: Record<string, unknown> = { input_tokens: 9, output_tokens: 1 }) =>
  ev('message_start', {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      usage,
    },
  });
const blockStart = (index: number, content_block: Record<string, unknown>) =>
  ev('content_block_start', { index, content_block });
const blockDelta = (index: number, delta: Record<string, unknown>) =>
  ev('content_block_delta', { index, delta });
const blockStop = (index: number) => ev('content_block_stop', { index });
const text = (index: number, t: string) => blockDelta(index, { type: 'text_delta', text: t });
const thinking = (index: number, t: string) => blockDelta(index, { type: 'thinking_delta', thinking: t });
const json = (index: number, partial_json: string) =>
  blockDelta(index, { type: 'input_json_delta', partial_json });
const messageDelta = (stop_reason: string | null, usage?: Record<string, unknown>) =>
  ev('message_delta', { delta: { stop_reason, stop_sequence: null }, ...(usage && { usage }) });
const messageStop = ev('message_stop');

describe('decodeMessagesEvent', () => {
  it('parses payloads padded with spaces before the closing brace', () => {
    const decoded = decode({
      type: 'event',
      event: 'content_block_stop',
      data: '{"type":"content_block_stop","index":0      }',
      id: '',
      at: 0,
    });
    expect(decoded).toEqual({ type: 'content_block_stop', index: 0 });
  });

  it('dispatches on the JSON type, not the SSE event name', () => {
    const data = JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'x' },
    });
    const decoded = decode({ type: 'event', event: 'message', data, id: '', at: 0 });
    expect(!(decoded instanceof MalformedEvent) && reduceMessages(emptyTurn, decoded).text).toBe('x');
  });

  it('reports broken JSON as malformed_event', () => {
    const decoded = decode({
      type: 'event',
      event: 'ping',
      data: '{"type": "ping"',
      id: '',
      at: 0,
    });
    expect(decoded).toBeInstanceOf(MalformedEvent);
    if (decoded instanceof MalformedEvent) expect(decoded.code).toBe('malformed_event');
  });
});

describe('reduceMessages: text and thinking', () => {
  it('takes id, model and input usage from message_start', () => {
    const turn = run([messageStart({ input_tokens: 377, output_tokens: 1 })]);
    expect(turn.responseId).toBe('msg_1');
    expect(turn.model).toBe('claude-sonnet-4-5');
    expect(turn.usage).toEqual({ inputTokens: 377, outputTokens: 1, totalTokens: 378 });
  });

  it('joins text_delta into the text block', () => {
    const turn = run([
      messageStart(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Hel'),
      text(0, 'lo'),
      blockStop(0),
    ]);
    expect(turn.text).toBe('Hello');
    expect(turn.parts).toEqual([{ kind: 'text', key: '0', text: 'Hello' }]);
  });

  it('streams thinking_delta as reasoning, ignoring empty deltas and signature_delta', () => {
    const turn = run([
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      thinking(0, 'Let me '),
      thinking(0, 'think.'),
      thinking(0, ''),
      blockDelta(0, { type: 'signature_delta', signature: 'EqQBCgIYAhIM' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'Answer'),
    ]);
    expect(turn.reasoning).toBe('Let me think.');
    expect(turn.text).toBe('Answer');
    expect(turn.parts).toEqual([
      { kind: 'reasoning', key: '0', text: 'Let me think.' },
      { kind: 'text', key: '1', text: 'Answer' },
    ]);
  });

  it('separates two thinking blocks with a blank line', () => {
    const turn = run([
      blockStart(0, { type: 'thinking', thinking: '' }),
      thinking(0, 'First.'),
      blockStart(1, { type: 'thinking', thinking: '' }),
      thinking(1, 'Second.'),
    ]);
    expect(turn.reasoning).toBe('First.\n\nSecond.');
  });

  it('shows nothing for redacted_thinking blocks', () => {
    const turn = run([
      blockStart(0, { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'Visible'),
    ]);
    expect(turn.reasoning).toBe('');
    expect(turn.parts).toEqual([{ kind: 'text', key: '1', text: 'Visible' }]);
  });

  it('ignores citations_delta and keeps the cited text', () => {
    const turn = run([
      blockStart(0, { type: 'text', text: '', citations: [] }),
      blockDelta(0, {
        type: 'citations_delta',
        citation: { type: 'web_search_result_location', url: 'https://x' },
      }),
      text(0, 'Cited.'),
    ]);
    expect(turn.text).toBe('Cited.');
  });

  it('ignores ping (even inside a block) and content_block_stop', () => {
    const before = run([blockStart(0, { type: 'text', text: '' }), text(0, 'a')]);
    const after = run([ev('ping'), blockStop(0)], before);
    expect(after).toBe(before);
  });
});

describe('reduceMessages: tool use', () => {
  it('assembles a tool_use input from input_json_delta pieces (first one empty)', () => {
    const turn = run([
      blockStart(0, { type: 'text', text: '' }),
      text(0, "I'll check."),
      blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }),
      json(1, ''),
      json(1, '{"locati'),
      json(1, 'on": "P'),
      json(1, 'aris"}'),
      blockStop(1),
      messageDelta('tool_use', { output_tokens: 65 }),
    ]);
    expect(turn.toolCalls).toEqual([
      { id: 'toolu_1', name: 'get_weather', arguments: '{"location": "Paris"}' },
    ]);
    expect(turn.parts.map((p) => p.kind)).toEqual(['text', 'tool_call']);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.rawFinishReason).toBe('tool_use');
  });

  it('keeps an input that never streamed as empty text, which parses to {}', () => {
    const turn = run([
      blockStart(0, { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} }),
      json(0, ''),
      blockStop(0),
    ]);
    expect(turn.toolCalls).toEqual([{ id: 'toolu_2', name: 'now', arguments: '' }]);
    expect(parseToolArguments(turn.toolCalls[0]!.arguments)).toEqual({});
  });

  it('takes an input that came whole in content_block_start', () => {
    const turn = run([blockStart(0, { type: 'tool_use', id: 't', name: 'f', input: { a: 1 } })]);
    expect(JSON.parse(turn.toolCalls[0]!.arguments)).toEqual({ a: 1 });
  });

  it('keeps parallel tool_use blocks apart by index', () => {
    const turn = run([
      blockStart(2, { type: 'tool_use', id: 'toolu_a', name: 'a', input: {} }),
      json(2, '{"x":1}'),
      blockStop(2),
      blockStart(3, { type: 'tool_use', id: 'toolu_b', name: 'b', input: {} }),
      json(3, '{"y":'),
      json(3, '2}'),
      blockStop(3),
    ]);
    expect(turn.toolCalls).toEqual([
      { id: 'toolu_a', name: 'a', arguments: '{"x":1}' },
      { id: 'toolu_b', name: 'b', arguments: '{"y":2}' },
    ]);
  });

  it('ignores server_tool_use (and its input) and server tool results', () => {
    const turn = run([
      blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      json(0, '{"query":"weather"}'),
      blockStop(0),
      blockStart(1, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
      blockStop(1),
      blockStart(2, { type: 'text', text: '' }),
      text(2, 'Sunny.'),
    ]);
    expect(turn.toolCalls).toEqual([]);
    expect(turn.parts).toEqual([{ kind: 'text', key: '2', text: 'Sunny.' }]);
  });

  it('keeps the unfinished input of a tool_use cut by max_tokens', () => {
    const turn = run([
      blockStart(1, { type: 'tool_use', id: 'toolu_c', name: 'write', input: {} }),
      json(1, '{"content": "Once upon'),
      messageDelta('max_tokens', { output_tokens: 100 }),
      messageStop,
    ]);
    expect(turn.toolCalls[0]?.arguments).toBe('{"content": "Once upon');
    expect(turn.finishReason).toBe('length');
    expect(turn.status).toBe('complete');
  });
});

describe('reduceMessages: stop reasons', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'refusal'],
    ['pause_turn', 'other'],
    ['brand_new_reason', 'other'],
  ])('maps %s to %s and keeps the raw value', (raw, mapped) => {
    const turn = run([messageDelta(raw)]);
    expect(turn.finishReason).toBe(mapped);
    expect(turn.rawFinishReason).toBe(raw);
    expect(turn.status).toBe('streaming');
  });

  it('keeps the partial text when the stop reason is refusal', () => {
    const turn = run([
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Here is how to'),
      messageDelta('refusal'),
      messageStop,
    ]);
    expect(turn.text).toBe('Here is how to');
    expect(turn.finishReason).toBe('refusal');
  });

  it('leaves the finish alone when message_delta has a null stop reason', () => {
    expect(run([messageDelta(null)]).finishReason).toBeNull();
  });

  it('completes on message_stop', () => {
    const turn = run([messageStart(), messageDelta('end_turn'), messageStop]);
    expect(turn.status).toBe('complete');
    expect(turn.finishReason).toBe('stop');
    expect(turn.error).toBeNull();
  });
});

describe('reduceMessages: usage', () => {
  it('replaces output_tokens with the cumulative message_delta value instead of adding', () => {
    const turn = run([
      messageStart({ input_tokens: 377, output_tokens: 1 }),
      messageDelta(null, { output_tokens: 30 }),
      messageDelta('tool_use', { output_tokens: 65 }),
    ]);
    expect(turn.usage).toEqual({ inputTokens: 377, outputTokens: 65, totalTokens: 442 });
  });

  it('lets a later input_tokens win (compatible proxies)', () => {
    const turn = run([
      messageStart({ input_tokens: 43, output_tokens: 1 }),
      messageDelta('end_turn', { input_tokens: 61, output_tokens: 2 }),
    ]);
    expect(turn.usage).toEqual({ inputTokens: 61, outputTokens: 2, totalTokens: 63 });
  });

  it('adds cache creation and cache read tokens to the input and reports cached reads', () => {
    const turn = run([
      messageStart({
        input_tokens: 10,
        cache_creation_input_tokens: 200,
        cache_read_input_tokens: 1000,
        output_tokens: 1,
      }),
    ]);
    expect(turn.usage).toEqual({
      inputTokens: 1210,
      outputTokens: 1,
      totalTokens: 1211,
      cachedTokens: 1000,
      cacheWriteTokens: 200,
    });
  });

  it('keeps the cache tokens when a later message_delta repeats input_tokens without them', () => {
    const start = messageStart({
      input_tokens: 10,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 1000,
    });
    const turn = run([start, messageDelta('end_turn', { input_tokens: 12, output_tokens: 5 })]);
    expect(turn.usage).toMatchObject({
      inputTokens: 1212,
      outputTokens: 5,
      cachedTokens: 1000,
      cacheWriteTokens: 200,
    });
  });

  it('keeps the cache-inclusive input when message_delta repeats every input field', () => {
    const turn = run([
      messageStart({
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 90,
        output_tokens: 1,
      }),
      messageDelta('end_turn', {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 90,
        output_tokens: 7,
      }),
    ]);
    expect(turn.usage).toEqual({ inputTokens: 100, outputTokens: 7, totalTokens: 107, cachedTokens: 90 });
  });

  it('keeps usage from message_start when message_delta carries none', () => {
    const turn = run([messageStart({ input_tokens: 5, output_tokens: 1 }), messageDelta('end_turn')]);
    expect(turn.usage).toEqual({ inputTokens: 5, outputTokens: 1, totalTokens: 6 });
  });

  it('treats null usage fields as not reported', () => {
    const turn = run([
      messageStart({ input_tokens: 5, output_tokens: 1 }),
      messageDelta('end_turn', { input_tokens: null, output_tokens: 9, cache_read_input_tokens: null }),
    ]);
    expect(turn.usage).toEqual({ inputTokens: 5, outputTokens: 9, totalTokens: 14 });
  });
});

describe('reduceMessages: errors', () => {
  it("fails on HopBase's interrupted-stream error, keeping the partial text", () => {
    const turn = run([
      messageStart(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Sure, here is'),
      text(0, ' a long'),
      ev('error', { error: { type: 'api_error', message: 'Response stream interrupted, please retry' } }),
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code: 'api_error', message: 'Response stream interrupted, please retry' });
    expect(turn.text).toBe('Sure, here is a long');
    expect(turn.finishReason).toBeNull();
  });

  it('fails on overloaded_error with extra fields (details, request_id)', () => {
    const turn = run([
      ev('error', {
        error: { details: null, type: 'overloaded_error', message: 'Overloaded' },
        request_id: 'req_1',
      }),
    ]);
    expect(turn.error).toEqual({ code: 'overloaded_error', message: 'Overloaded' });
  });

  it('still fails when the error object is missing', () => {
    const turn = run([ev('error')]);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('error');
    expect(turn.error?.message).not.toBe('');
  });
});

describe('reduceMessages: unknown events and blocks', () => {
  it.each([
    ev('some_future_event', { index: 0 }),
    blockStart(5, { type: 'mcp_tool_result', tool_use_id: 'x', content: [] }),
    blockDelta(0, { type: 'compaction_delta', content: 'NO' }),
  ])('leaves the turn unchanged (%#)', (event) => {
    const before = run([messageStart(), blockStart(0, { type: 'text', text: '' }), text(0, 'kept')]);
    expect(run([event], before)).toEqual(before);
  });
});
