import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import { conversationName, storedTitle } from './conversationTitle.ts';
import type { Conversation } from './types.ts';

const conversation = (title: string, messages: Conversation['messages'] = []): Conversation => ({
  id: 'c',
  title,
  createdAt: 1,
  updatedAt: 1,
  messages,
});

describe('what a conversation is called', () => {
  it('its title when it has one', () => {
    expect(conversationName(conversation(' Plans '))).toEqual({ kind: 'titled', title: 'Plans' });
  });

  it('untitled when it has none yet, for the UI to word', () => {
    expect(conversationName(conversation(''))).toEqual({ kind: 'untitled' });
  });

  it('named after the recording it replays', () => {
    const replayed = { ...answerMessage('x', {}), source: { kind: 'replay' as const, file: 'a.sse' } };
    expect(conversationName(conversation('', [replayed]))).toEqual({ kind: 'replay', file: 'a.sse' });
  });

  it('the English words older records stored for "no title" are no title', () => {
    expect(storedTitle('New chat')).toBe('');
    expect(storedTitle('New chat plans')).toBe('New chat plans');
  });
});
