import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import type { Conversation } from '../domain/types.ts';
import { readConversationRecord } from '../formats/records.ts';
import { settleInterrupted } from './storedConversation.ts';

function streaming(relayed: boolean): Conversation {
  const message = answerMessage('msg_1', { status: 'streaming', text: 'Half' });
  const attempt = { ...message.attempts[0]!, ...(relayed && { relayed: true as const }) };
  return {
    id: 'conv_1',
    title: 't',
    createdAt: 1,
    updatedAt: 1,
    messages: [{ ...message, attempts: [attempt] }],
  };
}

describe('settleInterrupted', () => {
  it('calls an answer the page was reading itself interrupted by the reload', () =>
    expect(settleInterrupted(streaming(false)).messages[0]).toMatchObject({
      attempts: [{ turn: { status: 'interrupted', text: 'Half', error: { code: 'page_reloaded' } } }],
    }));
  it('leaves an answer the server runs streaming: the session picks it up', () => {
    const running = streaming(true);
    expect(settleInterrupted(running)).toBe(running);
  });
});

describe('a stored attempt the server runs', () => {
  it('reads back as one', () => {
    const read = readConversationRecord('conversation:conv_1', streaming(true));
    expect(read).toMatchObject({ conversation: { messages: [{ attempts: [{ relayed: true }] }] } });
  });
});
