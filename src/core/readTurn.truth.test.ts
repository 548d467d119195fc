/**
 * `readTurn` tells the truth about what went wrong: an event of the wrong shape is a malformed event, not a
 * cut connection; a caller's exception is an app error; ids that change under a gateway do not multiply the
 * answer; a message that starts finished is taken; two answers in one stream are refused; an answer past the
 * caps ends as `too_large` with what came before kept. Every case keeps the output received before it.
 */
import { describe, expect, it } from 'vitest';
import { readLimits } from './limits.ts';
import { readTurn } from './readTurn.ts';
import { runSdkOracle } from './testing/sdkOracle.ts';
import type { Protocol } from './turn.ts';

const encoder = new TextEncoder();

/** A body that delivers the given chunks, one per read, then closes; `cancelled` tells whether it was cancelled. */
function bodyOf(...chunks: string[]) {
  const state = { cancelled: false, reads: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[state.reads++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(encoder.encode(chunk));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

const sse = (type: string, fields: Record<string, unknown> = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;

// Responses
const created = (id = 'resp_1') =>
  sse('response.created', { response: { id, model: 'gpt-5', status: 'in_progress', output: [] } });
const textDelta = (delta: string, item_id = 'msg_1', output_index = 0) =>
  sse('response.output_text.delta', { item_id, output_index, content_index: 0, delta });
const completed = (output: unknown[] = [], id = 'resp_1') =>
  sse('response.completed', {
    response: {
      id,
      status: 'completed',
      output,
      usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
    },
  });

// Messages
const messageStart = (id = 'msg_1', extra: Record<string, unknown> = {}) =>
  sse('message_start', {
    message: { id, model: 'claude', usage: { input_tokens: 3, output_tokens: 1 }, ...extra },
  });
const blockStart = (index: number, content_block: Record<string, unknown>) =>
  sse('content_block_start', { index, content_block });
const textBlock = (index: number, text: string) =>
  blockStart(index, { type: 'text', text: '' }) +
  sse('content_block_delta', { index, delta: { type: 'text_delta', text } }) +
  sse('content_block_stop', { index });
const toolBlock = (index: number, id: string, name: string, json: string) =>
  blockStart(index, { type: 'tool_use', id, name, input: {} }) +
  sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json } }) +
  sse('content_block_stop', { index });
const messageEnd = (stop_reason = 'end_turn') =>
  sse('message_delta', { delta: { stop_reason }, usage: { output_tokens: 9 } }) + sse('message_stop');

// Chat
const chatText = (content: string) =>
  `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

/** Per protocol: a stream that says "Hello", and what completes it. */
const streams: Record<Protocol, { start: string; text: string; end: string }> = {
  chat: { start: '', text: chatText('Hello'), end: 'data: [DONE]\n\n' },
  responses: { start: created(), text: textDelta('Hello'), end: completed() },
  messages: { start: messageStart(), text: textBlock(0, 'Hello'), end: messageEnd() },
};
const protocols = Object.keys(streams) as Protocol[];

describe('an event of a known type with the wrong shape is malformed, not a cut connection', () => {
  it.each([
    [
      'responses',
      '{"type":"response.output_item.added"}',
      'response.output_item.added',
      '`item` is missing (expected an object)',
    ],
    [
      'responses',
      '{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","name":"f"}}',
      'response.output_item.added',
      '`item.call_id` is missing (expected a string)',
    ],
    [
      'responses',
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":null}',
      'response.output_text.delta',
      '`delta` is null (expected a string)',
    ],
    [
      'responses',
      '{"type":"response.completed","response":{"id":"resp_1","output":{"type":"message"}}}',
      'response.completed',
      '`response.output` is an object (expected a list)',
    ],
    [
      'responses',
      '{"type":"response.completed","response":{"output":[{"type":"message","content":[]},{"type":"message","content":[{"type":"output_text","text":1}]}]}}',
      'response.completed',
      '`response.output[1].content[0].text` is the number 1 (expected a string)',
    ],
    [
      'messages',
      '{"type":"content_block_start","index":1}',
      'content_block_start',
      '`content_block` is missing',
    ],
    [
      'messages',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":["a"]}}',
      'content_block_delta',
      '`delta.text` is a list (expected a string)',
    ],
    [
      'messages',
      '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":"9"}}',
      'message_delta',
      '`usage.output_tokens` is a string (expected a number)',
    ],
    [
      'chat',
      '{"id":"c1","choices":[{"index":0,"delta":{"content":{"text":"x"}}}]}',
      'chunk',
      '`choices[0].delta.content` is an object (expected a string)',
    ],
    [
      'chat',
      '{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":{"index":0}}}]}',
      'chunk',
      '`choices[0].delta.tool_calls` is an object (expected a list)',
    ],
  ] as const)('%s %s', async (protocol, data, what, problem) => {
    const s = streams[protocol];
    const { body } = bodyOf(s.start, s.text, `data: ${data}\n\n`, s.end);
    const turn = await readTurn(protocol, body);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('malformed_event');
    expect(turn.error?.message).toContain(`a ${what} event`);
    expect(turn.error?.message).toContain(problem);
    expect(turn.text).toBe('Hello');
  });

  it.each(protocols)('%s: data under a known name that cannot be read is malformed', async (protocol) => {
    const s = streams[protocol];
    const known = {
      chat: 'message',
      responses: 'response.output_text.delta',
      messages: 'content_block_delta',
    };
    const cases = ['[1,2]', '{"type":', ...(protocol === 'chat' ? [] : ['{"index":0}', '{"type":5}'])];
    for (const data of cases) {
      const event = `event: ${known[protocol]}\ndata: ${data}\n\n`;
      const turn = await readTurn(protocol, bodyOf(s.start, s.text, event, s.end).body);
      expect(turn.status, data).toBe('error');
      expect(turn.error?.code, data).toBe('malformed_event');
      expect(turn.text, data).toBe('Hello');
    }
  });

  it.each(protocols)('%s: unnamed data that is not JSON is malformed', async (protocol) => {
    const s = streams[protocol];
    const turn = await readTurn(protocol, bodyOf(s.start, s.text, 'data: {"type":\n\n', s.end).body);
    expect(turn.error?.code).toBe('malformed_event');
    expect(turn.text).toBe('Hello');
  });
  it('an error event is reported whatever its details look like', async () => {
    const turn = await readTurn(
      'messages',
      bodyOf(streams.messages.start, streams.messages.text, sse('error', { error: 'Overloaded' })).body,
    );
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code: 'error', message: 'The server reported an error.' });
    const chat = await readTurn('chat', bodyOf(chatText('Hi'), 'data: {"error":"quota exhausted"}\n\n').body);
    expect(chat.error).toEqual({ code: 'error', message: 'quota exhausted' });
    const responses = await readTurn(
      'responses',
      bodyOf(created(), sse('error', { error: { code: 429, message: ['x'] }, message: 'Slow down' })).body,
    );
    expect(responses.error).toEqual({ code: '429', message: 'Slow down' });
  });
});

describe('an event this app does not know is skipped, as the official SDKs skip it', () => {
  /** Events a gateway or a vendor adds: a new name, a debug line that is not JSON, data of no known event. */
  const foreign: Record<Protocol, string[]> = {
    chat: [
      'event: gateway.usage\ndata: {"choices":"not a list","cost":0.01}\n\n',
      'event: vendor-debug\ndata: upstream=eu-west latency=12ms\n\n',
      'event: ping\ndata: [1,2]\n\n',
      // A chunk's exact template under another name: not a chunk either (the template reader agrees).
      'event: gateway.echo\ndata: {"id":"c1","choices":[{"index":0,"delta":{"content":"NO"},"logprobs":null,"finish_reason":null}]}\n\n',
    ],
    responses: [
      'event: gateway.usage\ndata: {"cost":0.01,"response":"none"}\n\n',
      'event: vendor-debug\ndata: upstream=eu-west latency=12ms\n\n',
      'data: {"debug":{"upstream":"eu-west"}}\n\n',
      'data: [1,2]\n\n',
      'event: response.gateway_note\ndata: {"type":5}\n\n',
    ],
    messages: [
      'event: gateway.usage\ndata: {"cost":0.01,"index":"none"}\n\n',
      'event: vendor-debug\ndata: upstream=eu-west latency=12ms\n\n',
      'data: {"debug":{"upstream":"eu-west"}}\n\n',
      'event: message_annotation\ndata: {"index":0}\n\n',
    ],
  };

  it.each(protocols)('%s: each one is skipped, the answer read on', async (protocol) => {
    const s = streams[protocol];
    for (const event of foreign[protocol]) {
      const turn = await readTurn(protocol, bodyOf(s.start, event, s.text, event, s.end).body);
      expect(turn.status, event).toBe('complete');
      expect(turn.text, event).toBe('Hello');
    }
  });

  it.each(protocols)(
    '%s: all of them at once, in one chunk (the template readers see them too)',
    async (protocol) => {
      const s = streams[protocol];
      const wire = s.start + foreign[protocol].join('') + s.text + foreign[protocol].join('') + s.end;
      const turn = await readTurn(protocol, bodyOf(wire).body);
      expect(turn.status).toBe('complete');
      expect(turn.text).toBe('Hello');
    },
  );
});

describe('a gateway that gives the response a new id on every event', () => {
  const inProgress = (id: string) =>
    sse('response.in_progress', { response: { id, model: 'gpt-5', status: 'in_progress', output: [] } });

  it('responses: a new id on response.in_progress, a delta or a done event is no second answer', async () => {
    const wire =
      created('resp_1') +
      inProgress('resp_2') +
      sse('response.queued', { response: { id: 'resp_3', status: 'queued' } }) +
      sse('response.output_text.delta', {
        response_id: 'resp_4',
        item_id: 'msg_4',
        output_index: 0,
        content_index: 0,
        delta: 'Hel',
      }) +
      sse('response.output_text.delta', {
        response_id: 'resp_5',
        item_id: 'msg_5',
        output_index: 0,
        content_index: 0,
        delta: 'lo',
      }) +
      sse('response.output_text.done', {
        response_id: 'resp_6',
        item_id: 'msg_6',
        output_index: 0,
        content_index: 0,
        text: 'Hello',
      }) +
      completed(
        [{ type: 'message', id: 'msg_7', content: [{ type: 'output_text', text: 'Hello' }] }],
        'resp_7',
      );
    const turn = await readTurn('responses', bodyOf(wire).body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Hello');
    expect(turn.responseId).toBe('resp_7');
  });

  it('messages: ids on the events after message_start are no second answer', async () => {
    const wire =
      messageStart('msg_1') +
      sse('content_block_start', {
        index: 0,
        message_id: 'msg_2',
        content_block: { type: 'text', text: '' },
      }) +
      sse('content_block_delta', {
        index: 0,
        message_id: 'msg_3',
        delta: { type: 'text_delta', text: 'Hello' },
      }) +
      sse('content_block_stop', { index: 0, message_id: 'msg_4' }) +
      sse('message_delta', { id: 'msg_5', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }) +
      sse('message_stop', { id: 'msg_6' });
    const turn = await readTurn('messages', bodyOf(wire).body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Hello');
    expect(turn.responseId).toBe('msg_1');
  });
});

describe('a done event that carries the whole text of a part sets it, never appends to it', () => {
  const delta = (type: string, text: string, output_index = 0, index: Record<string, number> = {}) =>
    sse(type, { item_id: 'item', output_index, content_index: 0, ...index, delta: text });
  const textDone = (text: string, output_index = 0) =>
    sse('response.output_text.done', { item_id: 'item', output_index, content_index: 0, text });
  const partDone = (part: Record<string, unknown>, output_index = 0) =>
    sse('response.content_part.done', { item_id: 'item', output_index, content_index: 0, part });
  const message = (text: string, phase?: string) => ({
    type: 'message',
    id: 'msg',
    role: 'assistant',
    ...(phase && { phase }),
    content: [{ type: 'output_text', text, annotations: [] }],
  });
  const itemDone = (item: Record<string, unknown>, output_index = 0) =>
    sse('response.output_item.done', { output_index, item });
  const text = (pieces: string[], output_index = 0) =>
    pieces.map((piece) => delta('response.output_text.delta', piece, output_index)).join('');

  /** Each way a Responses stream hands over a part's whole text, after the deltas `pieces`. */
  const carriers = (whole: string): Record<string, { done: string; output: unknown[] }> => ({
    'output_text.done': { done: textDone(whole), output: [] },
    'content_part.done': {
      done: partDone({ type: 'output_text', text: whole, annotations: [] }),
      output: [],
    },
    'output_item.done': { done: itemDone(message(whole)), output: [] },
    "the completed response's output": { done: '', output: [message(whole)] },
  });

  for (const [name, pieces, whole] of [
    ['deltas a strict prefix of it', ['The ans'], 'The answer.'],
    ['deltas that disagree with it', ['The ', 'anwser!'], 'The answer.'],
    ['no deltas at all', [], 'The answer.'],
  ] as const) {
    for (const [carrier, { done, output }] of Object.entries(carriers(whole))) {
      it(`${name}: ${carrier}`, async () => {
        const wire = created() + text([...pieces]) + done + completed(output);
        // One chunk (the template readers take the deltas) and one event per chunk.
        for (const chunks of [[wire], wire.split(/(?<=\n\n)/)]) {
          const turn = await readTurn('responses', bodyOf(...chunks).body);
          expect(turn.status).toBe('complete');
          expect(turn.text).toBe(whole);
          expect(turn.parts).toEqual([{ kind: 'text', key: '0:0', text: whole }]);
        }
      });
    }
  }

  it('a done event that arrives twice, and all of them in a row', async () => {
    const whole = 'The answer.';
    const all = Object.values(carriers(whole));
    const dones = all.map((c) => c.done + c.done).join('');
    const wire = created() + text(['The ans']) + dones + completed([message(whole)]);
    const turn = await readTurn('responses', bodyOf(wire).body);
    expect(turn.text).toBe(whole);
    expect(turn.parts).toEqual([{ kind: 'text', key: '0:0', text: whole }]);
  });

  it('a message item of a second phase after the first: each keeps exactly its own text', async () => {
    const wire =
      created() +
      sse('response.output_item.added', { output_index: 0, item: { ...message(''), phase: 'commentary' } }) +
      text(['Let me ', 'chek.']) +
      textDone('Let me check.') +
      itemDone(message('Let me check.', 'commentary')) +
      sse('response.output_item.added', {
        output_index: 1,
        item: { ...message(''), phase: 'final_answer' },
      }) +
      text(['It is', ' 4'], 1) +
      partDone({ type: 'output_text', text: 'It is 4.' }, 1) +
      itemDone(message('It is 4.', 'final_answer'), 1) +
      completed([message('Let me check.', 'commentary'), message('It is 4.', 'final_answer')]);
    const turn = await readTurn('responses', bodyOf(wire).body);
    expect(turn.status).toBe('complete');
    expect(turn.parts).toEqual([
      { kind: 'text', key: '0:0', text: 'Let me check.' },
      { kind: 'text', key: '1:0', text: 'It is 4.' },
    ]);
    expect(turn.text).toBe('Let me check.It is 4.');
  });

  it('reasoning: a content part, a summary part or a reasoning item done sets the reasoning exactly', async () => {
    const raw = 'Two and two make four.';
    const summary = 'Adding.';
    const reasoningItem = {
      type: 'reasoning',
      id: 'rs',
      summary: [{ type: 'summary_text', text: summary }],
      content: [{ type: 'reasoning_text', text: raw }],
    };
    const streamed =
      created() +
      delta('response.reasoning_text.delta', 'Two and') +
      delta('response.reasoning_summary_text.delta', 'Add', 0, { summary_index: 0 });
    for (const done of [
      partDone({ type: 'reasoning_text', text: raw }) +
        sse('response.reasoning_summary_part.done', {
          item_id: 'rs',
          output_index: 0,
          summary_index: 0,
          part: { type: 'summary_text', text: summary },
        }),
      itemDone(reasoningItem),
    ]) {
      const turn = await readTurn('responses', bodyOf(streamed + done + completed()).body);
      expect(turn.status).toBe('complete');
      expect(turn.parts).toEqual([
        { kind: 'reasoning', key: '0:0', text: raw },
        { kind: 'reasoning', key: '0:summary:0', text: summary },
      ]);
    }
  });

  it('a refusal part done sets the refusal exactly', async () => {
    const wire =
      created() +
      delta('response.refusal.delta', "I can't") +
      partDone({ type: 'refusal', refusal: "I can't help with that." }) +
      completed();
    const turn = await readTurn('responses', bodyOf(wire).body);
    expect(turn.refusal).toBe("I can't help with that.");
    expect(turn.finishReason).toBe('refusal');
  });
});

describe("an exception in the caller's callback is an app error, not a network event", () => {
  const boom = () => {
    throw new Error('render failed');
  };
  it.each([
    ['onUpdate', { onUpdate: boom }],
    ['onItem', { onItem: boom }],
    ['onChunk', { onChunk: boom }],
  ] as const)('%s throws: app_error naming it, the request cancelled', async (name, options) => {
    const s = streams.messages;
    const { body, state } = bodyOf(s.start + s.text, s.end);
    const turn = await readTurn('messages', body, options);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('app_error');
    expect(turn.error?.message).toContain(`${name} threw: render failed`);
    expect(state.cancelled).toBe(true);
    // What was read before the throw is kept: onItem throws on the first event, onUpdate after the first chunk.
    if (name === 'onUpdate') expect(turn.text).toBe('Hello');
    if (name === 'onItem') expect(turn.responseId).toBe('msg_1');
  });

  it('a throw after some output keeps that output', async () => {
    const s = streams.chat;
    let calls = 0;
    const turn = await readTurn('chat', bodyOf(chatText('Hel'), chatText('lo'), s.end).body, {
      onUpdate: () => {
        if (++calls === 2) throw new TypeError('x is undefined');
      },
    });
    expect(turn.error?.code).toBe('app_error');
    expect(turn.text).toBe('Hello');
  });
});

describe('Responses parts are keyed by position: item ids are labels', () => {
  /** Every event of a message item gets a new `item_id`, as some gateways rewrite them; positions stay put. */
  function rewritten(): string {
    let n = 0;
    const id = () => `msg_rewritten_${n++}`;
    const text = 'The answer, once.';
    const pieces = ['The ', 'answer', ', once.'];
    return (
      created() +
      sse('response.output_item.added', {
        output_index: 0,
        item: { type: 'message', id: id(), role: 'assistant', content: [] },
      }) +
      sse('response.content_part.added', {
        item_id: id(),
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }) +
      pieces.map((piece) => textDelta(piece, id())).join('') +
      sse('response.output_text.done', { item_id: id(), output_index: 0, content_index: 0, text }) +
      sse('response.output_item.done', {
        output_index: 0,
        item: { type: 'message', id: id(), role: 'assistant', content: [{ type: 'output_text', text }] },
      }) +
      sse('response.output_item.added', {
        output_index: 1,
        item: { type: 'function_call', id: id(), call_id: 'call_1', name: 'f', arguments: '' },
      }) +
      sse('response.function_call_arguments.delta', { item_id: id(), output_index: 1, delta: '{"a":' }) +
      sse('response.function_call_arguments.delta', { item_id: id(), output_index: 1, delta: '1}' }) +
      sse('response.function_call_arguments.done', { item_id: id(), output_index: 1, arguments: '{"a":1}' }) +
      completed([
        { type: 'message', id: id(), content: [{ type: 'output_text', text }] },
        { type: 'function_call', id: id(), call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
      ])
    );
  }

  it('a gateway that rewrites item_id on every event gives the answer once, as the official SDK reads it', async () => {
    const wire = rewritten();
    const turn = await readTurn('responses', bodyOf(wire).body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('The answer, once.');
    expect(turn.parts.filter((p) => p.kind === 'text')).toHaveLength(1);
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'f', arguments: '{"a":1}' }]);
    const sdk = await runSdkOracle('responses', encoder.encode(wire));
    expect(sdk.text).toBe(turn.text);
    expect(sdk.toolCalls.map((c) => [c.id, c.name, c.rawArguments])).toEqual([['call_1', 'f', '{"a":1}']]);
  });
});

describe('Messages: a message that starts with finished blocks', () => {
  it('takes the blocks and the stop reason of message_start, as the official SDK does', async () => {
    const wire =
      messageStart('msg_1', {
        content: [
          { type: 'text', text: 'Looking it up.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
      }) + sse('message_stop');
    const turn = await readTurn('messages', bodyOf(wire).body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Looking it up.');
    expect(turn.toolCalls).toEqual([{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.rawFinishReason).toBe('tool_use');
    const sdk = await runSdkOracle('messages', encoder.encode(wire));
    expect(sdk.text).toBe(turn.text);
    expect(sdk.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['toolu_1', 'get_weather', { city: 'Paris' }],
    ]);
    expect(sdk.rawFinishReason).toBe('tool_use');
  });

  it('blocks after them continue at the next index', async () => {
    const wire =
      messageStart('msg_1', { content: [{ type: 'text', text: 'Found: ' }] }) +
      textBlock(1, 'sunny.') +
      messageEnd();
    const turn = await readTurn('messages', bodyOf(wire).body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Found: sunny.');
  });
});

describe('two answers in one stream are a broken stream', () => {
  it('messages: a second message_start with another id ends as malformed_event, the first kept apart', async () => {
    const wire =
      messageStart('msg_A') +
      toolBlock(0, 'toolu_A', 'search', '{"q":"a"') +
      messageStart('msg_B') +
      toolBlock(0, 'toolu_B', 'search', '{"q":"b"}') +
      messageEnd('tool_use');
    const turn = await readTurn('messages', bodyOf(wire).body);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('malformed_event');
    expect(turn.error?.message).toContain('second message_start (message msg_B)');
    expect(turn.error?.message).toContain('msg_A');
    // No two calls glued into one invalid JSON text.
    expect(turn.toolCalls).toEqual([{ id: 'toolu_A', name: 'search', arguments: '{"q":"a"' }]);
  });

  it('messages: a repeated message_start with the same id is harmless', async () => {
    const s = streams.messages;
    const turn = await readTurn('messages', bodyOf(s.start, messageStart('msg_1'), s.text, s.end).body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Hello');
  });

  it('responses: a second response.created with another id ends as malformed_event', async () => {
    const wire =
      created('resp_A') + textDelta('First') + created('resp_B') + textDelta('Second') + completed();
    const turn = await readTurn('responses', bodyOf(wire).body);
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('malformed_event');
    expect(turn.error?.message).toContain('second response.created (response resp_B)');
    expect(turn.text).toBe('First');
  });
});

describe('caps: an answer past them ends as too_large, everything before kept', () => {
  it('an endless answer stops at the text cap, and the request is cancelled', async () => {
    const piece = 'All work and no play. '.repeat(40);
    let sent = '';
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          sent += piece;
          controller.enqueue(encoder.encode(chatText(piece)));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const turn = await readTurn('chat', body, { limits: { answerChars: 50_000 } });
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('too_large');
    expect(turn.error?.message).toContain('50,000 characters');
    expect(cancelled).toBe(true);
    // Everything up to the cap is kept, and nothing that was not sent: at most one chunk past it.
    expect(turn.text.length).toBeGreaterThan(50_000);
    expect(turn.text.length).toBeLessThanOrEqual(50_000 + piece.length);
    expect(sent.startsWith(turn.text)).toBe(true);
  });

  it('tool arguments and reasoning count towards the cap', async () => {
    const args = `{"q":"${'x'.repeat(3000)}"}`;
    const thinking = sse('content_block_start', {
      index: 0,
      content_block: { type: 'thinking', thinking: 'y'.repeat(3000) },
    });
    const { body } = bodyOf(messageStart() + thinking + toolBlock(1, 't', 'f', args), messageEnd());
    const turn = await readTurn('messages', body, { limits: { answerChars: 5000 } });
    expect(turn.error?.code).toBe('too_large');
    expect(turn.reasoning).toBe('y'.repeat(3000));
    expect(turn.toolCalls[0]?.arguments).toBe(args);
  });

  it('an event that never ends stops at the event cap', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          controller.enqueue(encoder.encode(chatText('Before. ')));
          controller.enqueue(encoder.encode('data: {"choices":[{"delta":{"content":"'));
        },
        pull(controller) {
          controller.enqueue(encoder.encode('z'.repeat(4096)));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const turn = await readTurn('chat', body, { limits: { eventChars: 100_000 } });
    expect(turn.error?.code).toBe('too_large');
    expect(turn.error?.message).toContain('One event passed 100,000 characters');
    expect(turn.text).toBe('Before. ');
    expect(cancelled).toBe(true);
  });

  it('an answer that is complete when the cap is checked is complete', async () => {
    const s = streams.chat;
    const turn = await readTurn('chat', bodyOf(chatText('x'.repeat(200)) + s.end).body, {
      limits: { answerChars: 100 },
    });
    expect(turn.status).toBe('complete');
  });

  it('a huge single chunk (an instant replay) is read in slices, checked within', async () => {
    const wire = Array.from({ length: 3000 }, () => chatText('0123456789'.repeat(100))).join('');
    expect(wire.length).toBeGreaterThan(2 * (1 << 20));
    const turn = await readTurn('chat', bodyOf(wire).body, { limits: { answerChars: 1_000_000 } });
    expect(turn.error?.code).toBe('too_large');
    expect(turn.text.length).toBeLessThan(1_000_000 + (1 << 20));
  });

  it('the default caps leave room for the longest real answers', () => {
    expect(readLimits.answerChars).toBeGreaterThanOrEqual(8 * 128_000 * 3);
    expect(readLimits.eventChars).toBeGreaterThanOrEqual(2 * readLimits.answerChars);
  });
});
