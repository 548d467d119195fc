/**
 * An answer whose request body could not be read back from storage (`SentRequest.bodyMissing`, set by the
 * load): Retry and Regenerate send nothing, never an empty body, and say why in an attempt of their own.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adviseFailure } from '../core/index.ts';
import { fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage, Conversation } from '../state/types.ts';
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

describe('a request whose body is not stored', () => {
  it('is not sent again by Retry: the answer gets a failed attempt saying so, not retried on its own', async () => {
    await app.session.retry(conversation().id, answers()[0]!.id);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const attempts = answers()[0]!.attempts;
    expect(attempts).toHaveLength(2);
    const failed = attempts[1]!;
    expect(failed.turn).toMatchObject({ status: 'error', error: { code: 'request_missing' } });
    expect(adviseFailure(failed.turn, failed.httpError)).toEqual({
      code: 'request_missing',
      retryable: false,
    });
  });

  it('is not sent by Regenerate either: the new version says why', async () => {
    await app.session.regenerate(conversation().id, answers()[0]!.id);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const [, version] = answers();
    expect(version?.attempts.map((a) => a.turn.error?.code)).toEqual(['request_missing']);
  });
});
