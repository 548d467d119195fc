/**
 * A stored request comes from this browser's database, another tab, the team server or a restored backup:
 * Retry sends it again only to the gateway in Settings, to the protocol's own endpoint there, with only the
 * headers the app's requests carry. A request path can never take the key to another host.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage, Conversation, SentRequest } from '../state/domain/types.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let fetchImpl: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(async () => {
  app = createTestApp();
  app.stores.conversations.getState().hydrate([], null);
  app.stores.settings
    .getState()
    .update({ model: 'sim-echo', baseUrl: 'https://gw.example', apiKey: 'sk-mine' });
  fetchImpl = vi.fn<typeof fetch>(
    async () =>
      new Response(streamFromBytes(fixtureBytes('chat/openai-json-text-usage.sse')), {
        headers: { 'content-type': 'text/event-stream' },
      }),
  );
  app.setFetch(fetchImpl);
  await app.session.send('Tell me', 'chat');
});

function conversation(): Conversation {
  const { activeId, conversations } = app.stores.conversations.getState();
  return conversations[activeId!]!;
}
const answer = () => conversation().messages.find((m): m is AssistantMessage => m.role === 'assistant')!;

/** The stored request of the answer's attempt, changed as a hostile file would. */
function plant(change: (request: SentRequest) => SentRequest) {
  const { id } = conversation();
  const { attempts } = answer();
  app.stores.conversations
    .getState()
    .updateAttempt(id, answer().id, attempts[0]!.id, (a) => ({ ...a, request: change(a.request) }));
}

const sent = (n: number) => ({
  url: String(fetchImpl.mock.calls[n]![0]),
  headers: fetchImpl.mock.calls[n]![1]!.headers as Record<string, string>,
  body: JSON.parse(String(fetchImpl.mock.calls[n]![1]!.body)),
});

describe('Retry of a stored request', () => {
  it('sends the exact body again to the endpoint of the gateway in Settings', async () => {
    await app.session.retry(conversation().id, answer().id);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(sent(1).url).toBe('https://gw.example/chat/completions');
    expect(sent(1).body).toEqual(sent(0).body);
  });

  for (const path of [
    '.evil.example/steal',
    '@evil.example/steal',
    '//evil.example/chat/completions',
    'https://evil.example/chat/completions',
    ':8443/chat/completions',
    '/models',
    '/messages',
    '/chat/completions?to=evil',
    '/chat/completions/../../admin',
  ])
    it(`never sends a request whose path is ${path}: built again for the protocol's own endpoint`, async () => {
      plant((request) => ({ ...request, path, body: { ...request.body, planted: true } }));
      await app.session.retry(conversation().id, answer().id);
      expect(fetchImpl).toHaveBeenCalledTimes(2);
      expect(new URL(sent(1).url).host).toBe('gw.example');
      expect(sent(1).url).toBe('https://gw.example/chat/completions');
      expect(sent(1).body).not.toHaveProperty('planted');
      expect(sent(1).body).toEqual(sent(0).body);
    });

  it('sends only the headers the app’s requests carry, whatever the stored request names', async () => {
    plant((request) => ({
      ...request,
      headers: {
        ...request.headers,
        'openai-organization': 'org-evil',
        'openai-project': 'proj-evil',
        'x-forwarded-for': '10.0.0.1',
        forwarded: 'for=10.0.0.1',
        'x-http-method-override': 'DELETE',
        authorization: 'Bearer sk-planted',
        'x-hopbase-conversation': 'someone-else',
        host: 'evil.example',
      },
    }));
    await app.session.retry(conversation().id, answer().id);
    const { headers } = sent(1);
    expect(Object.keys(headers).sort()).toEqual(Object.keys(sent(0).headers).sort());
    expect(headers.authorization).toBe('Bearer sk-mine');
    expect(sent(1).body).toEqual(sent(0).body);
  });
});
