import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Protocol, readTurn, type Turn } from '../core/index.ts';
import { fixtureBytes, loadStreamFixtures, streamFromBytes } from '../core/testing/fixtures.ts';
import { emptyRecording } from '../state/domain/recordings.ts';
import type { AssistantMessage, Attempt, TraceItem } from '../state/domain/types.ts';
import { exportJsonTrace } from '../state/formats/traceExport.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});

afterEach(() => {
  vi.useRealTimers();
});

function assistants(): AssistantMessage[] {
  const { activeId, conversations } = app.stores.conversations.getState();
  return (conversations[activeId!]?.messages ?? []).filter(
    (m): m is AssistantMessage => m.role === 'assistant',
  );
}

/** Every SSE item of a recording, stamped with the given offsets (ms from the request start). */
async function recordedItems(protocol: Protocol, bytes: Uint8Array, offset: (i: number) => number) {
  const items: TraceItem[] = [];
  const turn = await readTurn(protocol, streamFromBytes(bytes), {
    onItem(item) {
      const t = offset(items.length);
      items.push(
        item.type === 'comment'
          ? { t, kind: 'comment', event: '', data: item.text }
          : { t, kind: 'event', event: item.event, data: item.data },
      );
    },
  });
  return { items, turn };
}

function recordedMessage(protocol: Protocol, turn: Turn, items: TraceItem[], raw: string) {
  const attempt: Attempt = {
    id: 'att_rec',
    startedAt: Date.UTC(2025, 0, 1),
    request: { url: '/v1/x', path: '/x', headers: {}, body: {} },
    sentHeaders: {},
    turn,
    httpError: null,
    trace: { ...emptyRecording(), items, raw, endedAt: items.at(-1)?.t ?? null },
  };
  const message: AssistantMessage = {
    id: 'msg_rec',
    role: 'assistant',
    protocol,
    model: 'recorded-model',
    source: { kind: 'gateway' },
    createdAt: 0,
    attempts: [attempt],
  };
  return { message, attempt };
}

describe('a replay', () => {
  it('never touches the network or the credentials, and cannot be sent again', async () => {
    app.stores.settings
      .getState()
      .update({ apiKey: 'sk-replay-secret', baseUrl: 'https://gw.example.com/v1' });
    const fetchImpl = vi.fn<typeof fetch>();
    app.setFetch(fetchImpl);
    const text = new TextDecoder().decode(fixtureBytes('chat/openai-json-text-usage.sse'));
    await app.session.replay('turn.sse', text, 'instant', 'chat');
    const [message] = assistants();
    expect(message!.source).toEqual({ kind: 'replay', file: 'turn.sse' });
    expect(message!.attempts[0]!.turn.status).toBe('complete');
    expect(JSON.stringify(message)).not.toContain('sk-replay-secret');
    expect(message!.attempts[0]!.sentHeaders).toEqual({});

    await app.session.retry(app.stores.conversations.getState().activeId!, message!.id);
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(assistants()[0]!.attempts).toHaveLength(1);
  });
});

describe('replaying an exported .sse instantly', () => {
  it.each(loadStreamFixtures().map((f) => [f.name, f] as const))('%s', async (name, f) => {
    const fileName = path.basename(name);
    const text = new TextDecoder().decode(f.bytes);
    // The fallback is deliberately a protocol the file does not speak: detection must win.
    const fallback: Protocol = f.protocol === 'chat' ? 'messages' : 'chat';
    await app.session.replay(fileName, text, 'instant', fallback);

    const replayed = assistants();
    expect(replayed).toHaveLength(1);
    const message = replayed[0]!;
    expect(message.model).toBe(`replay: ${fileName}`);
    expect(message.protocol).toBe(f.protocol);
    expect(message.attempts).toHaveLength(1);
    const attempt = message.attempts[0]!;
    expect(message.source).toEqual({ kind: 'replay', file: fileName });
    expect(attempt.sentHeaders).toEqual({});
    expect(attempt.turn).toEqual(await readTurn(f.protocol, streamFromBytes(f.bytes)));
    expect(attempt.turn.status).not.toBe('streaming');
    expect(app.stores.answers.getState().answers).toEqual({});
  });

  it('uses the fallback protocol when the stream does not say', async () => {
    await app.session.replay('mystery.sse', 'data: {"hello":1}\n\n', 'instant', 'responses');
    expect(assistants()[0]!.protocol).toBe('responses');
  });

  it('goes into a conversation of its own, never into the history sent to a model', async () => {
    const fetchImpl = vi.fn<typeof fetch>(
      async () =>
        new Response(streamFromBytes(fixtureBytes('chat/openai-json-text-usage.sse')), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    app.setFetch(fetchImpl);
    await app.session.send('Hello', 'chat');
    const chat = app.stores.conversations.getState().activeId;
    const text = new TextDecoder().decode(fixtureBytes('chat/openai-text-obfuscation-usage.sse'));
    await app.session.replay('a.sse', text, 'instant', 'chat');
    const replays = app.stores.conversations.getState();
    expect(replays.activeId).not.toBe(chat);
    expect(replays.conversations[replays.activeId!]!.title).toBe('');
    expect(assistants().map((m) => m.model)).toEqual(['replay: a.sse']);

    // Asking a question there sends the question alone: the recording is not the model's own words.
    await app.session.send('What did that say?', 'chat');
    const body = JSON.parse(String(fetchImpl.mock.calls[1]![1]!.body)) as { messages: { role: string }[] };
    expect(body.messages.map((m) => m.role)).toEqual(['user']);
  });
});

describe('replaying a JSON trace', () => {
  it('delivers each recorded item at its recorded offset', async () => {
    const bytes = fixtureBytes('chat/openai-text-obfuscation-usage.sse');
    // Items 200 ms apart, then a 10 s stall before the last one.
    const { items: spaced, turn } = await recordedItems('chat', bytes, (i) => 200 * (i + 1));
    const lastOffset = spaced.at(-2)!.t + 10_000;
    const items = spaced.map((item, i) => (i === spaced.length - 1 ? { ...item, t: lastOffset } : item));
    expect(items.length).toBeGreaterThan(4);
    const { message, attempt } = recordedMessage('chat', turn, items, new TextDecoder().decode(bytes));
    const json = exportJsonTrace(message, attempt, '');

    vi.useFakeTimers();
    const done = app.session.replay('trace.json', json, 'recorded', 'messages');
    let settled = false;
    void done.then(() => {
      settled = true;
    });
    const current = () => assistants()[0]!.attempts[0]!.turn;

    await vi.advanceTimersByTimeAsync(items[0]!.t - 1);
    expect(current().text).toBe('');

    // Half way: part of the text, still streaming.
    await vi.advanceTimersByTimeAsync(items[Math.floor(items.length / 2)]!.t - items[0]!.t + 50);
    expect(current().status).toBe('streaming');
    expect(current().text.length).toBeGreaterThan(0);
    expect(turn.text.startsWith(current().text)).toBe(true);

    // Every item but the last has arrived: the turn waits for it.
    await vi.advanceTimersByTimeAsync(lastOffset - 1 - (items[Math.floor(items.length / 2)]!.t + 50));
    expect(current().status).toBe('streaming');
    expect(settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1 + 100);
    await done;
    expect(settled).toBe(true);
    const replayed = assistants()[0]!;
    expect(replayed.model).toBe('replay: trace.json');
    // The trace's own protocol wins over the fallback.
    expect(replayed.protocol).toBe('chat');
    expect(replayed.attempts[0]!.turn).toEqual(turn);
    expect(turn.status).toBe('complete');
  });

  it('replays comments as keepalives and named events as named events', async () => {
    const bytes = fixtureBytes('synthetic/anthropic/hopbase-stream-interrupted.sse');
    const { items, turn } = await recordedItems('messages', bytes, (i) => 10 * (i + 1));
    expect(items.filter((item) => item.kind === 'comment')).toHaveLength(2);
    const { message, attempt } = recordedMessage('messages', turn, items, '');
    await app.session.replay('t.json', exportJsonTrace(message, attempt, ''), 'instant', 'chat');
    const replayed = assistants()[0]!.attempts[0]!;
    expect(replayed.turn).toEqual(turn);
    expect(replayed.trace.items.map(({ kind, event, data }) => ({ kind, event, data }))).toEqual(
      items.map(({ kind, event, data }) => ({ kind, event, data })),
    );
  });
});

describe('an imported file is checked before anything is stored', () => {
  async function exportedTrace() {
    const bytes = fixtureBytes('anthropic/text-padded.sse');
    const { items, turn } = await recordedItems('messages', bytes, (i) => i);
    const { message, attempt } = recordedMessage('messages', turn, items, '');
    return { document: JSON.parse(exportJsonTrace(message, attempt, '')) as Record<string, unknown>, turn };
  }

  it('does not trust an unknown protocol: it detects the protocol from the events instead', async () => {
    const { document, turn } = await exportedTrace();
    await app.session.replay(
      'bogus.json',
      JSON.stringify({ ...document, protocol: 'bogus' }),
      'instant',
      'chat',
    );
    const replayed = assistants()[0]!;
    expect(replayed.protocol).toBe('messages');
    expect(replayed.attempts[0]!.turn).toEqual(turn);
  });

  it('uses the fallback when neither the trace nor its events say', async () => {
    await app.session.replay(
      'odd.json',
      JSON.stringify({
        format: 'hopbase-chat-trace',
        protocol: '__proto__',
        events: [{ t: 0, kind: 'event', event: 'message', data: '{"hello":1}' }],
      }),
      'instant',
      'responses',
    );
    expect(assistants()[0]!.protocol).toBe('responses');
  });

  it.each([
    ['events that are not recorded items', { events: [{ t: 'soon', kind: 'event', data: 1 }] }],
    ['no events list', { events: 'data: x' }],
    ['another format', { format: 'something-else' }],
  ])('rejects a trace with %s, storing nothing', async (_name, change) => {
    const { document } = await exportedTrace();
    await expect(
      app.session.replay('bad.json', JSON.stringify({ ...document, ...change }), 'instant', 'chat'),
    ).rejects.toThrow(/trace/);
    expect(app.stores.conversations.getState().order).toEqual([]);
  });

  it('rejects a file that is neither an event stream nor JSON', async () => {
    await expect(
      app.session.replay('photo.png', '\u0089PNG\r\n\u001a\n…', 'instant', 'chat'),
    ).rejects.toThrow('neither a recorded event stream');
    await expect(app.session.replay('list.json', '[1, 2, 3]', 'instant', 'chat')).rejects.toThrow(
      'not a HopBase Chat trace',
    );
    expect(app.stores.conversations.getState().order).toEqual([]);
  });
});

describe('a replayed message', () => {
  it('cannot be retried: retryMessage sends nothing and adds no attempt', async () => {
    const text = new TextDecoder().decode(fixtureBytes('synthetic/anthropic/hopbase-stream-interrupted.sse'));
    await app.session.replay('interrupted.sse', text, 'instant', 'chat');
    const conversationId = app.stores.conversations.getState().activeId!;
    const message = assistants()[0]!;
    expect(message.attempts[0]!.turn.status).toBe('error');

    const fetchImpl = vi.fn<typeof fetch>();
    await app.using({ fetchImpl }).retry(conversationId, message.id);
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(assistants()[0]!.attempts).toHaveLength(1);
    expect(assistants()[0]).toBe(message);
  });
});
