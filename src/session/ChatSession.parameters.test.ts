/**
 * Each conversation sends its own sampling parameters: the defaults in Settings when it started (or those
 * set for it before its first message), kept whatever the defaults become; each protocol gets those it
 * takes, and a value out of its range is never sent.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantMessage } from '../state/domain/types.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let bodies: Record<string, unknown>[];

const answers: Record<string, string> = {
  chat: 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
  messages:
    'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":0}}}\n\n' +
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
};

beforeEach(() => {
  app = createTestApp();
  bodies = [];
  app.setFetch(
    vi.fn<typeof fetch>(async (url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      const body = String(url).endsWith('/messages') ? answers.messages : answers.chat;
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
});

const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;

describe('parameters per conversation', () => {
  it('a new chat starts with the defaults in Settings, and keeps them when they change', async () => {
    app.stores.settings.getState().update({ temperature: 0.4, maxOutputTokens: 300 });
    await app.session.send('Hello', 'chat');
    expect(active().parameters).toEqual({ temperature: 0.4, maxOutputTokens: 300 });
    expect(bodies.at(-1)).toMatchObject({ temperature: 0.4, max_completion_tokens: 300 });

    app.stores.settings.getState().update({ temperature: 1.5, maxOutputTokens: null });
    await app.session.send('Again', 'chat');
    expect(bodies.at(-1)).toMatchObject({ temperature: 0.4, max_completion_tokens: 300 });
  });

  it('sends those set for a chat before its first message, in the protocol’s own fields', async () => {
    const id = conversations().newConversation();
    conversations().setParameters(id, { topP: 0.8, seed: 7, stop: ['END'], presencePenalty: 1 });
    await app.session.send('Hello', 'chat');
    expect(bodies.at(-1)).toMatchObject({ top_p: 0.8, seed: 7, stop: ['END'], presence_penalty: 1 });
    expect(bodies.at(-1)).not.toHaveProperty('temperature');

    await app.session.send('And on Anthropic?', 'messages');
    expect(bodies.at(-1)).toMatchObject({ top_p: 0.8, stop_sequences: ['END'] });
    for (const field of ['seed', 'presence_penalty', 'stop']) expect(bodies.at(-1)).not.toHaveProperty(field);
  });

  it('a value the protocol would refuse is not sent: the answer names it', async () => {
    const id = conversations().newConversation();
    conversations().setParameters(id, { temperature: 1.5 });
    await app.session.send('Hello', 'chat');
    expect(bodies).toHaveLength(1);

    // Anthropic takes a temperature up to 1 only.
    await app.session.send('Hello again', 'messages');
    expect(bodies).toHaveLength(1);
    const answer = active().messages.at(-1) as AssistantMessage;
    expect(answer.attempts[0]!.turn.error).toEqual({
      code: 'not_sent',
      message: 'parameter_out_of_range',
      values: { api: 'Anthropic Messages', name: 'temperature', value: 1.5, min: 0, max: 1, whole: 'no' },
    });

    conversations().setParameters(id, { temperature: 1 });
    await app.session.retry(id, answer.id);
    expect(bodies).toHaveLength(2);
    expect(bodies.at(-1)).toMatchObject({ temperature: 1 });
  });
});
