import { afterEach, describe, expect, it } from 'vitest';
import { readTurn } from '../core/index.ts';
import { fixtureText, streamFromBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage, Attempt, Conversation } from '../state/domain/types.ts';
import { createAppStores } from '../state/stores/appStores.ts';
import { answerMessage } from '../testing/builders.ts';
import { fakeRelay } from '../testing/fakeRelay.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';
import { pageLocks } from './answerLocks.ts';
import { ChatSession } from './ChatSession.ts';

const fixture = 'anthropic/text-then-tool-use.sse';
const body = fixtureText(fixture);
const direct = () => readTurn('messages', streamFromBytes(new TextEncoder().encode(body)));

let app: TestApp;
afterEach(() => app?.session.dispose());

function answers(stores = app.stores): AssistantMessage[] {
  const { activeId, conversations } = stores.conversations.getState();
  return conversations[activeId!]!.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
}

/** Resolves once `check` holds of the stores (each change looked at as it happens). */
function until(check: () => boolean, stores = app.stores): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const stop = stores.conversations.subscribe(() => {
      if (!check()) return;
      stop();
      resolve();
    });
  });
}

/** A conversation whose answer the server runs, stored while it streamed (by a page since reloaded). */
function storedWhileStreaming(partial: Partial<Attempt['turn']>, bytes: number): Conversation {
  const message = answerMessage('msg_1', { status: 'streaming', ...partial }, { bytes });
  const attempt = { ...message.attempts[0]!, id: 'att_run', relayed: true as const };
  return {
    id: 'conv_1',
    title: 'Running',
    createdAt: 1,
    updatedAt: 1,
    messages: [
      { id: 'msg_0', role: 'user', text: 'Hi', createdAt: 1 },
      { ...message, protocol: 'messages', parentId: 'msg_0', attempts: [attempt] },
    ],
  };
}

describe('an answer the server runs', () => {
  it('reads through a broken connection to the end: the same answer as an unbroken stream, one request', async () => {
    app = createTestApp();
    const relay = fakeRelay(body, {
      pieces: 20,
      breaks: [
        { after: 3, how: 'network' },
        { after: 11, how: 'closed' },
      ],
    });
    await app.using({ fetchImpl: relay.fetch }).send('Hello', 'messages');
    const attempt = answers()[0]!.attempts[0]!;
    expect(attempt.turn).toEqual(await direct());
    expect(attempt.relayed).toBe(true);
    expect(relay.requests.filter((r) => r.url.startsWith('/v1/'))).toHaveLength(1);
    expect(relay.requests.map((r) => r.lastEventId).slice(1, 3)).toEqual(['3', '11']);
    // Stored whole: the server is told it may forget it.
    expect(relay.requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/api/answers/${attempt.id}` });
  });

  it('a stop stops it on the server; the page going away does not', async () => {
    app = createTestApp();
    const relay = fakeRelay(body, { pieces: 20, breaks: [{ after: 2, how: 'network' }] });
    const going = app.using({ fetchImpl: relay.fetch }).send('Hello', 'messages');
    await until(() => answers()[0]?.attempts[0]?.relayed === true);
    app.session.stop(answers()[0]!.id);
    await going;
    expect(relay.requests.filter((r) => r.url.endsWith('/stop'))).toHaveLength(1);
    expect(answers()[0]!.attempts[0]!.turn.status).toBe('aborted');

    const other = createTestApp();
    const again = fakeRelay(body, { pieces: 20, breaks: [{ after: 2, how: 'network' }] });
    const left = other.using({ fetchImpl: again.fetch }).send('Hello', 'messages');
    await until(() => answers(other.stores)[0]?.attempts[0]?.relayed === true, other.stores);
    other.session.dispose();
    await left;
    expect(again.requests.filter((r) => r.url.endsWith('/stop') || r.method === 'DELETE')).toEqual([]);
    // Left as stored, streaming: the next page picks it up.
    expect(answers(other.stores)[0]!.attempts[0]!.turn.status).toBe('streaming');
  });

  it('is picked up where a reload left it: from the server, with no new request to the gateway', async () => {
    app = createTestApp();
    const relay = fakeRelay(body, { pieces: 20 });
    app.setFetch(relay.fetch);
    app.stores.conversations.getState().takeStored([storedWhileStreaming({ text: 'Let' }, 40)]);
    app.stores.conversations.getState().selectConversation('conv_1');
    await until(() => answers()[0]!.attempts[0]!.turn.status !== 'streaming');
    expect(answers()[0]!.attempts).toHaveLength(1);
    expect(answers()[0]!.attempts[0]).toMatchObject({ id: 'att_run', relayed: true, turn: await direct() });
    expect(relay.requests.map((r) => [r.method, r.url, r.lastEventId])).toEqual([
      ['GET', '/api/answers/att_run/events', '0'],
      ['DELETE', '/api/answers/att_run', null],
    ]);
  });

  it("records a picked-up answer as the server received it: each event at its piece's time there", async () => {
    app = createTestApp();
    const relay = fakeRelay(body, { pieces: 20 });
    app.setFetch(relay.fetch);
    app.stores.conversations.getState().takeStored([storedWhileStreaming({}, 0)]);
    app.stores.conversations.getState().selectConversation('conv_1');
    await until(() => answers()[0]!.attempts[0]!.turn.status !== 'streaming');
    const { items, firstOutputAt } = answers()[0]!.attempts[0]!.trace;
    // The fake server received piece n at n × 10 ms; the page read all twenty in a moment.
    expect(items.at(-1)!.t).toBe(10 * relay.pieces);
    expect(items.every((item) => item.t % 10 === 0 && item.t >= 10)).toBe(true);
    expect(firstOutputAt! % 10).toBe(0);
  });

  it('keeps what it had when the server no longer has the answer: interrupted, nothing lost', async () => {
    app = createTestApp();
    const relay = fakeRelay(body, { pieces: 20, goneFrom: 0 });
    app.setFetch(relay.fetch);
    app.stores.conversations.getState().takeStored([storedWhileStreaming({ text: 'Partial text' }, 400)]);
    app.stores.conversations.getState().selectConversation('conv_1');
    await until(() => answers()[0]!.attempts[0]!.turn.status !== 'streaming');
    const { turn, trace } = answers()[0]!.attempts[0]!;
    expect(turn).toMatchObject({ status: 'interrupted', text: 'Partial text' });
    expect(turn.error?.message).toContain('the server no longer has this answer');
    expect(trace.bytes).toBe(400);
  });

  it('is read by one tab of a browser at a time', async () => {
    const stores = createAppStores();
    const relay = fakeRelay(body, { pieces: 20 });
    const locks = pageLocks();
    const tabs = [0, 1].map(() => new ChatSession({ stores, fetch: relay.fetch, locks }));
    stores.conversations.getState().takeStored([storedWhileStreaming({}, 0)]);
    stores.conversations.getState().selectConversation('conv_1');
    await until(() => answers(stores)[0]!.attempts[0]!.turn.status === 'complete', stores);
    for (const tab of tabs) tab.dispose();
    expect(relay.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
  });
});
