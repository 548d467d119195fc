import { describe, expect, it } from 'vitest';
import type { Usage } from '../../core/index.ts';
import { answerMessage } from '../../testing/builders.ts';
import { costOfAnswer, costOfAttempt, costOfConversation, pricesFor, readOwnPrices } from './cost.ts';
import type { AssistantMessage, Conversation } from './types.ts';

const prices = {
  'sim-echo': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6 },
  'gpt-4o-2024-08-06': { input_cost_per_token: 2e-6, output_cost_per_token: 8e-6 },
};
const usage = (input: number, output: number): Usage => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
});

describe('readOwnPrices: the Settings text', () => {
  it.each([
    ['', 'empty'],
    ['  \n', 'empty'],
    ['{"a": {"input_cost_per_token": 1e-6}}', 'read'],
    ['{"a": ', 'not-json'],
    ['[1]', 'not-a-table'],
  ])('%j is %s', (text, kind) => {
    expect(readOwnPrices(text).kind).toBe(kind);
  });

  it('names what it left out', () => {
    const read = readOwnPrices('{"a": {"output_cost_per_token": "x"}, "b": {"input_cost_per_token": 1}}');
    expect(read).toMatchObject({
      kind: 'read',
      table: { b: { input_cost_per_token: 1 } },
      skipped: [{ model: 'a', field: 'output_cost_per_token', value: '"x"' }],
    });
  });
});

describe('pricesFor: the server’s table with the person’s over it', () => {
  it.each<[string, string, number | undefined]>([
    ['nothing of their own', '', 1e-6],
    ['one price changed', '{"sim-echo": {"input_cost_per_token": 5e-6}}', 5e-6],
    ['text that is no table changes nothing', '{"sim-echo": ', 1e-6],
  ])('%s', (_, own, input) => {
    expect(pricesFor(prices, own)['sim-echo']?.input_cost_per_token).toBe(input);
    expect(pricesFor(prices, own)['sim-echo']?.output_cost_per_token).toBe(4e-6);
  });
});

describe('costOfAttempt: which attempts bill what', () => {
  const attempt = (turn: Parameters<typeof answerMessage>[1], trace = { headersAt: 10 }) =>
    answerMessage('m', turn, trace).attempts[0]!;
  it.each<[string, ReturnType<typeof attempt>, string]>([
    ['complete with usage', attempt({ status: 'complete', usage: usage(10, 5) }), 'priced'],
    [
      'interrupted, with the usage it stated',
      attempt({ status: 'interrupted', usage: usage(10, 2) }),
      'priced',
    ],
    ['cut without usage', attempt({ status: 'interrupted', usage: null }), 'unmetered'],
    ['still streaming', attempt({ status: 'streaming', usage: null }), 'none'],
    ['never answered', attempt({ status: 'error', usage: null }, { headersAt: null } as never), 'none'],
    [
      'refused with an HTTP error',
      { ...attempt({ status: 'error', usage: null }), httpError: { status: 429 } as never },
      'none',
    ],
  ])('%s: %s', (_, a, kind) => {
    expect(costOfAttempt(a, 'sim-echo', prices).kind).toBe(kind);
  });

  it('priced as the model asked for, else as the gateway named it, else unpriced', () => {
    const named = attempt({ status: 'complete', usage: usage(1000, 0), model: 'gpt-4o-2024-08-06' });
    expect(costOfAttempt(named, 'sim-echo', prices)).toMatchObject({ dollars: 1000 * 1e-6 });
    expect(costOfAttempt(named, 'gpt-4o', prices)).toMatchObject({ dollars: 1000 * 2e-6 });
    expect(costOfAttempt(named, 'other', {})).toEqual({ kind: 'unpriced' });
  });
});

describe('an answer and a conversation: every attempt summed', () => {
  const message = (id: string, ...turns: Usage[]): AssistantMessage => {
    const base = answerMessage(id, {});
    return {
      ...base,
      attempts: turns.map((u, i) => ({
        ...base.attempts[0]!,
        id: `${id}_${i}`,
        turn: { ...base.attempts[0]!.turn, status: 'complete', usage: u },
        trace: { ...base.attempts[0]!.trace, headersAt: 5 },
      })),
    };
  };

  it('an answer of two attempts costs both', () => {
    const { sum, attempts } = costOfAnswer(message('a', usage(1000, 100), usage(1000, 200)), prices);
    expect(attempts.map((a) => a.cost.kind)).toEqual(['priced', 'priced']);
    expect(sum.attempts).toBe(2);
    expect(sum.dollars).toBeCloseTo(2000e-6 + 300 * 4e-6, 12);
  });

  it('a conversation costs every answer, user messages nothing', () => {
    const conversation: Conversation = {
      id: 'c',
      title: '',
      createdAt: 0,
      updatedAt: 0,
      messages: [
        { id: 'u', role: 'user', text: 'hi', createdAt: 0 },
        message('a', usage(1000, 0)),
        message('b', usage(0, 1000), usage(0, 1000)),
      ],
    };
    const sum = costOfConversation(conversation, prices);
    expect(sum).toMatchObject({ attempts: 3, known: 3 });
    expect(sum.dollars).toBeCloseTo(1000e-6 + 2000 * 4e-6, 12);
  });
});
