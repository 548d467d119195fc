/**
 * Responses reducer: SSE event in (through `decodeResponsesEvent`), Turn out. Expectations come from
 * docs/protocols.md §5 (events and reducer notes §5.2, endings §5.3, mid-stream errors §5.4).
 */
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../sse/types.ts';
import { emptyTurn, type Turn } from '../../turn.ts';
import { MalformedEvent } from '../json.ts';
import { decodeResponsesEvent, reduceResponses } from './reducer.ts';

/** The decoder as `readTurn` calls it, from a whole SSE event. */
const decode = (event: SseEvent) => decodeResponsesEvent(event.data);

/** A named event whose JSON `type` equals the event name, as OpenAI sends it. */
function ev(type: string, fields: Record<string, unknown> = {}): SseEvent {
  return { type: 'event', event: type, data: JSON.stringify({ type, ...fields }), id: '', at: 0 };
}

function run(events: SseEvent[], from: Turn = emptyTurn): Turn {
  let turn = from;
  for (const event of events) {
    const decoded = decode(event);
    if (decoded instanceof MalformedEvent) throw new Error(`unexpected decode failure: ${decoded.message}`);
    turn = reduceResponses(turn, decoded);
  }
  return turn;
}

const created = ev('response.created', {
  sequence_number: 0,
  response: { id: 'resp_1', model: 'gpt-5', status: 'in_progress', output: [], usage: null },
});
// Items are addressed by position (`output_index`); their ids are labels only.
const textDelta = (delta: string, output_index = 0, content_index = 0) =>
  ev('response.output_text.delta', { item_id: `msg_${output_index}`, output_index, content_index, delta });
const textDone = (text: string, output_index = 0, content_index = 0) =>
  ev('response.output_text.done', { item_id: `msg_${output_index}`, output_index, content_index, text });
const summaryDelta = (delta: string, summary_index = 0, output_index = 0) =>
  ev('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index, summary_index, delta });
const summaryDone = (text: string, summary_index = 0, output_index = 0) =>
  ev('response.reasoning_summary_text.done', { item_id: 'rs_1', output_index, summary_index, text });
const fnAdded = (id: string, call_id: string, name: string, output_index = 1) =>
  ev('response.output_item.added', {
    output_index,
    item: { type: 'function_call', id, call_id, name, arguments: '', status: 'in_progress' },
  });
const argsDelta = (output_index: number, delta: string) =>
  ev('response.function_call_arguments.delta', { item_id: `fc_${output_index}`, output_index, delta });
const argsDone = (output_index: number, args: string) =>
  ev('response.function_call_arguments.done', {
    item_id: `fc_${output_index}`,
    output_index,
    arguments: args,
  });
const completed = (response: Record<string, unknown> = {}) =>
  ev('response.completed', { response: { id: 'resp_1', status: 'completed', output: [], ...response } });

describe('decodeResponsesEvent', () => {
  it('reads a trailing [DONE] as its own event', () => {
    expect(decode({ type: 'event', event: 'message', data: '[DONE]', id: '', at: 0 })).toEqual({
      type: 'done',
    });
  });

  it('dispatches on the JSON type even without an event name (OpenRouter)', () => {
    const data = JSON.stringify({
      type: 'response.output_text.delta',
      item_id: 'm',
      output_index: 0,
      content_index: 0,
      delta: 'x',
    });
    const decoded = decode({ type: 'event', event: 'message', data, id: '', at: 0 });
    expect(!(decoded instanceof MalformedEvent) && reduceResponses(emptyTurn, decoded).text).toBe('x');
  });

  it('reports broken JSON as malformed_event', () => {
    const decoded = decode({
      type: 'event',
      event: 'response.created',
      data: '{"type":',
      id: '',
      at: 0,
    });
    expect(decoded).toBeInstanceOf(MalformedEvent);
    if (decoded instanceof MalformedEvent) expect(decoded.code).toBe('malformed_event');
  });
});

describe('reduceResponses: text', () => {
  it('takes id and model from response.created', () => {
    const turn = run([created]);
    expect(turn.responseId).toBe('resp_1');
    expect(turn.model).toBe('gpt-5');
    expect(turn.status).toBe('streaming');
  });

  it('joins output_text deltas per (output index, content index)', () => {
    const turn = run([created, textDelta('Hel'), textDelta('lo')]);
    expect(turn.text).toBe('Hello');
    expect(turn.parts).toEqual([{ kind: 'text', key: '0:0', text: 'Hello' }]);
  });

  it('leaves the text alone when .done equals the deltas', () => {
    const before = run([textDelta('Hel'), textDelta('lo')]);
    expect(run([textDone('Hello')], before)).toBe(before);
  });

  it('replaces differing deltas with the .done text', () => {
    const turn = run([textDelta('Helo wrld'), textDone('Hello world')]);
    expect(turn.text).toBe('Hello world');
    expect(turn.parts).toEqual([{ kind: 'text', key: '0:0', text: 'Hello world' }]);
  });

  it('takes the text from .done when no delta came', () => {
    expect(run([textDone('All at once')]).text).toBe('All at once');
  });

  it('replaces only the part the .done addresses', () => {
    const turn = run([textDelta('A', 0), textDelta('B', 1), textDone('a!', 0)]);
    expect(turn.text).toBe('a!B');
    expect(turn.parts.map((p) => (p.kind === 'tool_call' ? '' : p.text))).toEqual(['a!', 'B']);
  });

  it('keeps the flat text in part order when deltas for two items interleave', () => {
    const turn = run([textDelta('A', 0), textDelta('B', 1), textDelta('a', 0)]);
    expect(turn.text).toBe('AaB');
  });

  it('keeps the final text from output_item.done authoritative', () => {
    const turn = run([
      textDelta('partial'),
      ev('response.output_item.done', {
        output_index: 0,
        item: {
          type: 'message',
          id: 'msg_1',
          content: [{ type: 'output_text', text: 'partial, then whole' }],
        },
      }),
    ]);
    expect(turn.text).toBe('partial, then whole');
  });

  it('ignores output_item.added for message and reasoning items', () => {
    const before = run([created]);
    const after = run(
      [
        ev('response.output_item.added', {
          output_index: 0,
          item: { type: 'reasoning', id: 'rs_1', summary: [] },
        }),
        ev('response.output_item.added', {
          output_index: 1,
          item: { type: 'message', id: 'msg_1', content: [] },
        }),
      ],
      before,
    );
    expect(after).toBe(before);
  });
});

describe('reduceResponses: reasoning', () => {
  it('streams summary text as reasoning', () => {
    const turn = run([summaryDelta('**Plan**'), summaryDelta(' first')]);
    expect(turn.reasoning).toBe('**Plan** first');
    expect(turn.parts).toEqual([{ kind: 'reasoning', key: '0:summary:0', text: '**Plan** first' }]);
  });

  it('separates summary parts with a blank line in the flat string, keeping them as separate parts', () => {
    const turn = run([
      ev('response.reasoning_summary_part.added', {
        item_id: 'rs_1',
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      }),
      summaryDelta('First.', 0),
      summaryDone('First.', 0),
      ev('response.reasoning_summary_part.added', {
        item_id: 'rs_1',
        summary_index: 1,
        part: { type: 'summary_text', text: '' },
      }),
      summaryDelta('Second.', 1),
      summaryDone('Second.', 1),
    ]);
    expect(turn.reasoning).toBe('First.\n\nSecond.');
    expect(turn.parts.filter((p) => p.kind === 'reasoning')).toHaveLength(2);
  });

  it('replaces a summary part on .done without touching the other parts', () => {
    const turn = run([summaryDelta('One', 0), summaryDelta('Tw', 1), summaryDone('Two', 1)]);
    expect(turn.reasoning).toBe('One\n\nTwo');
  });

  it('streams raw reasoning_text (open-weight servers) as reasoning', () => {
    const turn = run([
      ev('response.reasoning_text.delta', {
        item_id: 'rs_9',
        output_index: 0,
        content_index: 0,
        delta: 'raw ',
      }),
      ev('response.reasoning_text.delta', {
        item_id: 'rs_9',
        output_index: 0,
        content_index: 0,
        delta: 'thought',
      }),
      ev('response.reasoning_text.done', {
        item_id: 'rs_9',
        output_index: 0,
        content_index: 0,
        text: 'raw thoughts',
      }),
    ]);
    expect(turn.reasoning).toBe('raw thoughts');
    expect(turn.text).toBe('');
  });

  it('fills the summary from a reasoning item that had no deltas', () => {
    const turn = run([
      ev('response.output_item.done', {
        output_index: 0,
        item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Late summary' }] },
      }),
    ]);
    expect(turn.reasoning).toBe('Late summary');
  });

  it('keeps the reasoning-then-text order', () => {
    const turn = run([summaryDelta('think'), textDelta('answer')]);
    expect(turn.parts.map((p) => p.kind)).toEqual(['reasoning', 'text']);
  });
});

describe('reduceResponses: refusal', () => {
  it('collects refusal deltas, replaces on .done, and finishes as refusal', () => {
    const turn = run([
      ev('response.refusal.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: "I can't" }),
      ev('response.refusal.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: ' help' }),
      ev('response.refusal.done', {
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        refusal: "I can't help with that.",
      }),
      completed(),
    ]);
    expect(turn.refusal).toBe("I can't help with that.");
    expect(turn.text).toBe('');
    expect(turn.finishReason).toBe('refusal');
    expect(turn.status).toBe('complete');
  });
});

describe('reduceResponses: function calls', () => {
  it('opens a call on output_item.added and streams its arguments', () => {
    const turn = run([
      fnAdded('fc_1', 'call_1', 'get_weather'),
      argsDelta(1, '{"city":'),
      argsDelta(1, '"Paris"}'),
      argsDone(1, '{"city":"Paris"}'),
    ]);
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(turn.parts).toEqual([
      {
        kind: 'tool_call',
        key: '1',
        call: { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });

  it('replies with call_id, not the item id', () => {
    expect(run([fnAdded('fc_abc', 'call_xyz', 'f')]).toolCalls[0]?.id).toBe('call_xyz');
  });

  it('takes arguments sent only in .done (LM Studio)', () => {
    const turn = run([fnAdded('fc_1', 'call_1', 'f'), argsDone(1, '{"a":1}')]);
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'f', arguments: '{"a":1}' }]);
  });

  it('replaces differing deltas with the .done arguments', () => {
    const turn = run([fnAdded('fc_1', 'call_1', 'f'), argsDelta(1, '{"a":'), argsDone(1, '{"a":2}')]);
    expect(turn.toolCalls[0]?.arguments).toBe('{"a":2}');
  });

  it('ignores .done for an item it never saw', () => {
    const before = run([created]);
    expect(run([argsDone(7, '{}')], before)).toBe(before);
  });

  it('keeps parallel calls apart by output index', () => {
    const turn = run([
      fnAdded('fc_1', 'call_1', 'a', 1),
      fnAdded('fc_2', 'call_2', 'b', 2),
      argsDelta(2, '{"y":2}'),
      argsDelta(1, '{"x":1}'),
    ]);
    expect(turn.toolCalls).toEqual([
      { id: 'call_1', name: 'a', arguments: '{"x":1}' },
      { id: 'call_2', name: 'b', arguments: '{"y":2}' },
    ]);
  });

  it('settles a call from output_item.done', () => {
    const turn = run([
      fnAdded('fc_1', 'call_1', 'f'),
      argsDelta(1, '{"a"'),
      ev('response.output_item.done', {
        output_index: 1,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":3}' },
      }),
    ]);
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'f', arguments: '{"a":3}' }]);
  });

  it('finishes as tool_calls when the completed response holds a call', () => {
    const turn = run([
      fnAdded('fc_1', 'call_1', 'f'),
      argsDone(1, '{}'),
      completed({
        output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' }],
      }),
    ]);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.rawFinishReason).toBe('completed');
    expect(turn.status).toBe('complete');
  });
});

describe('reduceResponses: terminal events and usage', () => {
  it('completes with finish stop and reads usage with reasoning and cached tokens', () => {
    const turn = run([
      created,
      textDelta('Hi'),
      completed({
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 64 },
          output_tokens: 40,
          output_tokens_details: { reasoning_tokens: 32 },
          total_tokens: 140,
        },
      }),
    ]);
    expect(turn.status).toBe('complete');
    expect(turn.finishReason).toBe('stop');
    expect(turn.rawFinishReason).toBe('completed');
    expect(turn.usage).toEqual({
      inputTokens: 100,
      outputTokens: 40,
      totalTokens: 140,
      cachedTokens: 64,
      reasoningTokens: 32,
    });
    expect(turn.text).toBe('Hi');
    expect(turn.error).toBeNull();
  });

  it('reads usage without detail objects', () => {
    const turn = run([completed({ usage: { input_tokens: 14, output_tokens: 58, total_tokens: 72 } })]);
    expect(turn.usage).toEqual({ inputTokens: 14, outputTokens: 58, totalTokens: 72 });
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content_filter'],
    ['something_new', 'other'],
  ])('ends response.incomplete (%s) as complete with finish %s and the raw reason', (reason, mapped) => {
    const turn = run([
      textDelta('Partial'),
      ev('response.incomplete', {
        response: {
          id: 'resp_1',
          status: 'incomplete',
          incomplete_details: { reason },
          usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
        },
      }),
    ]);
    expect(turn.status).toBe('complete');
    expect(turn.finishReason).toBe(mapped);
    expect(turn.rawFinishReason).toBe(reason);
    expect(turn.text).toBe('Partial');
    expect(turn.usage?.totalTokens).toBe(3);
  });

  it.each([
    ['rate_limit_exceeded', 'Rate limit reached, please retry after a short wait'],
    ['server_error', 'The server had an error while processing your request'],
    ['invalid_prompt', 'Invalid prompt: flagged'],
  ])('fails on response.failed with %s, keeping the partial text', (code, message) => {
    const turn = run([
      created,
      textDelta('Paris is'),
      textDelta(' the capital'),
      ev('response.failed', {
        response: { id: 'resp_1', status: 'failed', error: { code, message }, usage: null },
      }),
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code, message });
    expect(turn.text).toBe('Paris is the capital');
    expect(turn.usage).toBeNull();
  });

  it('fails on response.failed with no error object', () => {
    const turn = run([ev('response.failed', { response: { status: 'failed' } })]);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('response_failed');
  });

  it('does not complete on a bare [DONE]', () => {
    const before = run([created, textDelta('x')]);
    const after = run([{ type: 'event', event: 'message', data: '[DONE]', id: '', at: 0 }], before);
    expect(after).toBe(before);
    expect(after.status).toBe('streaming');
  });
});

describe('reduceResponses: error event', () => {
  it('reads the nested form OpenAI actually sends', () => {
    const turn = run([
      textDelta('so far'),
      ev('error', {
        sequence_number: 2,
        error: {
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: 'You exceeded your quota.',
          param: null,
        },
      }),
    ]);
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code: 'insufficient_quota', message: 'You exceeded your quota.' });
    expect(turn.text).toBe('so far');
  });

  it('reads the flat form the SDK types declare', () => {
    const turn = run([ev('error', { code: 'rate_limit_exceeded', message: 'Slow down', param: null })]);
    expect(turn.error).toEqual({ code: 'rate_limit_exceeded', message: 'Slow down' });
  });

  it('falls back to error.type when the nested code is null', () => {
    const turn = run([ev('error', { error: { type: 'server_error', code: null, message: 'oops' } })]);
    expect(turn.error).toEqual({ code: 'server_error', message: 'oops' });
  });

  it('still fails when the event says nothing', () => {
    const turn = run([ev('error')]);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('error');
    expect(turn.error?.message).not.toBe('');
  });
});

describe('reduceResponses: events carrying nothing to show', () => {
  it.each(['response.in_progress', 'response.queued'])('leaves the turn unchanged on %s', (type) => {
    const before = run([created, textDelta('x')]);
    expect(run([ev(type, { response: { id: 'resp_1', status: 'in_progress' } })], before)).toEqual(before);
  });

  it.each([
    'response.content_part.added',
    'response.output_text.annotation.added',
    'response.reasoning_summary_part.added',
    'response.web_search_call.searching',
    'response.code_interpreter_call_code.delta',
    'response.image_generation_call.partial_image',
    'response.some_future_event',
  ])('leaves the turn unchanged on %s', (type) => {
    const before = run([created, textDelta('x')]);
    expect(
      run([ev(type, { item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'NO' })], before),
    ).toEqual(before);
  });

  it('leaves the turn unchanged on output_item.done for a built-in tool item', () => {
    const before = run([created, textDelta('x')]);
    const after = run(
      [
        ev('response.output_item.done', {
          output_index: 1,
          item: { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        }),
      ],
      before,
    );
    expect(after).toBe(before);
  });
});
