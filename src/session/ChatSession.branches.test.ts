/**
 * Versions through the session: an edit and a regenerated answer start branches of their own, each request
 * sends exactly the branch shown (tool calls and results included), and nothing is lost on the way.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { shownBranch } from '../state/domain/branches.ts';
import type { AssistantMessage, ChatMessage } from '../state/domain/types.ts';
import { conversationUsage } from '../state/stores/conversationStore.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let bodies: { messages: unknown[] }[];

/** A Chat Completions answer "answer <n>" (the nth request), billed 10 in and 2 out. */
function answer(n: number): string {
  return (
    `data: {"choices":[{"index":0,"delta":{"content":"answer ${n}"},"finish_reason":"stop"}]}\n\n` +
    'data: {"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}\n\n' +
    'data: [DONE]\n\n'
  );
}

/** Anthropic Messages' shortest complete answer: "ok". */
const messagesAnswer =
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}\n\n' +
  'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\ndata: {"type":"message_stop"}\n\n';

/** A gateway that answers each request with the next numbered answer, keeping the bodies it was sent. */
function numbered(): typeof fetch {
  return vi.fn<typeof fetch>(async (url, init) => {
    bodies.push(JSON.parse(String(init?.body)) as { messages: unknown[] });
    const body = String(url).endsWith('/messages') ? messagesAnswer : answer(bodies.length);
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
}

beforeEach(() => {
  app = createTestApp();
  bodies = [];
  app.setFetch(numbered());
});

const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;
/** The branch shown, as a person reads it: the person's words and the answers' text. */
const shown = () => shownBranch(active()).map(words);
const byText = (text: string) => active().messages.find((m) => words(m) === text)!;

function words(m: ChatMessage): string {
  if (m.role === 'user') return m.text;
  if (m.role === 'tool') return `result ${m.content}`;
  return m.attempts.at(-1)?.turn.text ?? '';
}

const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });

describe('edit', () => {
  it('answers the edited message on a branch of its own, sending only that branch', async () => {
    await app.session.send('Capital of France?', 'chat');
    await app.session.send('And of Spain?', 'chat');
    await app.session.edit(active().id, byText('Capital of France?').id, 'Capital of Italy?', 'chat');

    expect(bodies[2]?.messages).toEqual([user('Capital of Italy?')]);
    expect(shown()).toEqual(['Capital of Italy?', 'answer 3']);
    // The earlier branch is all still there.
    expect(active().messages.map(words)).toEqual([
      'Capital of France?',
      'answer 1',
      'And of Spain?',
      'answer 2',
      'Capital of Italy?',
      'answer 3',
    ]);
  });

  it('continues the branch chosen: the next request sends it, and nothing of the others', async () => {
    await app.session.send('Capital of France?', 'chat');
    await app.session.send('And of Spain?', 'chat');
    await app.session.edit(active().id, byText('And of Spain?').id, 'And of Portugal?', 'chat');
    conversations().selectVersion(active().id, byText('And of Spain?').id);
    expect(shown()).toEqual(['Capital of France?', 'answer 1', 'And of Spain?', 'answer 2']);

    await app.session.send('And of Greece?', 'chat');
    expect(bodies[3]?.messages).toEqual([
      user('Capital of France?'),
      assistant('answer 1'),
      user('And of Spain?'),
      assistant('answer 2'),
      user('And of Greece?'),
    ]);
    expect(shown().at(-1)).toBe('answer 4');
  });
});

describe('regenerate', () => {
  it('sends the same request again into a new version beside the answer; both stay, both billed', async () => {
    await app.session.send('Tell me a joke', 'chat');
    const first = byText('answer 1') as AssistantMessage;
    await app.session.regenerate(active().id, first.id);

    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(shown()).toEqual(['Tell me a joke', 'answer 2']);
    const again = byText('answer 2') as AssistantMessage;
    expect(again).toMatchObject({ parentId: first.parentId, protocol: 'chat', model: first.model });
    expect(again.attempts[0]!.request).toEqual(first.attempts[0]!.request);
    // Not a new attempt of the first answer: that one is as it was.
    expect((byText('answer 1') as AssistantMessage).attempts).toHaveLength(1);
    expect(conversationUsage(active())).toEqual({ input: 20, output: 4, total: 24 });

    conversations().selectVersion(active().id, first.id);
    expect(shown()).toEqual(['Tell me a joke', 'answer 1']);
  });

  it('continues a tool loop from the version shown, its calls and results in the history', async () => {
    const toolCall =
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n';
    app.setFetch(
      vi.fn<typeof fetch>(async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)) as { messages: unknown[] });
        const body = bodies.length === 1 ? answer(1) : bodies.length === 2 ? toolCall : answer(3);
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    await app.session.send('Weather?', 'chat');
    await app.session.regenerate(active().id, byText('answer 1').id);
    await app.session.submitToolResult(active().id, 'call_1', 'get_weather', 'Sunny', 'chat');

    expect(bodies[2]?.messages).toEqual([
      user('Weather?'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
    ]);
    expect(shown()).toEqual(['Weather?', '', 'result Sunny', 'answer 3']);
  });
});

describe('while an answer streams', () => {
  it('neither edits nor regenerates in that conversation', async () => {
    await app.session.send('First', 'chat');
    const first = byText('answer 1');
    let opened = 0;
    app.setFetch(
      vi.fn<typeof fetch>(async () => {
        opened++;
        // An answer that never ends until it is stopped.
        const body = new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => {}) });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const streaming = app.session.send('Second', 'chat');
    const before = active().messages;

    await app.session.edit(active().id, byText('First').id, 'Edited', 'chat');
    await app.session.regenerate(active().id, first.id);
    expect(active().messages).toBe(before);
    expect(opened).toBe(1);

    app.session.stop(before.at(-1)!.id);
    await streaming;
    app.setFetch(numbered());
    await app.session.edit(active().id, byText('First').id, 'Edited', 'chat');
    expect(shown()).toEqual(['Edited', 'answer 2']);
  });
});

describe('a request never sent', () => {
  it('is built again from the branch before it when retried', async () => {
    await app.session.send('Capital of France?', 'chat');
    // Chosen in the toolbar: the conversation keeps it.
    const choose = (reasoning: 'high' | 'off') =>
      app.stores.conversations.getState().setChoices(active().id, { ...active().choices!, reasoning });
    choose('high');
    app.stores.conversations.getState().setParameters(active().id, { maxOutputTokens: 4000 });
    await app.session.edit(
      active().id,
      byText('Capital of France?').id,
      'Think: capital of Italy?',
      'messages',
    );
    const notSent = shownBranch(active()).at(-1) as AssistantMessage;
    expect(notSent.attempts[0]!.turn.error?.code).toBe('not_sent');

    choose('off');
    await app.session.retry(active().id, notSent.id);
    expect(bodies[1]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Think: capital of Italy?' }] },
    ]);
    expect(shown()).toEqual(['Think: capital of Italy?', 'ok']);
  });
});
