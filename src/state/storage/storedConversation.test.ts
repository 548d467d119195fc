import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import type { Conversation } from '../domain/types.ts';
import { readConversationRecord } from '../formats/records.ts';
import { recordOf, settleInterrupted } from './storedConversation.ts';

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

describe('a stored turn', () => {
  const withTurn = (turn: Parameters<typeof answerMessage>[1]): Conversation => ({
    id: 'conv_1',
    title: 't',
    createdAt: 1,
    updatedAt: 1,
    messages: [answerMessage('msg_1', turn)],
  });
  const storedTurn = (conversation: Conversation) => {
    const message = recordOf(conversation).messages[0]!;
    return message.role === 'assistant' ? message.attempts[0]!.turn : null;
  };
  const readBack = (conversation: Conversation) => {
    const read = readConversationRecord('conversation:conv_1', structuredClone(recordOf(conversation)));
    const message = read.kind === 'conversation' ? read.conversation.messages[0] : null;
    return message?.role === 'assistant' ? message.attempts[0]!.turn : null;
  };
  const answered = withTurn({
    status: 'complete',
    text: 'Hello there',
    reasoning: 'First\n\nSecond',
    parts: [
      { kind: 'reasoning', key: 'r0', text: 'First' },
      { kind: 'reasoning', key: 'r1', text: 'Second' },
      { kind: 'text', key: '0', text: 'Hello there' },
    ],
  });

  it('holds each text once: the flat strings its parts make are left out', () => {
    const turn = storedTurn(answered);
    expect(turn).not.toHaveProperty('text');
    expect(turn).not.toHaveProperty('reasoning');
    expect(turn).not.toHaveProperty('refusal');
  });
  it('reads them back from the parts', () =>
    expect(readBack(answered)).toMatchObject({
      text: 'Hello there',
      reasoning: 'First\n\nSecond',
      refusal: '',
    }));
  it("reads the parts' text where an earlier version wrote the missing text back empty", () => {
    const written = structuredClone(recordOf(answered));
    const message = written.messages[0]!;
    if (message.role === 'assistant') Object.assign(message.attempts[0]!.turn, { text: '', reasoning: '' });
    const read = readConversationRecord('conversation:conv_1', written);
    expect(read).toMatchObject({
      conversation: {
        messages: [{ attempts: [{ turn: { text: 'Hello there', reasoning: 'First\n\nSecond' } }] }],
      },
    });
  });
  it('keeps a flat string its parts do not make (a record from before parts)', () => {
    const flatOnly = withTurn({ status: 'complete', text: 'Only flat', refusal: 'No' });
    expect(storedTurn(flatOnly)).toMatchObject({ text: 'Only flat', refusal: 'No' });
    expect(readBack(flatOnly)).toMatchObject({ text: 'Only flat', refusal: 'No', reasoning: '' });
  });
});
