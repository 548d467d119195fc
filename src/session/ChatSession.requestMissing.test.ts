/**
 * An answer whose request body could not be read back from storage (`SentRequest.bodyMissing`, set by the
 * load): Retry and Regenerate never send an empty body; they build the request again from the conversation.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage, Conversation } from '../state/domain/types.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let fetchImpl: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(async () => {
  app = createTestApp();
  app.stores.settings.getState().update({ model: 'sim-echo' });
  fetchImpl = vi.fn<typeof fetch>(
    async () =>
      new Response(streamFromBytes(fixtureBytes('anthropic/text-padded.sse')), {
        headers: { 'content-type': 'text/event-stream' },
      }),
  );
  app.setFetch(fetchImpl);
  await app.session.send('Tell me', 'messages');
  // As a load leaves an attempt whose `request:` record is gone (or damaged).
  const { id } = conversation();
  const answer = answers()[0]!;
  app.stores.conversations.getState().updateAttempt(id, answer.id, answer.attempts[0]!.id, (a) => ({
    ...a,
    request: { ...a.request, body: {}, bodyMissing: 'missing' },
  }));
});

function conversation(): Conversation {
  const { activeId, conversations } = app.stores.conversations.getState();
  return conversations[activeId!]!;
}
const answers = () => conversation().messages.filter((m): m is AssistantMessage => m.role === 'assistant');

/** The body of the `n`th request sent (from 0). */
const sentBody = (n: number) => JSON.parse(String(fetchImpl.mock.calls[n]![1]!.body));

describe('a request whose body is not stored', () => {
  it('is built again from the conversation by Retry: the same request, never an empty body', async () => {
    await app.session.retry(conversation().id, answers()[0]!.id);
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
