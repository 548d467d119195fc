/**
 * The streaming lifecycle around one answer: deleting a conversation mid-stream, retrying mid-stream,
 * automatic retries for errors that arrive inside the stream, credentials for a stored cross-origin request,
 * snapshots of the recording that never change once shown, and when the conversation store receives an
 * answer in flight.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantMessage } from '../state/domain/types.ts';
import { withAnswer } from '../state/stores/answers.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';
import { pacing } from './pacing.ts';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});

const encoder = new TextEncoder();

/** A response body the test feeds by hand; `closed` tells whether the reader cancelled it. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    state,
  };
}

const chatDelta = (text: string) =>
  `data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}\n\n`;

/** The answers as the person sees them: an answer in flight as far as it has come. */
function messages(): AssistantMessage[] {
  const { activeId, conversations } = app.stores.conversations.getState();
  const { answers } = app.stores.answers.getState();
  return (conversations[activeId!]?.messages ?? [])
    .filter((m): m is AssistantMessage => m.role === 'assistant')
    .map((m) => withAnswer(m, answers[m.id]));
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.useRealTimers());

describe('deleting a conversation while it streams', () => {
  it('stops the stream and its live state', async () => {
    const stream = controlledStream();
    const done = app.using({ fetchImpl: async () => stream.response }).send('Hi', 'chat');
    stream.send(chatDelta('Hel'));
    await tick();
    expect(Object.keys(app.stores.answers.getState().answers)).toHaveLength(1);

    const { activeId, deleteConversation } = app.stores.conversations.getState();
    deleteConversation(activeId!);
    await done;
    expect(stream.state.cancelled).toBe(true);
    expect(app.stores.answers.getState().answers).toEqual({});
  });
});

describe('sessions are instances', () => {
  it('two apps side by side share nothing: each streams into its own stores', async () => {
    const other = createTestApp();
    const mine = controlledStream();
    const theirs = controlledStream();
    const sent = app.using({ fetchImpl: async () => mine.response }).send('Mine', 'chat');
    other.setFetch(async () => theirs.response);
    const otherSent = other.session.send('Theirs', 'chat');
    mine.send(chatDelta('one'));
    theirs.send(chatDelta('two'));
    await tick();
    const texts = (stores: typeof app.stores) =>
      Object.values(stores.conversations.getState().conversations).flatMap((c) =>
        c.messages.map((m) =>
          m.role === 'user' ? m.text : m.role === 'assistant' ? m.attempts[0]?.turn.text : '',
        ),
      );
    expect(Object.keys(app.stores.answers.getState().answers)).toHaveLength(1);
    expect(Object.keys(other.stores.answers.getState().answers)).toHaveLength(1);

    // Stopping in one app leaves the other streaming.
    const [message] = messages();
    app.session.stop(message!.id);
    await sent;
    expect(mine.state.cancelled).toBe(true);
    expect(theirs.state.cancelled).toBe(false);
    theirs.close();
    await otherSent;
    await tick();
    expect(texts(app.stores)).toEqual(['Mine', 'one']);
    expect(texts(other.stores)).toEqual(['Theirs', 'two']);
  });

  it('dispose stops its streams and no longer watches deletions', async () => {
    const stream = controlledStream();
    const done = app.using({ fetchImpl: async () => stream.response }).send('Hi', 'chat');
    stream.send(chatDelta('Hel'));
    await tick();
    app.session.dispose();
    await done;
    expect(stream.state.cancelled).toBe(true);
    expect(messages()[0]!.attempts[0]!.turn.status).toBe('aborted');
    expect(app.stores.answers.getState().answers).toEqual({});
  });
});

describe('retrying while a stream is still running', () => {
  it('aborts the first attempt; only the new one owns the live state', async () => {
    const first = controlledStream();
    const second = controlledStream();
    const responses = [first.response, second.response];
    const fetchImpl = vi.fn(async () => responses.shift()!);
    const sent = app.using({ fetchImpl }).send('Hi', 'chat');
    first.send(chatDelta('partial'));
    await tick();
    const [message] = messages();
    const { activeId } = app.stores.conversations.getState();

    const retried = app.using({ fetchImpl }).retry(activeId!, message!.id);
    await sent;
    second.send(chatDelta('fresh'));
    await tick();
    const live = app.stores.answers.getState().answers[message!.id];
    const attempts = messages()[0]!.attempts;
    expect(attempts.map((a) => a.turn.status)).toEqual(['aborted', 'streaming']);
    expect(live?.attempt.id).toBe(attempts[1]!.id);
    expect(first.state.cancelled).toBe(true);

    second.send('data: [DONE]\n\n');
    second.close();
    await retried;
    expect(messages()[0]!.attempts[1]!.turn).toMatchObject({ status: 'complete', text: 'fresh' });
    expect(app.stores.answers.getState().answers).toEqual({});
  });
});

describe('automatic retries for errors inside the stream', () => {
  const overloaded =
    'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","model":"c","usage":{"input_tokens":5,"output_tokens":1}}}\n\n' +
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
  const answer =
    'event: message_start\ndata: {"type":"message_start","message":{"id":"m2","model":"c","usage":{"input_tokens":5,"output_tokens":1}}}\n\n' +
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n' +
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n' +
    'event: message_stop\ndata: {"type":"message_stop"}\n\n';
  const sse = (text: string) => new Response(text, { headers: { 'content-type': 'text/event-stream' } });

  it('retries an overloaded_error that came before any output', async () => {
    const fetchImpl = vi.fn().mockResolvedValueOnce(sse(overloaded)).mockResolvedValueOnce(sse(answer));
    await app.using({ fetchImpl, random: () => 0 }).send('Hi', 'messages');
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    const attempts = messages()[0]!.attempts;
    expect(attempts.map((a) => a.turn.status)).toEqual(['error', 'complete']);
    expect(attempts[1]!.turn.text).toBe('Hello');
  });

  it('does not retry the same error once output has begun', async () => {
    const errorEvent =
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const withOutput = `${answer.slice(0, answer.indexOf('event: message_delta'))}${errorEvent}`;
    const fetchImpl = vi.fn().mockResolvedValue(sse(withOutput));
    await app.using({ fetchImpl, random: () => 0 }).send('Hi', 'messages');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(messages()[0]!.attempts[0]!.turn).toMatchObject({ status: 'error', text: 'Hello' });
  });
});

describe('retry after the gateway changed in Settings', () => {
  it('sends the same body to the gateway now in Settings, with that gateway’s key only', async () => {
    const settings = app.stores.settings.getState();
    settings.update({ baseUrl: 'https://a.example/v1', apiKey: 'sk-key-of-a' });
    const fetchImpl = vi.fn(async () => new Response('{"error":{"message":"nope"}}', { status: 400 }));
    await app.using({ fetchImpl }).send('Hi', 'messages');
    settings.update({ baseUrl: 'https://b.example/v1', apiKey: 'sk-key-of-b' });
    const { activeId } = app.stores.conversations.getState();
    await app.using({ fetchImpl }).retry(activeId!, messages()[0]!.id);

    const sent = (fetchImpl.mock.calls as unknown as [string, RequestInit][]).map(([url, init]) => ({
      url,
      key: (init.headers as Record<string, string>)['x-api-key'],
      body: init.body,
    }));
    expect(sent.map(({ url, key }) => [url, key])).toEqual([
      ['https://a.example/v1/messages', 'sk-key-of-a'],
      ['https://b.example/v1/messages', 'sk-key-of-b'],
    ]);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(messages()[0]!.attempts[1]!.request.url).toBe('https://b.example/v1/messages');
  });
});

describe('the recording of an answer in flight', () => {
  it('is a snapshot: items shown for one frame do not grow afterwards', async () => {
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => setTimeout(run, 0));
    const stream = controlledStream();
    const done = app.using({ fetchImpl: async () => stream.response }).send('Hi', 'chat');
    stream.send(chatDelta('one'));
    await vi.waitFor(() => expect(messages()[0]!.attempts[0]!.trace.items.length).toBeGreaterThan(0));
    const shown = messages()[0]!.attempts[0]!.trace.items;
    const count = shown.length;

    stream.send(': hopbase-keepalive\n\n');
    stream.send(chatDelta('two'));
    stream.send('data: [DONE]\n\n');
    stream.close();
    await done;
    expect(shown).toHaveLength(count);
    expect(messages()[0]!.attempts[0]!.trace.items.length).toBeGreaterThan(count);
    vi.unstubAllGlobals();
  });
});

describe('a gateway the page may not connect to', () => {
  it('says the security policy refused it, and does not retry on its own', async () => {
    app.stores.settings.getState().update({ baseUrl: 'https://gw.example.com/v1' });
    const fetchImpl = vi.fn<typeof fetch>(async (input) => {
      // As in a browser: the fetch fails bare, the violation report follows.
      setTimeout(() =>
        document.dispatchEvent(
          Object.assign(new Event('securitypolicyviolation'), {
            effectiveDirective: 'connect-src',
            blockedURI: String(input),
          }),
        ),
      );
      throw new TypeError('Failed to fetch');
    });
    await app.using({ fetchImpl }).send('Hi', 'chat');
    const [attempt, ...more] = messages()[0]!.attempts;
    expect(more).toEqual([]);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(attempt!.turn.error?.code).toBe('blocked_by_policy');
    expect(attempt!.turn.error?.message).toMatch(/Content-Security-Policy.*Failed to fetch/);
  });
});

describe('an answer in flight and the conversation store', () => {
  it('reaches the store when it starts, at checkpoints and when it ends, not on every frame', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => setTimeout(run, 0));
    // Each delta shown in its frame, however slow the machine: the clock for checkpoints stands still.
    const shownAs = (text: string) =>
      vi.waitFor(() => expect(messages()[0]!.attempts[0]!.turn.text).toBe(text));
    const stream = controlledStream();
    const storedTexts: string[] = [];
    let published = 0;
    app.stores.conversations.subscribe(() => {
      const text = app.stores.conversations
        .getState()
        .conversations[app.stores.conversations.getState().activeId!]?.messages.flatMap((m) =>
          m.role === 'assistant' ? m.attempts.map((a) => a.turn.text) : [],
        )
        .join();
      if (text !== undefined && text !== storedTexts.at(-1)) storedTexts.push(text);
    });
    app.stores.answers.subscribe(() => published++);
    const done = app.using({ fetchImpl: async () => stream.response }).send('Hi', 'chat');
    let sent = '';
    for (const word of ['a', 'b', 'c', 'd']) {
      stream.send(chatDelta(word));
      sent += word;
      await shownAs(sent);
    }
    expect(published).toBeGreaterThanOrEqual(5);
    // Within a checkpoint's time, the store has only the attempt as it started.
    expect(storedTexts).toEqual(['']);

    vi.advanceTimersByTime(1000);
    stream.send(chatDelta('e'));
    await shownAs('abcde');
    expect(storedTexts).toEqual(['', 'abcde']);
    // Asked again with nothing new (the inspector's export): the store is not touched.
    const before = app.stores.conversations.getState().conversations;
    app.session.flushProgress(messages()[0]!.id);
    expect(app.stores.conversations.getState().conversations).toBe(before);

    stream.send(chatDelta('f'));
    stream.send('data: [DONE]\n\n');
    stream.close();
    await done;
    expect(storedTexts).toEqual(['', 'abcde', 'abcdef']);
    expect(app.stores.answers.getState().answers).toEqual({});
    vi.unstubAllGlobals();
  });

  it('reaches the store sooner when a fast stream brought a checkpoint of bytes', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => setTimeout(run, 0));
    const stream = controlledStream();
    const stored = () =>
      app.stores.conversations.getState().conversations[app.stores.conversations.getState().activeId!];
    const storedText = () => {
      const assistant = stored()?.messages.find((m) => m.role === 'assistant');
      return assistant?.role === 'assistant' ? assistant.attempts[0]?.turn.text : undefined;
    };
    const done = app.using({ fetchImpl: async () => stream.response }).send('Hi', 'chat');
    stream.send(chatDelta('small'));
    await vi.waitFor(() => expect(messages()[0]!.attempts[0]!.turn.text).toBe('small'));
    expect(storedText()).toBe('');
    // The clock stands still: only the bytes can bring the checkpoint.
    const large = 'x'.repeat(pacing.checkpointBytes);
    stream.send(chatDelta(large));
    await vi.waitFor(() => expect(storedText()).toBe(`small${large}`));
    stream.send('data: [DONE]\n\n');
    stream.close();
    await done;
    vi.unstubAllGlobals();
  });
});
