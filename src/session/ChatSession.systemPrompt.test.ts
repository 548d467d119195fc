/**
 * Each conversation sends its own system prompt: the default in Settings when it started (or the one set
 * for it before its first message), kept whatever the default becomes.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let bodies: Record<string, unknown>[];

const answer =
  'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

beforeEach(() => {
  app = createTestApp();
  bodies = [];
  app.setFetch(
    vi.fn<typeof fetch>(async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(answer, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
});

const conversations = () => app.stores.conversations.getState();
const setDefault = (systemPrompt: string) => app.stores.settings.getState().update({ systemPrompt });
/** The system message of the last request (Chat Completions sends it first), or null. */
function lastSystem(): string | null {
  const messages = (bodies.at(-1)?.messages ?? []) as { role: string; content: string }[];
  const first = messages[0];
  return first?.role === 'system' ? first.content : null;
}

describe('system prompt per conversation', () => {
  it('a new chat starts with the default, and keeps it when the default changes', async () => {
    setDefault('Answer in haiku');
    await app.session.send('Hello', 'chat');
    const id = conversations().activeId!;
    expect(conversations().conversations[id]?.systemPrompt).toBe('Answer in haiku');
    expect(lastSystem()).toBe('Answer in haiku');

    setDefault('Answer in limericks');
    await app.session.send('Again', 'chat');
    expect(lastSystem()).toBe('Answer in haiku');
  });

  it('two conversations with different prompts each send their own', async () => {
    setDefault('First');
    await app.session.send('One', 'chat');
    const first = conversations().activeId!;
    setDefault('Second');
    conversations().newConversation();
    await app.session.send('Two', 'chat');
    expect(lastSystem()).toBe('Second');

    conversations().selectConversation(first);
    await app.session.send('One more', 'chat');
    expect(lastSystem()).toBe('First');
  });

  it('a prompt set for a new chat before its first message is the one it sends', async () => {
    setDefault('Default');
    const id = conversations().newConversation();
    conversations().setSystemPrompt(id, 'Only for this chat');
    await app.session.send('Hello', 'chat');
    expect(lastSystem()).toBe('Only for this chat');
    // The default stays what it was, for the next new chat.
    expect(app.stores.settings.getState().settings.systemPrompt).toBe('Default');
  });

  it('a prompt changed for a conversation is sent from its next request on; an empty one sends none', async () => {
    await app.session.send('Hello', 'chat');
    const id = conversations().activeId!;
    conversations().setSystemPrompt(id, 'Be brief');
    await app.session.send('Again', 'chat');
    expect(lastSystem()).toBe('Be brief');
    conversations().setSystemPrompt(id, '');
    await app.session.send('And again', 'chat');
    expect(lastSystem()).toBeNull();
  });

  it('a conversation stored before prompts were remembered takes the default, then keeps it', async () => {
    conversations().hydrate(
      [
        {
          id: 'old',
          title: 'Old',
          createdAt: 1,
          updatedAt: 1,
          messages: [{ id: 'u1', role: 'user', text: 'Hi', createdAt: 1 }],
        },
      ],
      'old',
    );
    setDefault('Now the default');
    await app.session.send('Still there?', 'chat');
    expect(lastSystem()).toBe('Now the default');
    expect(conversations().conversations.old?.systemPrompt).toBe('Now the default');
  });

  it('an answer never sent is built again with its conversation’s prompt, not the default of now', async () => {
    // Thinking with a temperature: Anthropic would refuse it, so it is not sent.
    setDefault('Answer in haiku');
    app.stores.settings.getState().update({ reasoning: 'low', temperature: 0.5, model: 'claude' });
    await app.session.send('Hello', 'messages');
    expect(bodies).toHaveLength(0);
    const conversation = conversations().conversations[conversations().activeId!]!;
    const answerId = conversation.messages.at(-1)!.id;

    app.stores.settings.getState().update({ systemPrompt: 'Answer in limericks' });
    conversations().setParameters(conversation.id, {});
    await app.session.retry(conversation.id, answerId);
    expect(bodies.at(-1)?.system).toBe('Answer in haiku');
  });
});
