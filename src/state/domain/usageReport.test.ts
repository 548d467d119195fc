import { describe, expect, it } from 'vitest';
import type { Protocol, Usage } from '../../core/index.ts';
import { answerMessage } from '../../testing/builders.ts';
import type { AssistantMessage, Conversation } from './types.ts';
import {
  attemptEntries,
  type ServerUsageSum,
  serverEntries,
  type UsageGrouping,
  usageReport,
} from './usageReport.ts';

const prices = {
  'sim-echo': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6, cache_read_input_token_cost: 1e-7 },
  'sim-reasoning': {
    input_cost_per_token: 2e-6,
    output_cost_per_token: 8e-6,
    output_cost_per_reasoning_token: 1e-5,
  },
};
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const usage = (input: number, output: number, more: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  ...more,
});

/** An answer of `model` on `protocol` whose attempts started at `startedAt` with these usages. */
function answer(
  id: string,
  model: string,
  protocol: Protocol,
  ...attempts: { at: number; usage: Usage | null; status?: 'complete' | 'interrupted' | 'error' }[]
): AssistantMessage {
  const base = answerMessage(id, {});
  const first = base.attempts[0]!;
  return {
    ...base,
    model,
    protocol,
    attempts: attempts.map((a, i) => ({
      ...first,
      id: `${id}_${i}`,
      startedAt: a.at,
      turn: { ...first.turn, status: a.status ?? 'complete', usage: a.usage },
      trace: { ...first.trace, headersAt: 5 },
    })),
  };
}

const conversation = (id: string, ...messages: AssistantMessage[]): Conversation => ({
  id,
  title: '',
  createdAt: 0,
  updatedAt: 0,
  messages: [{ id: `${id}_u`, role: 'user', text: 'hi', createdAt: 0 }, ...messages],
});

const conversations = [
  conversation(
    'a',
    answer('a1', 'sim-echo', 'chat', { at: 0, usage: usage(1000, 100, { cachedTokens: 400 }) }),
    // Interrupted, then again: both billed.
    answer(
      'a2',
      'sim-reasoning',
      'responses',
      { at: DAY, usage: usage(10, 5), status: 'interrupted' },
      { at: DAY + 1, usage: usage(10, 50, { reasoningTokens: 20 }) },
    ),
  ),
  conversation(
    'b',
    answer('b1', 'sim-unpriced', 'messages', { at: DAY, usage: usage(7, 3) }),
    // Cut before any usage: no tokens, a cost nobody knows.
    answer('b2', 'sim-echo', 'messages', { at: 2 * DAY, usage: null, status: 'interrupted' }),
  ),
];
const entries = attemptEntries(conversations, prices, dayOf);

describe('attemptEntries: every attempt, failed ones too', () => {
  it('one entry per attempt, on its own day, model and protocol', () => {
    expect(entries.map((e) => [e.day, e.model, e.protocol, e.inputTokens, e.outputTokens])).toEqual([
      ['1970-01-01', 'sim-echo', 'chat', 1000, 100],
      ['1970-01-02', 'sim-reasoning', 'responses', 10, 5],
      ['1970-01-02', 'sim-reasoning', 'responses', 10, 50],
      ['1970-01-02', 'sim-unpriced', 'messages', 7, 3],
      ['1970-01-03', 'sim-echo', 'messages', 0, 0],
    ]);
    expect(entries.map((e) => e.cost.dollars)).toEqual([
      600 * 1e-6 + 400 * 1e-7 + 100 * 4e-6,
      10 * 2e-6 + 5 * 8e-6,
      10 * 2e-6 + 30 * 8e-6 + 20 * 1e-5,
      0,
      0,
    ]);
    expect(entries.map((e) => [e.cost.known, e.cost.unpriced, e.cost.unmetered])).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });
});

describe('usageReport: summed per day, model or protocol', () => {
  it.each<[UsageGrouping, [string, number, number, number, number][]]>([
    [
      'day',
      [
        ['1970-01-01', 1000, 400, 100, 0],
        ['1970-01-02', 27, 0, 58, 20],
        ['1970-01-03', 0, 0, 0, 0],
      ],
    ],
    [
      'model',
      [
        ['sim-echo', 1000, 400, 100, 0],
        ['sim-reasoning', 20, 0, 55, 20],
        ['sim-unpriced', 7, 0, 3, 0],
      ],
    ],
    [
      'protocol',
      [
        ['chat', 1000, 400, 100, 0],
        ['messages', 7, 0, 3, 0],
        ['responses', 20, 0, 55, 20],
      ],
    ],
  ])('per %s: in, cached, out, reasoning', (grouping, expected) => {
    const report = usageReport(entries, grouping);
    expect(report.grouping).toBe(grouping);
    expect(
      report.rows.map((r) => [r.key, r.inputTokens, r.cachedTokens, r.outputTokens, r.reasoningTokens]),
    ).toEqual(expected);
  });

  it.each(['day', 'model', 'protocol'] as const)('per %s: the total is the sum of the rows', (grouping) => {
    const { rows, total } = usageReport(entries, grouping);
    expect(total).toMatchObject({
      inputTokens: 1027,
      cachedTokens: 400,
      outputTokens: 158,
      reasoningTokens: 20,
    });
    expect(total.cost).toMatchObject({ attempts: 5, known: 3, unpriced: 1, unmetered: 1 });
    expect(total.cost.dollars).toBeCloseTo(
      rows.reduce((sum, r) => sum + r.cost.dollars, 0),
      15,
    );
  });

  it('the unpriced model’s row knows no dollars, and says so', () => {
    const row = usageReport(entries, 'model').rows.find((r) => r.key === 'sim-unpriced');
    expect(row?.cost).toMatchObject({ dollars: 0, known: 0, unpriced: 1 });
  });

  it('nothing: no rows, a total of nothing', () => {
    expect(usageReport([], 'day')).toMatchObject({
      rows: [],
      total: { inputTokens: 0, cost: { attempts: 0 } },
    });
  });
});

describe('serverEntries: the team server’s daily sums, priced by the table', () => {
  const sum = (model: string, more: Partial<ServerUsageSum> = {}): ServerUsageSum => ({
    day: '2026-03-04',
    model,
    protocol: 'chat',
    inputTokens: 1000,
    outputTokens: 100,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    ...more,
  });
  it.each<[string, ServerUsageSum, number | null]>([
    ['plain', sum('sim-echo'), 1000 * 1e-6 + 100 * 4e-6],
    ['cached within the input', sum('sim-echo', { cachedTokens: 1000 }), 1000 * 1e-7 + 100 * 4e-6],
    ['reasoning within the output', sum('sim-reasoning', { reasoningTokens: 100 }), 1000 * 2e-6 + 100 * 1e-5],
    ['a provider’s prefix', sum('openrouter/sim-echo'), 1000 * 1e-6 + 100 * 4e-6],
    ['no price', sum('sim-unpriced'), null],
  ])('%s', (_, row, dollars) => {
    const [entry] = serverEntries([row], prices);
    if (dollars === null) expect(entry?.cost).toMatchObject({ known: 0, unpriced: 1 });
    else expect(entry?.cost.dollars).toBeCloseTo(dollars, 15);
    expect(entry).toMatchObject({ day: row.day, model: row.model, inputTokens: 1000, outputTokens: 100 });
  });
});
