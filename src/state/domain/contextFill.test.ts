import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import { contextFill } from './contextFill.ts';
import type { Conversation } from './types.ts';

const conversation = (withAnswer: boolean, after = ''): Conversation => ({
  id: 'c',
  title: '',
  createdAt: 0,
  updatedAt: 0,
  systemPrompt: 'x'.repeat(40),
  messages: [
    { id: 'u1', role: 'user', text: 'y'.repeat(400), createdAt: 0 },
    ...(withAnswer
      ? [
          {
            ...answerMessage('a1', {
              status: 'complete',
              text: 'z'.repeat(800),
              usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000 },
            }),
            parentId: 'u1',
          },
        ]
      : []),
    ...(after ? [{ id: 'u2', role: 'user' as const, text: after, createdAt: 0, parentId: 'a1' }] : []),
  ],
});

describe('contextFill', () => {
  it.each<[string, Conversation | null, number, number | undefined, [number, number, string] | null]>([
    ['no window known: no gauge', conversation(true), 0, undefined, null],
    ['a new chat: the draft estimated', null, 400, 1000, [0, 100, 'ok']],
    [
      'before any answer: the system prompt and messages estimated',
      conversation(false),
      0,
      1000,
      [110, 110, 'ok'],
    ],
    ['after an answer: its prompt and output as counted', conversation(true), 0, 10_000, [1000, 1000, 'ok']],
    ['then what came after it, estimated', conversation(true, 'w'.repeat(40)), 0, 10_000, [1010, 1010, 'ok']],
    ['past 90%: near', conversation(true), 400, 1150, [1000, 1100, 'near']],
    ['exactly full still fits', conversation(true), 400, 1100, [1000, 1100, 'near']],
    ['past the window: over', conversation(true), 404, 1100, [1000, 1101, 'over']],
  ])('%s', (_, c, draft, window, expected) => {
    const fill = contextFill(c, draft, window);
    expect(fill && [fill.used, fill.next, fill.level]).toEqual(expected);
  });
});
