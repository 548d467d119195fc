/**
 * An answer whose request body this browser lacks (`SentRequest.bodyMissing`: its record gone, or in team
 * mode an answer made on another device): Retry and Regenerate read it first where it may be (persistence
 * asks the team server) and send it again byte for byte; when it is nowhere they never send an empty body,
 * they build the request again from the conversation.
 */
import 'fake-indexeddb/auto';
import { createStore, get, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage, Conversation, SentRequest } from '../state/domain/types.ts';
import { startPersisting } from '../state/storage/persistence.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let fetchImpl: ReturnType<typeof vi.fn<typeof fetch>>;
let db: UseStore;
let dbCount = 0;
/** The bodies the team server has, by attempt id, and the attempts it was asked for. */
let onServer: Map<string, SentRequest['body']>;
let asked: string[][];
let stop: () => Promise<void>;

beforeEach(async () => {
  app = createTestApp();
  app.stores.conversations.getState().hydrate([], null);
  app.stores.settings.getState().update({ model: 'sim-echo' });
  fetchImpl = vi.fn<typeof fetch>(
    async () =>
      new Response(streamFromBytes(fixtureBytes('anthropic/text-padded.sse')), {
        headers: { 'content-type': 'text/event-stream' },
      }),
  );
  app.setFetch(fetchImpl);
  await app.session.send('Tell me', 'messages');
  // As a load leaves an attempt whose `request:` record is not in this browser.
  const { id } = conversation();
  const answer = answers()[0]!;
  app.stores.conversations.getState().updateAttempt(id, answer.id, answer.attempts[0]!.id, (a) => ({
    ...a,
    request: { ...a.request, body: {}, bodyMissing: 'missing' },
  }));
  onServer = new Map();
  asked = [];
  db = createStore(`hopbase-request-missing-${++dbCount}`, 'state');
  stop = startPersisting(db, app.stores, 5, 2000, {
    bodiesElsewhere: async (ids) => {
      asked.push([...ids]);
      return new Map(ids.flatMap((id) => (onServer.has(id) ? [[id, onServer.get(id)!] as const] : [])));
    },
  });
});

afterEach(() => stop());

function conversation(): Conversation {
  const { activeId, conversations } = app.stores.conversations.getState();
  return conversations[activeId!]!;
}
const answers = () => conversation().messages.filter((m): m is AssistantMessage => m.role === 'assistant');

/** The body of the `n`th request sent (from 0). */
const sentBody = (n: number) => JSON.parse(String(fetchImpl.mock.calls[n]![1]!.body));

describe('a request whose body is not stored anywhere', () => {
  it('is built again from the conversation by Retry: the same request, never an empty body', async () => {
    await app.session.retry(conversation().id, answers()[0]!.id);
    expect(asked).toEqual([[answers()[0]!.attempts[0]!.id]]);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(sentBody(1)).toEqual(sentBody(0));
    const attempts = answers()[0]!.attempts;
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.turn.status).toBe('complete');
    expect(attempts[1]!.request.bodyMissing).toBeUndefined();
    expect(attempts[1]!.request.body).toEqual(sentBody(0));
  });

  it('is built again by Regenerate too, into a new version', async () => {
    await app.session.regenerate(conversation().id, answers()[0]!.id);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(sentBody(1)).toEqual(sentBody(0));
    const [, version] = answers();
    expect(version?.attempts.map((a) => a.turn.status)).toEqual(['complete']);
  });
});

describe('a request whose body the team server has (sent from another device)', () => {
  it('is read from it by Retry and sent again byte for byte, not built from today’s settings, and kept here', async () => {
    const attemptId = answers()[0]!.attempts[0]!.id;
    onServer.set(attemptId, sentBody(0));
    // Built again, the request would carry this.
    app.stores.settings.getState().update({ temperature: 0.2 });

    await app.session.retry(conversation().id, answers()[0]!.id);
    expect(asked).toEqual([[attemptId]]);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(fetchImpl.mock.calls[1]![1]!.body).toBe(fetchImpl.mock.calls[0]![1]!.body);
    expect(sentBody(1)).not.toHaveProperty('temperature');
    const [first, second] = answers()[0]!.attempts;
    expect(first!.request).toMatchObject({ body: sentBody(0) });
    expect(first!.request.bodyMissing).toBeUndefined();
    expect(second!.turn.status).toBe('complete');
    // Kept in this browser: read from the server once.
    await expect.poll(() => get(`request:${attemptId}`, db)).toEqual({ body: sentBody(0) });
  });

  it('is read by Regenerate too, into a new version', async () => {
    onServer.set(answers()[0]!.attempts[0]!.id, sentBody(0));
    app.stores.settings.getState().update({ temperature: 0.2 });
    await app.session.regenerate(conversation().id, answers()[0]!.id);
    expect(fetchImpl.mock.calls[1]![1]!.body).toBe(fetchImpl.mock.calls[0]![1]!.body);
    const [, version] = answers();
    expect(version?.attempts.map((a) => a.turn.status)).toEqual(['complete']);
  });
});
