/**
 * `readTurn` against bad and unusual bodies: every case asserts the final status AND that output received
 * before the problem is kept. Recorded fixtures come from `fixtures/` (through `testing/fixtures.ts`);
 * the rest are small hand-written streams.
 */
import { describe, expect, it, vi } from 'vitest';
import { generateStream, randomChunks } from '../../bench/generate.ts';
import { readTurn } from './readTurn.ts';
import type { SseItem } from './sse/types.ts';
import { fixtureBytes as fixture } from './testing/fixtures.ts';
import type { Protocol, Turn } from './turn.ts';

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

/** A body that delivers the given chunks, one per read, then closes. */
function bodyOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const queue = chunks.map((c) => (typeof c === 'string' ? bytesOf(c) : c));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of queue) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Splits bytes into pieces of the given size. */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

// Small hand-written streams, one per protocol.
const chatText = (text: string) =>
  `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const chatDone = 'data: [DONE]\n\n';
const responsesText = (delta: string) =>
  `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta })}\n\n`;
const responsesCompleted =
  'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}\n\n';
const messagesText = (text: string) =>
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`;
const messagesStart =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n';
const messagesStop = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

const streams: Record<Protocol, { text: (t: string) => string; prelude: string; terminal: string }> = {
  chat: { text: chatText, prelude: '', terminal: chatDone },
  responses: { text: responsesText, prelude: '', terminal: responsesCompleted },
  messages: { text: messagesText, prelude: messagesStart, terminal: messagesStop },
};
const protocols = Object.keys(streams) as Protocol[];

describe('readTurn: whole recorded streams', () => {
  it('reads anthropic/text-then-tool-use.sse to a complete tool-use turn', async () => {
    const turn = await readTurn('messages', bodyOf(fixture('anthropic/text-then-tool-use.sse')));
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe("I'll check the current weather in Paris for you.");
    expect(turn.toolCalls).toEqual([
      { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: '{"location": "Paris"}' },
    ]);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.usage).toEqual({ inputTokens: 377, outputTokens: 65, totalTokens: 442, cachedTokens: 0 });
    expect(turn.error).toBeNull();
  });

  it('reads chat/openai-parallel-tool-calls.sse to a complete turn with two calls', async () => {
    const turn = await readTurn('chat', bodyOf(fixture('chat/openai-parallel-tool-calls.sse')));
    expect(turn.status).toBe('complete');
    expect(turn.toolCalls).toEqual([
      {
        id: 'call_JMW1whyEaYG438VE1OIflxA2',
        name: 'GetWeatherArgs',
        arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
      },
      {
        id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
        name: 'get_stock_price',
        arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
      },
    ]);
    expect(turn.usage).toEqual({ inputTokens: 149, outputTokens: 60, totalTokens: 209, reasoningTokens: 0 });
  });
});

describe('readTurn: HopBase mid-stream errors keep the partial output', () => {
  it.each([
    [
      'chat',
      'synthetic/chat/hopbase-keepalive-text-then-error.sse',
      { code: 'server_error', message: 'Response stream interrupted, please retry' },
      { text: 'The capital of France' },
    ],
    [
      'messages',
      'synthetic/anthropic/hopbase-stream-interrupted.sse',
      { code: 'api_error', message: 'Response stream interrupted, please retry' },
      { text: 'Sure, here is a long' },
    ],
    [
      'responses',
      'synthetic/responses/hopbase-failed-rate-limit.sse',
      { code: 'rate_limit_exceeded', message: 'Rate limit reached, please retry after a short wait' },
      { text: 'Paris is the capital' },
    ],
    [
      'responses',
      'synthetic/responses/hopbase-failed-server-error.sse',
      { code: 'server_error', message: 'The server had an error while processing your request' },
      { reasoning: '**Checking the request**\n\nThe user' },
    ],
    [
      'responses',
      'synthetic/responses/hopbase-failed-invalid-prompt.sse',
      {
        code: 'invalid_prompt',
        message: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy',
      },
      { text: '' },
    ],
  ] as const)('%s %s', async (protocol, name, error, kept) => {
    const turn = await readTurn(protocol, bodyOf(fixture(name)));
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual(error);
    expect(turn).toMatchObject(kept);
  });

  it('reports the first of `error` then `response.failed` (responses/openai-error-then-failed.sse)', async () => {
    const turn = await readTurn('responses', bodyOf(fixture('responses/openai-error-then-failed.sse')));
    expect(turn.status).toBe('error');
    expect(turn.error?.code).toBe('insufficient_quota');
  });
});

describe('readTurn: malformed JSON mid-stream', () => {
  it.each(protocols)(
    '%s: ends as error/malformed_event, keeping earlier text and ignoring later events',
    async (protocol) => {
      const s = streams[protocol];
      const turn = await readTurn(
        protocol,
        bodyOf(
          s.prelude,
          s.text('Hello'),
          s.text(', world'),
          'data: {"type": oops\n\n',
          s.text(' LOST'),
          s.terminal,
        ),
      );
      expect(turn.status).toBe('error');
      expect(turn.error?.code).toBe('malformed_event');
      expect(turn.error?.message).toContain('{"type": oops');
      expect(turn.text).toBe('Hello, world');
    },
  );
});

describe('readTurn: truncation at every byte offset', () => {
  const cases = [
    {
      protocol: 'messages' as const,
      name: 'anthropic/text-then-tool-use.sse',
      terminator: 'data: {"type":"message_stop"}\n\n',
    },
    {
      protocol: 'chat' as const,
      name: 'chat/openai-parallel-tool-calls.sse',
      terminator: 'data: [DONE]\n\n',
    },
  ];

  it.each(cases)(
    '$name: each prefix is interrupted (or complete once the terminator got through) and keeps a prefix of the output',
    async ({ protocol, name, terminator }) => {
      const bytes = fixture(name);
      const source = new TextDecoder().decode(bytes);
      const terminalEnd =
        bytes.length - (source.length - (source.lastIndexOf(terminator) + terminator.length));
      expect(source.includes(terminator)).toBe(true);
      const full = await readTurn(protocol, bodyOf(bytes));
      expect(full.status).toBe('complete');

      let previous: Turn | null = null;
      for (let n = 0; n <= bytes.length; n++) {
        const half = n >> 1;
        const turn = await readTurn(protocol, bodyOf(bytes.slice(0, half), bytes.slice(half, n)));
        const where = `${name} cut at byte ${n}`;
        if (n >= terminalEnd) {
          expect(turn.status, where).toBe('complete');
          expect(turn.error, where).toBeNull();
        } else {
          expect(turn.status, where).toBe('interrupted');
          expect(turn.error?.code, where).toBe('interrupted');
        }
        expect(full.text.startsWith(turn.text), where).toBe(true);
        expect(turn.toolCalls.length, where).toBeLessThanOrEqual(full.toolCalls.length);
        turn.toolCalls.forEach((call, i) => {
          const whole = full.toolCalls[i]!;
          expect(call.id, where).toBe(whole.id);
          expect(call.name, where).toBe(whole.name);
          expect(whole.arguments.startsWith(call.arguments), where).toBe(true);
        });
        // Nothing shrinks as more bytes arrive.
        if (previous) {
          expect(turn.text.length, where).toBeGreaterThanOrEqual(previous.text.length);
          expect(turn.toolCalls.length, where).toBeGreaterThanOrEqual(previous.toolCalls.length);
        }
        previous = turn;
      }
    },
  );
});

describe('readTurn: streams with no answer in them', () => {
  it.each(protocols)('%s: keepalives only end interrupted, with nothing invented', async (protocol) => {
    const comments: string[] = [];
    const turn = await readTurn(
      protocol,
      bodyOf(': hopbase-keepalive\n\n', ': hopbase-keepalive\n\n', ': hopbase-keepalive\n\n'),
      {
        onItem: (item) => item.type === 'comment' && comments.push(item.text),
      },
    );
    expect(turn.status).toBe('interrupted');
    expect(turn.error?.code).toBe('interrupted');
    expect(comments).toEqual(['hopbase-keepalive', 'hopbase-keepalive', 'hopbase-keepalive']);
    expect(turn).toMatchObject({
      text: '',
      reasoning: '',
      refusal: '',
      toolCalls: [],
      parts: [],
      usage: null,
      finishReason: null,
    });
  });

  it.each(protocols)('%s: keepalives between output lose nothing', async (protocol) => {
    const s = streams[protocol];
    const keepalive = ': hopbase-keepalive\n\n';
    const turn = await readTurn(
      protocol,
      bodyOf(keepalive, s.prelude, keepalive, s.text('a'), keepalive, s.text('b'), keepalive, s.terminal),
    );
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('ab');
  });

  it.each(protocols)(
    '%s: an HTML error page fed as a stream ends interrupted without throwing',
    async (protocol) => {
      const html =
        '<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title>\n<meta charset="utf-8">\n</head>\n' +
        '<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\nstyle: x\n\n</body>\n</html>\n';
      const items: SseItem[] = [];
      const turn = await readTurn(protocol, bodyOf(html), { onItem: (item) => items.push(item) });
      expect(turn.status).toBe('interrupted');
      expect(turn.text).toBe('');
      expect(items.filter((i) => i.type === 'event')).toEqual([]);
    },
  );

  it.each(protocols)('%s: an empty body ends interrupted', async (protocol) => {
    const turn = await readTurn(protocol, bodyOf());
    expect(turn.status).toBe('interrupted');
    expect(turn.error?.message).not.toBe('');
  });

  it.each(protocols)(
    '%s: output with no terminator ends interrupted, keeping the output',
    async (protocol) => {
      const s = streams[protocol];
      const turn = await readTurn(protocol, bodyOf(s.prelude, s.text('half an ans')));
      expect(turn.status).toBe('interrupted');
      expect(turn.text).toBe('half an ans');
    },
  );

  it('chat: a finish_reason without [DONE] still ends interrupted', async () => {
    const finish = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
    const turn = await readTurn('chat', bodyOf(chatText('Done?'), finish));
    expect(turn.status).toBe('interrupted');
    expect(turn.finishReason).toBe('stop');
    expect(turn.text).toBe('Done?');
  });
});

describe('readTurn: unusual but valid content', () => {
  it('ignores unknown event types (messages)', async () => {
    const unknown =
      'event: brand_new\ndata: {"type":"brand_new","index":0,"delta":{"type":"text_delta","text":"NO"}}\n\n';
    const turn = await readTurn(
      'messages',
      bodyOf(messagesStart, messagesText('a'), unknown, messagesText('b'), messagesStop),
    );
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('ab');
  });

  it('ignores unknown event types (responses)', async () => {
    const unknown =
      'event: response.brand_new\ndata: {"type":"response.brand_new","delta":"NO","item_id":"msg_1"}\n\n';
    const turn = await readTurn(
      'responses',
      bodyOf(responsesText('a'), unknown, responsesText('b'), responsesCompleted),
    );
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('ab');
  });

  it('keeps a 1 MB text delta whole, fed in 64 KB pieces', async () => {
    const big = 'The quick brown fox jumps over the lazy dog. '.repeat(23_302).slice(0, 1024 * 1024);
    const wire = bytesOf(messagesStart + messagesText(big) + messagesStop);
    const turn = await readTurn('messages', bodyOf(...pieces(wire, 64 * 1024)));
    expect(turn.status).toBe('complete');
    expect(turn.text.length).toBe(1024 * 1024);
    expect(turn.text === big).toBe(true);
  });

  it('keeps multi-byte characters split across chunks', async () => {
    const wire = bytesOf(chatText('naïve ☕ 日本') + chatDone);
    const turn = await readTurn('chat', bodyOf(...pieces(wire, 1)));
    expect(turn.text).toBe('naïve ☕ 日本');
  });
});

describe('readTurn: stopping', () => {
  /** A body that sends the chunks, then stays open until cancelled. */
  function hangingBody(chunks: string[]) {
    let cancelled: unknown = 'not cancelled';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(bytesOf(chunk));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    return { body, cancelledWith: () => cancelled };
  }

  it('ends as aborted when the signal fires mid-stream, keeping the partial output', async () => {
    const { body, cancelledWith } = hangingBody([chatText('Partial'), chatText(' answer')]);
    const controller = new AbortController();
    let seen = '';
    const result = readTurn('chat', body, {
      signal: controller.signal,
      onUpdate: (turn) => {
        seen = turn.text;
      },
    });
    await vi.waitFor(() => expect(seen).toBe('Partial answer'));
    controller.abort(new Error('user pressed stop'));
    const turn = await result;
    expect(turn.status).toBe('aborted');
    expect(turn.error?.code).toBe('aborted');
    expect(turn.text).toBe('Partial answer');
    expect((cancelledWith() as Error).message).toBe('user pressed stop');
  });

  it('ends as aborted at once for an already-aborted signal', async () => {
    const { body } = hangingBody([chatText('never read')]);
    const turn = await readTurn('chat', body, { signal: AbortSignal.abort() });
    expect(turn.status).toBe('aborted');
    expect(turn.error?.code).toBe('aborted');
  });

  it('keeps the final status when the signal fires after the terminal event', async () => {
    const controller = new AbortController();
    const turn = await readTurn('chat', bodyOf(chatText('ok'), chatDone), { signal: controller.signal });
    controller.abort();
    expect(turn.status).toBe('complete');
  });

  it('ends as interrupted with the reason when the body errors mid-stream', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 2)
          controller.enqueue(bytesOf(messagesStart + messagesText(sent === 1 ? 'Half' : ' done')));
        else controller.error(new TypeError('network error: connection reset'));
      },
    });
    const turn = await readTurn('messages', body);
    expect(turn.status).toBe('interrupted');
    expect(turn.error?.code).toBe('interrupted');
    expect(turn.error?.message).toContain('network error: connection reset');
    expect(turn.text).toBe('Half done');
  });

  it('stops reading after the terminal event and cancels the body', async () => {
    const chunks = [chatText('Hi'), chatDone, chatText(' after'), chatText(' more')];
    let pulls = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          controller.enqueue(bytesOf(chunks[pulls++]!));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const turn = await readTurn('chat', body);
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Hi');
    expect(pulls).toBe(2);
    expect(cancelled).toBe(true);
  });

  it('ignores events after [DONE] in the same chunk', async () => {
    const turn = await readTurn('chat', bodyOf(chatText('Hi') + chatDone + chatText(' after')));
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Hi');
  });

  it('ignores events after an error in the same chunk', async () => {
    const error =
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const turn = await readTurn(
      'messages',
      bodyOf(messagesStart + messagesText('a') + error + messagesText('b') + messagesStop),
    );
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ code: 'overloaded_error', message: 'Overloaded' });
    expect(turn.text).toBe('a');
  });
});

describe('readTurn: two streams read at once', () => {
  /** A Responses event in OpenAI's field order (the order the template readers take). */
  const event = (type: string, fields: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;

  /**
   * A Responses stream with a text and two parallel tool calls whose deltas interleave. Both streams use the
   * same item ids, with their own output indexes, names and contents: any state shared between the two
   * readers would mix them up. `response.completed` lists no output, so the turn holds only what the
   * deltas built.
   */
  function responsesStream(k: number) {
    let seq = 0;
    const out = [
      event('response.created', {
        sequence_number: seq++,
        response: { id: `resp_${k}`, model: `model-${k}`, status: 'in_progress', output: [] },
      }),
    ];
    const calls = [1, 2].map((c) => ({
      itemId: `fc_${c}`,
      outputIndex: k * 10 + c,
      callId: `call_${k}_${c}`,
      name: `tool_${k}_${c}`,
      args: JSON.stringify({ stream: k, call: c, text: `é "${k}${c}" 🚀\n`.repeat(3) }),
    }));
    for (const call of calls) {
      out.push(
        event('response.output_item.added', {
          sequence_number: seq++,
          output_index: call.outputIndex,
          item: {
            type: 'function_call',
            id: call.itemId,
            call_id: call.callId,
            name: call.name,
            arguments: '',
          },
        }),
      );
    }
    let text = '';
    const pieces = 12;
    for (let i = 0; i < pieces; i++) {
      const delta = `${k}:${i} «${'ab'.repeat(k + 1)}» `;
      text += delta;
      out.push(
        event('response.output_text.delta', {
          sequence_number: seq++,
          item_id: 'msg_1',
          output_index: k * 10,
          content_index: 0,
          delta,
          logprobs: [],
          obfuscation: 'x',
        }),
      );
      for (const call of i % 3 === 2 ? [...calls].reverse() : calls) {
        const size = Math.ceil(call.args.length / pieces);
        out.push(
          event('response.function_call_arguments.delta', {
            sequence_number: seq++,
            item_id: call.itemId,
            output_index: call.outputIndex,
            delta: call.args.slice(i * size, (i + 1) * size),
            obfuscation: 'y',
          }),
        );
      }
    }
    out.push(
      event('response.completed', {
        sequence_number: seq++,
        response: {
          id: `resp_${k}`,
          model: `model-${k}`,
          status: 'completed',
          output: [],
          usage: { input_tokens: 5 + k, output_tokens: 40 + k, total_tokens: 45 + 2 * k },
        },
      }),
    );
    return {
      bytes: bytesOf(out.join('')),
      text,
      toolCalls: calls.map((c) => ({ id: c.callId, name: c.name, arguments: c.args })),
    };
  }

  /** A body whose chunks the test hands over one at a time. */
  function heldBody() {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    return { body, controller };
  }

  it('keeps their state apart: interleaved chunks of two Responses streams give both turns exactly', async () => {
    const streams = [responsesStream(0), responsesStream(1)];
    // Odd sizes, different per stream: events and multi-byte characters are cut at different places.
    const chunks = [pieces(streams[0]!.bytes, 37), pieces(streams[1]!.bytes, 53)];
    const held = [heldBody(), heldBody()];
    const order: number[] = [];
    const reading = held.map(({ body }, k) => readTurn('responses', body, { onChunk: () => order.push(k) }));
    const rounds = Math.max(chunks[0]!.length, chunks[1]!.length);
    for (let i = 0; i < rounds; i++) {
      for (const k of [0, 1]) {
        const chunk = chunks[k]![i];
        if (chunk === undefined) continue;
        held[k]!.controller.enqueue(chunk);
        // Let that reader take the chunk before the other stream's next one.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    const turns = await Promise.all(reading);

    // The chunks really were read in turns, as long as both streams had some.
    const both = 2 * Math.min(chunks[0]!.length, chunks[1]!.length);
    expect(both).toBeGreaterThan(100);
    expect(order.slice(0, both)).toEqual(Array.from({ length: both }, (_, i) => i % 2));
    for (const k of [0, 1]) {
      const turn = turns[k]!;
      const expected = streams[k]!;
      expect(turn.status).toBe('complete');
      expect(turn.text).toBe(expected.text);
      expect(turn.toolCalls).toEqual(expected.toolCalls);
      expect(turn.responseId).toBe(`resp_${k}`);
      expect(turn.model).toBe(`model-${k}`);
      expect(turn.finishReason).toBe('tool_calls');
      expect(turn.usage).toEqual({ inputTokens: 5 + k, outputTokens: 40 + k, totalTokens: 45 + 2 * k });
      // And exactly the turn the stream gives when read alone.
      expect(turn).toStrictEqual(await readTurn('responses', bodyOf(expected.bytes)));
    }
  });
});

describe('readTurn: callbacks', () => {
  /** A body whose every read advances the injected clock to the given time first. */
  function timedBody(chunks: [number, string | Uint8Array][]) {
    let clock = 0;
    let i = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks[i++];
          if (!next) {
            controller.close();
            return;
          }
          clock = next[0];
          controller.enqueue(typeof next[1] === 'string' ? bytesOf(next[1]) : next[1]);
        },
      },
      { highWaterMark: 0 },
    );
    return { body, now: () => clock };
  }

  it('calls onUpdate with growing turns, only when something changed', async () => {
    const updates: Turn[] = [];
    await readTurn('chat', bodyOf(chatText('a'), ': keepalive\n\n', chatText('b'), chatText('c'), chatDone), {
      onUpdate: (turn) => updates.push(turn),
    });
    expect(updates.map((t) => [t.text, t.status])).toEqual([
      ['a', 'streaming'],
      ['ab', 'streaming'],
      ['abc', 'streaming'],
      ['abc', 'complete'],
    ]);
  });

  it('never changes a turn once it was handed to onUpdate (deltas are written only into turns not handed out)', async () => {
    for (const protocol of ['chat', 'responses', 'messages'] as const) {
      const { bytes, text } = generateStream(protocol, 400, 11);
      const handed: [Turn, string][] = [];
      const turn = await readTurn(protocol, bodyOf(...randomChunks(bytes, 5, 700)), {
        onUpdate: (t) => handed.push([t, JSON.stringify(t)]),
      });
      expect(turn.text).toBe(text);
      expect(handed.length).toBeGreaterThan(10);
      for (const [t, json] of handed) expect(JSON.stringify(t)).toBe(json);
    }
  });

  it('passes every comment and event to onItem with the injected clock time', async () => {
    const { body, now } = timedBody([
      [1000, ': hopbase-keepalive\n\n'],
      [2500, chatText('x').slice(0, 20)],
      [4000, `${chatText('x').slice(20)}: hopbase-keepalive\n\n`],
      [9000, chatDone],
    ]);
    const items: SseItem[] = [];
    const turn = await readTurn('chat', body, { onItem: (item) => items.push(item), now });
    expect(turn.status).toBe('complete');
    expect(items.map((i) => [i.type, i.at])).toEqual([
      ['comment', 1000],
      ['event', 4000],
      ['comment', 4000],
      ['event', 9000],
    ]);
    expect(items[1]).toMatchObject({ type: 'event', event: 'message', data: chatText('x').slice(6, -2) });
  });

  it('tells onItem which events added output: the deltas and new tool calls, not the rest', async () => {
    const recorded: [Protocol, string][] = [
      ['chat', 'chat/openai-parallel-tool-calls.sse'],
      ['chat', 'chat/deepseek-reasoning-content.sse'],
      ['responses', 'responses/openai-reasoning-summary-function-call.sse'],
      ['messages', 'anthropic/text-then-tool-use.sse'],
      ['messages', 'anthropic/thinking-then-text.sse'],
    ];
    for (const [protocol, name] of recorded) {
      const flagged: boolean[] = [];
      let parts = 0;
      const turn = await readTurn(protocol, bodyOf(fixture(name)), {
        onItem: (item, output) => {
          if (item.type === 'comment') expect(output).toBe(false);
          flagged.push(output);
        },
        onUpdate: (next) => {
          parts = next.parts.length;
        },
      });
      const added = flagged.filter(Boolean).length;
      // At least one event per part (each starts with one), and no more than there are events.
      expect(added, name).toBeGreaterThanOrEqual(parts);
      expect(added, name).toBeLessThanOrEqual(flagged.length);
      if (turn.text !== '' || turn.toolCalls.length > 0) expect(added, name).toBeGreaterThan(0);
    }
    // Exactly: a chat stream of three text deltas, a usage chunk and [DONE].
    const flags: boolean[] = [];
    const usage =
      'data: {"id":"c1","model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":3,"total_tokens":6}}\n\n';
    await readTurn('chat', bodyOf(chatText('a') + chatText('b') + chatText('c') + usage + chatDone), {
      onItem: (_item, output) => flags.push(output),
    });
    expect(flags).toEqual([true, true, true, false, false]);
  });

  it('passes every chunk to onChunk with its time and text; bytes and text add up to the input', async () => {
    // A leading BOM and multi-byte characters split across chunks: the text is decoded once, BOM kept.
    const comment = new TextEncoder().encode(': héllo 世界 🚀\n');
    const wire = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...comment,
      ...fixture('anthropic/text-then-tool-use.sse'),
    ]);
    const sizes = [1, 7, 100, 3, 512];
    const parts: Uint8Array[] = [];
    for (let at = 0, k = 0; at < wire.length; k++) {
      const size = sizes[k % sizes.length]!;
      parts.push(wire.slice(at, at + size));
      at += size;
    }
    const { body, now } = timedBody(parts.map((p, k) => [k * 10, p] as [number, Uint8Array]));
    const seen: [number, number][] = [];
    let text = '';
    const turn = await readTurn('messages', body, {
      onChunk: (bytes, at, chunkText) => {
        seen.push([bytes.length, at]);
        text += chunkText;
      },
      now,
    });
    expect(turn.status).toBe('complete');
    expect(seen.reduce((sum, [n]) => sum + n, 0)).toBe(wire.length);
    expect(text).toBe(new TextDecoder('utf-8', { ignoreBOM: true }).decode(wire));
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(seen.map(([, at]) => at)).toEqual(parts.map((_, k) => k * 10));
  });
});
