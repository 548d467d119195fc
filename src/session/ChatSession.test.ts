import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildRequest, type Protocol, readTurn } from '../core/index.ts';
import {
  everyNBytes,
  fixtureBytes,
  loadStreamFixtures,
  streamFromBytes,
  streamFromChunks,
} from '../core/testing/fixtures.ts';
import type { AssistantMessage, Attempt } from '../state/domain/types.ts';
import { withAnswer } from '../state/stores/answers.ts';
import { defaultSettings } from '../state/stores/settingsStore.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});

const fixtureDirOf: Record<Protocol, string> = {
  chat: 'chat',
  responses: 'responses',
  messages: 'anthropic',
};

/** A fake gateway response serving `bytes` as an event stream, `chunkSize` bytes per read. */
function sse(bytes: Uint8Array, chunkSize = 7): Response {
  return new Response(streamFromBytes(bytes, everyNBytes(bytes.length, chunkSize)), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

function jsonError(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const rateLimited = (retryAfter?: string) =>
  jsonError(
    429,
    { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  );

type FetchMock = ReturnType<typeof vi.fn<typeof fetch>>;

function fetchServing(...responses: Array<Response | (() => Response | Promise<Response>)>): FetchMock {
  const mock = vi.fn<typeof fetch>();
  for (const r of responses) mock.mockImplementationOnce(async () => (typeof r === 'function' ? r() : r));
  mock.mockImplementation(async () => {
    throw new Error('unexpected extra request');
  });
  return mock;
}

const call = (mock: FetchMock, i: number) => {
  const [url, init] = mock.mock.calls[i]!;
  return { url: String(url), init: init!, body: String(init!.body) };
};

function activeConversation() {
  const { activeId, conversations } = app.stores.conversations.getState();
  return conversations[activeId!]!;
}

/** The answers as the person sees them: an answer in flight as far as it has come. */
function assistants(): AssistantMessage[] {
  const { answers } = app.stores.answers.getState();
  return activeConversation()
    .messages.filter((m): m is AssistantMessage => m.role === 'assistant')
    .map((m) => withAnswer(m, answers[m.id]));
}

function lastAttempt(): Attempt {
  return assistants().at(-1)!.attempts.at(-1)!;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sendMessage streams every recorded fixture', () => {
  const recorded = loadStreamFixtures().filter((f) => !f.synthetic);
  it.each(recorded.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const fetchImpl = fetchServing(sse(f.bytes, 7));
    await app.using({ fetchImpl }).send('Hello there', f.protocol);

    const conversation = activeConversation();
    expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(conversation.messages[0]).toMatchObject({ role: 'user', text: 'Hello there' });
    const message = conversation.messages[1] as AssistantMessage;
    expect(message).toMatchObject({ protocol: f.protocol, model: defaultSettings.model });
    expect(message.attempts).toHaveLength(1);

    const expected = await readTurn(f.protocol, streamFromBytes(f.bytes));
    expect(message.attempts[0]!.turn).toEqual(expected);
    // Reading stops at the terminal event (a trailing `[DONE]` is not needed): the trace is a prefix.
    const { trace } = message.attempts[0]!;
    expect(trace.raw.length).toBeGreaterThan(0);
    expect(new TextDecoder().decode(f.bytes).startsWith(trace.raw)).toBe(true);
    expect(trace.bytes).toBe(new TextEncoder().encode(trace.raw).length);
    // Output events counted (the output rate's fallback): at least one per part, never more than events.
    expect(trace.outputEvents).toBeGreaterThanOrEqual(expected.parts.length);
    expect(trace.outputEvents).toBeLessThanOrEqual(trace.items.filter((i) => i.kind === 'event').length);

    const spec = buildRequest(f.protocol, {
      model: defaultSettings.model,
      messages: [{ role: 'user', text: 'Hello there' }],
      tools: defaultSettings.tools,
    });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const sent = call(fetchImpl, 0);
    expect(sent.url).toBe(`/v1${spec.path}`);
    expect(sent.init.method).toBe('POST');
    expect(JSON.parse(sent.body)).toEqual(spec.body);
    expect(sent.body).toBe(JSON.stringify(spec.body));
    // This app's own server is told which attempt this is (team mode records its usage under it), and
    // that the page can read the answer relayed (the server may run it).
    expect(sent.init.headers).toEqual({
      ...spec.headers,
      'x-hopbase-conversation': activeConversation().id,
      'x-hopbase-attempt': message.attempts[0]!.id,
      'x-hopbase-relay': '1',
    });
    expect(message.attempts[0]!.request).toMatchObject({ url: `/v1${spec.path}`, body: spec.body });
    expect(app.stores.answers.getState().answers).toEqual({});
  });
});

describe('sendMessage', () => {
  it('adds each protocol’s credentials to the request but never stores them', async () => {
    app.stores.settings.getState().update({ apiKey: 'sk-secret' });
    const fetchImpl = fetchServing(
      sse(fixtureBytes('chat/openai-text-obfuscation-usage.sse')),
      sse(fixtureBytes('anthropic/text-padded.sse')),
    );
    await app.using({ fetchImpl }).send('one', 'chat');
    await app.using({ fetchImpl }).send('two', 'messages');
    expect(call(fetchImpl, 0).init.headers).toMatchObject({ authorization: 'Bearer sk-secret' });
    expect(call(fetchImpl, 1).init.headers).toMatchObject({
      'x-api-key': 'sk-secret',
      'anthropic-version': '2023-06-01',
    });
    expect(JSON.stringify(app.stores.conversations.getState().conversations)).not.toContain('sk-secret');
  });

  it('asks the gateway in the same task as the send: the request leaves before the page draws anything', async () => {
    const fetchImpl = fetchServing(sse(fixtureBytes('chat/openai-text-obfuscation-usage.sse')));
    const sent = app.using({ fetchImpl }).send('one', 'chat');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await sent;
  });

  it('lays a finished answer out in an animation frame, not in the task that read its end', async () => {
    let inFrame = false;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      setTimeout(async () => {
        inFrame = true;
        callback(performance.now());
        // The frame's own microtasks belong to it: what they change is laid out in this frame.
        for (let i = 0; i < 5; i++) await Promise.resolve();
        inFrame = false;
      }, 1),
    );
    const endedInFrame: boolean[] = [];
    const stop = app.stores.conversations.subscribe(() => {
      if (assistants()[0]?.attempts.at(-1)?.turn.status === 'complete' && endedInFrame.length === 0)
        endedInFrame.push(inFrame);
    });
    const fetchImpl = fetchServing(sse(fixtureBytes('chat/openai-text-obfuscation-usage.sse')));
    await app.using({ fetchImpl }).send('one', 'chat');
    stop();
    vi.unstubAllGlobals();
    expect(endedInFrame).toEqual([true]);
  });

  it('sends the whole history with the settings, to the configured base URL', async () => {
    app.stores.settings.getState().update({
      baseUrl: 'https://gw.example.com/v1/',
      model: 'gpt-x',
      systemPrompt: 'Be brief',
      maxOutputTokens: 100,
      temperature: 0.5,
      offerTools: false,
    });
    const fetchImpl = fetchServing(
      sse(fixtureBytes('responses/openai-text.sse')),
      sse(fixtureBytes('responses/openai-background-queued.sse')),
    );
    await app.using({ fetchImpl }).send('What is 2+2?', 'responses');
    await app.using({ fetchImpl }).send('And 2+2 again?', 'responses');
    // Another origin is never told this app's ids (they would only cost a CORS preflight there).
    expect(Object.keys(call(fetchImpl, 0).init.headers as object)).not.toContain('x-hopbase-attempt');
    const spec = buildRequest('responses', {
      model: 'gpt-x',
      system: 'Be brief',
      maxOutputTokens: 100,
      temperature: 0.5,
      messages: [
        { role: 'user', text: 'What is 2+2?' },
        { role: 'assistant', text: '2+2 = 4', toolCalls: [] },
        { role: 'user', text: 'And 2+2 again?' },
      ],
    });
    expect(call(fetchImpl, 1).url).toBe('https://gw.example.com/v1/responses');
    expect(call(fetchImpl, 1).body).toBe(JSON.stringify(spec.body));
  });
});

describe('automatic retries', () => {
  it('retries a 429 twice, honouring retry-after, then gives up (3 requests)', async () => {
    vi.useFakeTimers();
    const fetchImpl = fetchServing(rateLimited('2'), rateLimited('3'), rateLimited('1'));
    const done = app.using({ fetchImpl, random: () => 0 }).send('hi', 'chat');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(app.stores.answers.getState().answers[assistants()[0]!.id]?.phase).toMatchObject({
      kind: 'retrying',
      at: Date.now() + 2000,
    });

    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(2999);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(3);

    await vi.advanceTimersByTimeAsync(60_000);
    await done;
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    const [message] = assistants();
    expect(message!.attempts).toHaveLength(3);
    for (const a of message!.attempts) {
      expect(a.httpError).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      expect(a.turn).toMatchObject({ status: 'error', error: { code: 'rate_limit_exceeded' } });
    }
    // Every attempt sends the same bytes.
    expect(call(fetchImpl, 1).body).toBe(call(fetchImpl, 0).body);
    expect(call(fetchImpl, 2).body).toBe(call(fetchImpl, 0).body);
    expect(app.stores.answers.getState().answers).toEqual({});
  });

  it('backs off with jitter when no retry-after is given, and succeeds on a later attempt', async () => {
    vi.useFakeTimers();
    const fetchImpl = fetchServing(
      jsonError(503, { error: { message: 'busy', type: 'server_error' } }),
      () => Promise.reject(new TypeError('fetch failed')),
      () => sse(fixtureBytes('chat/openai-text-obfuscation-usage.sse')),
    );
    // random 1 → the full 25 % jitter: 500 ms × 0.75, then 1000 ms × 0.75.
    const done = app.using({ fetchImpl, random: () => 1 }).send('hi', 'chat');
    await vi.advanceTimersByTimeAsync(374);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(749);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(100);
    await done;
    const attempts = assistants()[0]!.attempts;
    expect(attempts.map((a) => a.turn.status)).toEqual(['error', 'error', 'complete']);
    expect(attempts[1]!.turn.error?.code).toBe('network_error');
    expect(lastAttempt().turn.text).toBe('The capital of Mexico is Mexico City.');
  });

  it('does not retry once output has begun', async () => {
    const bytes = fixtureBytes('anthropic/text-padded.sse');
    const cut = new TextDecoder().decode(bytes).indexOf('content_block_stop');
    let reads = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (reads++ === 0) controller.enqueue(bytes.slice(0, cut));
        else controller.error(new TypeError('terminated'));
      },
    });
    const fetchImpl = fetchServing(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      sse(bytes),
    );
    await app.using({ fetchImpl, random: () => 0 }).send('hi', 'messages');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(lastAttempt().turn).toMatchObject({ status: 'interrupted', text: '2' });
    expect(assistants()[0]!.attempts).toHaveLength(1);
  });

  it('does not retry when automatic retries are off', async () => {
    app.stores.settings.getState().update({ autoRetry: false });
    const fetchImpl = fetchServing(rateLimited('0'), rateLimited('0'));
    await app.using({ fetchImpl, random: () => 0 }).send('hi', 'chat');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(lastAttempt().httpError?.status).toBe(429);
  });

  it('does not retry a 400', async () => {
    const fetchImpl = fetchServing(
      jsonError(400, {
        error: {
          message: 'Unsupported parameter',
          type: 'invalid_request_error',
          code: 'unsupported_parameter',
        },
      }),
      sse(fixtureBytes('chat/openai-text-obfuscation-usage.sse')),
    );
    await app.using({ fetchImpl, random: () => 0 }).send('hi', 'chat');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(lastAttempt().httpError).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      retryable: false,
    });
    expect(lastAttempt().turn).toMatchObject({
      status: 'error',
      error: { message: 'Unsupported parameter' },
    });
  });
});

describe('retryMessage', () => {
  it('re-sends the failed attempt’s exact body as a new attempt of the same message', async () => {
    const fetchImpl = fetchServing(
      jsonError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }),
      sse(fixtureBytes('anthropic/text-padded.sse')),
    );
    await app.using({ fetchImpl }).send('What is 1+1?', 'messages');
    const conversation = activeConversation();
    const messageId = assistants()[0]!.id;
    // Settings changed since: the retry still sends what was sent.
    app.stores.settings
      .getState()
      .update({ model: 'other-model', systemPrompt: 'changed', protocol: 'chat' });

    await app.using({ fetchImpl }).retry(conversation.id, messageId);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(call(fetchImpl, 1).body).toBe(call(fetchImpl, 0).body);
    expect(call(fetchImpl, 1).url).toBe(call(fetchImpl, 0).url);
    expect(call(fetchImpl, 1).url).toBe('/v1/messages');

    expect(activeConversation().messages).toHaveLength(2);
    const attempts = assistants()[0]!.attempts;
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.httpError?.status).toBe(400);
    expect(attempts[1]!.turn).toMatchObject({ status: 'complete', text: '2' });
    expect(attempts[1]!.request).toEqual(attempts[0]!.request);
  });
});

describe('stopMessage', () => {
  it('aborts the stream: the attempt ends aborted with its partial text kept, and is not retried', async () => {
    const bytes = fixtureBytes('chat/openai-text-obfuscation-usage.sse');
    const events = new TextDecoder().decode(bytes).split('\n\n');
    const head = new TextEncoder().encode(`${events.slice(0, 5).join('\n\n')}\n\n`);
    const partial = (await readTurn('chat', streamFromBytes(head))).text;
    expect(partial.length).toBeGreaterThan(0);

    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of [head.slice(0, 10), head.slice(10)]) controller.enqueue(chunk);
      },
      pull: () => new Promise<void>(() => {}),
      cancel() {
        cancelled = true;
      },
    });
    const fetchImpl = fetchServing(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    const done = app.using({ fetchImpl, random: () => 0 }).send('hi', 'chat');
    await vi.waitFor(() => expect(lastAttempt().turn.text).toBe(partial));
    const messageId = assistants()[0]!.id;
    expect(app.stores.answers.getState().answers[messageId]).toBeDefined();
    expect(lastAttempt().turn.status).toBe('streaming');

    app.session.stop(messageId);
    await done;
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(call(fetchImpl, 0).init.signal?.aborted).toBe(true);
    expect(cancelled).toBe(true);
    expect(lastAttempt().turn).toMatchObject({
      status: 'aborted',
      text: partial,
      error: { code: 'aborted' },
    });
    expect(app.stores.answers.getState().answers).toEqual({});
  });

  it('cancels a pending automatic retry', async () => {
    vi.useFakeTimers();
    const fetchImpl = fetchServing(rateLimited('5'));
    const done = app.using({ fetchImpl, random: () => 0 }).send('hi', 'chat');
    await vi.advanceTimersByTimeAsync(0);
    app.session.stop(assistants()[0]!.id);
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(app.stores.answers.getState().answers).toEqual({});
  });
});

describe('submitToolResult', () => {
  it('chat: continues only once every tool call has a result, with role "tool" messages', async () => {
    const fetchImpl = fetchServing(
      sse(fixtureBytes('chat/openai-parallel-tool-calls.sse')),
      sse(fixtureBytes('chat/openai-text-obfuscation-usage.sse')),
    );
    await app.using({ fetchImpl }).send('Weather and stock?', 'chat');
    const calls = lastAttempt().turn.toolCalls;
    expect(calls).toHaveLength(2);
    const conversationId = activeConversation().id;

    await app
      .using({ fetchImpl })
      .submitToolResult(conversationId, calls[0]!.id, calls[0]!.name, '12°C', 'chat');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(activeConversation().messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);

    await app
      .using({ fetchImpl })
      .submitToolResult(conversationId, calls[1]!.id, calls[1]!.name, '$100', 'chat');
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    const body = JSON.parse(call(fetchImpl, 1).body) as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather and stock?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      },
      { role: 'tool', tool_call_id: calls[0]!.id, content: '12°C' },
      { role: 'tool', tool_call_id: calls[1]!.id, content: '$100' },
    ]);
    expect(activeConversation().messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(lastAttempt().turn.text).toBe('The capital of Mexico is Mexico City.');
  });

  it('responses: sends function_call and function_call_output items', async () => {
    const fetchImpl = fetchServing(
      sse(fixtureBytes('responses/openai-function-call-2025-03-no-seq.sse')),
      sse(fixtureBytes('responses/openai-text-after-tool-loop.sse')),
    );
    await app.using({ fetchImpl }).send('Capital of France?', 'responses');
    const [toolCall] = lastAttempt().turn.toolCalls;
    await app
      .using({
        fetchImpl,
      })
      .submitToolResult(activeConversation().id, toolCall!.id, toolCall!.name, 'Paris', 'responses');
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(call(fetchImpl, 1).url).toBe('/v1/responses');
    const body = JSON.parse(call(fetchImpl, 1).body) as { input: unknown[] };
    expect(body.input).toEqual([
      { role: 'user', content: 'Capital of France?' },
      {
        type: 'function_call',
        call_id: toolCall!.id,
        name: 'get_capital',
        arguments: '{"country":"France"}',
      },
      { type: 'function_call_output', call_id: toolCall!.id, output: 'Paris' },
    ]);
  });

  it('messages: sends tool_use and a user tool_result block', async () => {
    const fetchImpl = fetchServing(
      sse(fixtureBytes('anthropic/tool-use-padded.sse')),
      sse(fixtureBytes('anthropic/text-after-tool-result-padded.sse')),
    );
    await app.using({ fetchImpl }).send('Weather in SF?', 'messages');
    const [toolCall] = lastAttempt().turn.toolCalls;
    await app
      .using({
        fetchImpl,
      })
      .submitToolResult(activeConversation().id, toolCall!.id, toolCall!.name, 'Sunny', 'messages');
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    const body = JSON.parse(call(fetchImpl, 1).body) as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in SF?' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: toolCall!.id,
            name: 'get_weather',
            input: { location: 'San Francisco, CA', units: 'f' },
          },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolCall!.id, content: 'Sunny' }] },
    ]);
    expect(lastAttempt().turn.status).toBe('complete');
  });

  it('continues in the protocol chosen now, converting the tool call made in another one', async () => {
    const fetchImpl = fetchServing(
      sse(fixtureBytes('chat/groq-reasoning-tool-call.sse')),
      sse(fixtureBytes('anthropic/text-padded.sse')),
    );
    await app.using({ fetchImpl }).send('Find example', 'chat');
    const [toolCall] = lastAttempt().turn.toolCalls;
    await app
      .using({
        fetchImpl,
      })
      .submitToolResult(activeConversation().id, toolCall!.id, toolCall!.name, 'found', 'messages');
    expect(call(fetchImpl, 1).url).toBe('/v1/messages');
    const body = JSON.parse(call(fetchImpl, 1).body) as { messages: unknown[] };
    expect(body.messages).toContainEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolCall!.id, content: 'found' }],
    });
    expect(assistants().at(-1)?.protocol).toBe('messages');
  });
});

describe('failures before the stream', () => {
  beforeEach(() => app.stores.settings.getState().update({ autoRetry: false }));

  it('a rejected fetch ends the turn with network_error', async () => {
    const fetchImpl = fetchServing(() => Promise.reject(new TypeError('Failed to fetch')));
    await app.using({ fetchImpl }).send('hi', 'chat');
    expect(lastAttempt().turn).toMatchObject({
      status: 'error',
      error: { code: 'network_error', message: 'Network error: Failed to fetch' },
    });
    expect(lastAttempt().httpError).toBeNull();
  });

  it('a rejected fetch to another origin mentions CORS', async () => {
    app.stores.settings.getState().update({ baseUrl: 'https://gw.example.com/v1' });
    const fetchImpl = fetchServing(() => Promise.reject(new TypeError('Failed to fetch')));
    await app.using({ fetchImpl }).send('hi', 'responses');
    expect(lastAttempt().turn.error?.code).toBe('network_error');
    expect(lastAttempt().turn.error?.message).toContain('CORS');
  });

  it('an HTML 502 page becomes a clear message without markup', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    const fetchImpl = fetchServing(
      new Response(html, { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    await app.using({ fetchImpl }).send('hi', 'messages');
    const { turn, httpError } = lastAttempt();
    expect(httpError).toMatchObject({ status: 502, code: 'http_502', retryable: true });
    expect(turn.status).toBe('error');
    expect(turn.error?.message).toContain('web page');
    expect(turn.error?.message).toContain('502 Bad Gateway');
    expect(turn.error?.message).not.toMatch(/[<>]/);
    expect(httpError?.message).not.toMatch(/[<>]/);
  });

  it('a 200 that is not an event stream is an unexpected response', async () => {
    const fetchImpl = fetchServing(
      new Response('{"id":"x"}', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    await app.using({ fetchImpl }).send('hi', 'chat');
    expect(lastAttempt().turn.error?.code).toBe('unexpected_response');
  });
});

// Keep the helper used: a stream of explicit chunks (e.g. a multi-byte character split in two).
describe('chunk boundaries', () => {
  it('decodes a character split across reads', async () => {
    const bytes = fixtureBytes(`${fixtureDirOf.chat}/deepseek-reasoning-content.sse`);
    const emoji = new TextDecoder().decode(bytes).indexOf('😊');
    const at = new TextEncoder().encode(new TextDecoder().decode(bytes).slice(0, emoji)).length + 2;
    const fetchImpl = fetchServing(
      new Response(streamFromChunks([bytes.slice(0, at), bytes.slice(at)]), {
        headers: { 'content-type': 'text/event-stream' },
      }),
    );
    await app.using({ fetchImpl }).send('hi', 'chat');
    expect(lastAttempt().turn.text).toBe('Hello there! 😊 How can I help you today?');
  });
});
