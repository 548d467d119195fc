/**
 * Cost arithmetic per protocol: each protocol's own usage on the wire, read by `readTurn` as the app reads
 * it, priced with one table. Chat Completions and Responses count cached tokens inside the prompt and
 * reasoning inside the output; Anthropic Messages counts cache reads and writes beside `input_tokens`.
 * Getting either backwards double-bills or under-bills, which these cases would show.
 */
import { describe, expect, it } from 'vitest';
import { attemptCost, costCertainty, joinCosts, sumCosts } from './cost.ts';
import type { ModelPrice } from './prices.ts';
import { readTurn } from './readTurn.ts';
import type { Protocol, Usage } from './turn.ts';

// Round figures per million, so that expected dollars can be read off the table.
const M = 1e-6;
const price: ModelPrice = {
  input_cost_per_token: 3 * M,
  output_cost_per_token: 15 * M,
  cache_read_input_token_cost: 0.3 * M,
  cache_creation_input_token_cost: 3.75 * M,
  cache_creation_input_token_cost_above_1hr: 6 * M,
  input_cost_per_token_above_200k_tokens: 6 * M,
  output_cost_per_token_above_200k_tokens: 22.5 * M,
  cache_read_input_token_cost_above_200k_tokens: 0.6 * M,
  cache_creation_input_token_cost_above_200k_tokens: 7.5 * M,
};

function bodyOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

const sse = (events: [string, unknown][]) =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');

/** A complete stream of `protocol` saying "Hi" and reporting `usage` as that protocol does. */
function streamWith(protocol: Protocol, usage: Record<string, unknown>): string {
  switch (protocol) {
    case 'chat':
      return `${[
        { id: 'c', model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] },
        { id: 'c', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        { id: 'c', model: 'm', choices: [], usage },
      ]
        .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
        .join('')}data: [DONE]\n\n`;
    case 'responses': {
      const response = { id: 'r', model: 'm', status: 'completed', output: [], usage };
      return sse([
        ['response.created', { type: 'response.created', response: { id: 'r', model: 'm' } }],
        ['response.completed', { type: 'response.completed', response }],
      ]);
    }
    case 'messages': {
      const { output_tokens, ...start } = usage;
      return sse([
        [
          'message_start',
          { type: 'message_start', message: { id: 'msg', model: 'm', content: [], usage: start } },
        ],
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text' } }],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens } },
        ],
        ['message_stop', { type: 'message_stop' }],
      ]);
    }
  }
}

async function usageOf(protocol: Protocol, wire: Record<string, unknown>): Promise<Usage> {
  const turn = await readTurn(protocol, bodyOf(streamWith(protocol, wire)));
  expect(turn.status).toBe('complete');
  if (!turn.usage) throw new Error('no usage');
  return turn.usage;
}

/** Dollars of a breakdown's lines: input, cached, cache writes (5 min, 1 h), output, reasoning. */
const bill = (input: number, cached: number, write: number, write1h: number, output: number, reasoning = 0) =>
  input * 3 * M +
  cached * 0.3 * M +
  write * 3.75 * M +
  write1h * 6 * M +
  output * 15 * M +
  reasoning * 15 * M;

describe('cost per protocol, from each protocol’s own usage', () => {
  // [case, protocol, wire usage, expected tokens per line: input, cached, write 5m, write 1h, output, reasoning]
  const cases: [
    string,
    Protocol,
    Record<string, unknown>,
    [number, number, number, number, number, number],
  ][] = [
    ['chat, plain', 'chat', { prompt_tokens: 1000, completion_tokens: 200 }, [1000, 0, 0, 0, 200, 0]],
    [
      'chat, cached tokens are part of prompt_tokens',
      'chat',
      { prompt_tokens: 1000, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 800 } },
      [200, 800, 0, 0, 200, 0],
    ],
    [
      'chat, reasoning tokens are part of completion_tokens',
      'chat',
      { prompt_tokens: 1000, completion_tokens: 200, completion_tokens_details: { reasoning_tokens: 150 } },
      [1000, 0, 0, 0, 50, 150],
    ],
    [
      'chat, cached and reasoning',
      'chat',
      {
        prompt_tokens: 1000,
        completion_tokens: 200,
        prompt_tokens_details: { cached_tokens: 1000 },
        completion_tokens_details: { reasoning_tokens: 200 },
      },
      [0, 1000, 0, 0, 0, 200],
    ],
    ['responses, plain', 'responses', { input_tokens: 1000, output_tokens: 200 }, [1000, 0, 0, 0, 200, 0]],
    [
      'responses, cached tokens are part of input_tokens',
      'responses',
      { input_tokens: 1000, output_tokens: 200, input_tokens_details: { cached_tokens: 600 } },
      [400, 600, 0, 0, 200, 0],
    ],
    [
      'responses, reasoning tokens are part of output_tokens',
      'responses',
      { input_tokens: 1000, output_tokens: 200, output_tokens_details: { reasoning_tokens: 120 } },
      [1000, 0, 0, 0, 80, 120],
    ],
    [
      'responses, cached and reasoning',
      'responses',
      {
        input_tokens: 1000,
        output_tokens: 200,
        input_tokens_details: { cached_tokens: 600 },
        output_tokens_details: { reasoning_tokens: 120 },
      },
      [400, 600, 0, 0, 80, 120],
    ],
    ['messages, plain', 'messages', { input_tokens: 1000, output_tokens: 200 }, [1000, 0, 0, 0, 200, 0]],
    [
      'messages, cache reads are apart from input_tokens',
      'messages',
      { input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 200 },
      [1000, 5000, 0, 0, 200, 0],
    ],
    [
      'messages, cache writes are apart from input_tokens',
      'messages',
      { input_tokens: 1000, cache_creation_input_tokens: 3000, output_tokens: 200 },
      [1000, 0, 3000, 0, 200, 0],
    ],
    [
      'messages, reads and writes',
      'messages',
      {
        input_tokens: 10,
        cache_read_input_tokens: 5000,
        cache_creation_input_tokens: 3000,
        output_tokens: 200,
      },
      [10, 5000, 3000, 0, 200, 0],
    ],
    [
      'messages, writes split into five minutes and one hour',
      'messages',
      {
        input_tokens: 10,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 3000,
        cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
        output_tokens: 200,
      },
      [10, 0, 1000, 2000, 200, 0],
    ],
    [
      'messages, only the split given',
      'messages',
      {
        input_tokens: 10,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2000 },
        output_tokens: 200,
      },
      [10, 0, 0, 2000, 200, 0],
    ],
  ];

  it.each(cases)('%s', async (_, protocol, wire, [input, cached, write, write1h, output, reasoning]) => {
    const cost = attemptCost(await usageOf(protocol, wire), price);
    if (cost.kind !== 'priced') throw new Error(cost.kind);
    const b = cost.breakdown;
    expect([
      b.input.tokens,
      b.cached.tokens,
      b.cacheWrite.tokens,
      b.cacheWrite1h.tokens,
      b.output.tokens,
      b.reasoning.tokens,
    ]).toEqual([input, cached, write, write1h, output, reasoning]);
    expect(cost.dollars).toBeCloseTo(bill(input, cached, write, write1h, output, reasoning), 12);
    expect(cost.longContext).toBe(false);
  });
});

describe('the gateway’s own cost', () => {
  it.each<[Protocol, Record<string, unknown>]>([
    ['chat', { prompt_tokens: 1000, completion_tokens: 200, cost: 0.0042 }],
    ['responses', { input_tokens: 1000, output_tokens: 200, cost: 0.0042 }],
    ['messages', { input_tokens: 1000, output_tokens: 200, cost: 0.0042 }],
  ])('%s: usage.cost wins over the table, which is kept beside it', async (protocol, wire) => {
    const cost = attemptCost(await usageOf(protocol, wire), price);
    expect(cost).toMatchObject({ kind: 'gateway', dollars: 0.0042 });
    if (cost.kind !== 'gateway') return;
    expect(cost.estimate?.dollars).toBeCloseTo(bill(1000, 0, 0, 0, 200), 12);
  });

  it('an unpriced model with the gateway’s figure still has one', async () => {
    const usage = await usageOf('chat', { prompt_tokens: 1, completion_tokens: 1, cost: 0 });
    expect(attemptCost(usage, null)).toEqual({ kind: 'gateway', dollars: 0, estimate: null });
  });

  it('a negative figure is no figure', async () => {
    const usage = await usageOf('chat', { prompt_tokens: 1000, completion_tokens: 200, cost: -1 });
    expect(attemptCost(usage, price).kind).toBe('priced');
  });
});

describe('tiers above 200,000 prompt tokens', () => {
  const u = (inputTokens: number, extra: Partial<Usage> = {}): Usage => ({
    inputTokens,
    outputTokens: 1000,
    totalTokens: inputTokens + 1000,
    ...extra,
  });
  it.each<[string, Usage, number, boolean]>([
    ['exactly 200,000: base prices', u(200_000), 200_000 * 3 * M + 1000 * 15 * M, false],
    ['200,001: the whole request at the tier', u(200_001), 200_001 * 6 * M + 1000 * 22.5 * M, true],
    [
      'cache reads and writes count toward the threshold, and take their own tier',
      u(250_000, { cachedTokens: 200_000, cacheWriteTokens: 40_000 }),
      10_000 * 6 * M + 200_000 * 0.6 * M + 40_000 * 7.5 * M + 1000 * 22.5 * M,
      true,
    ],
    [
      'a one-hour write without a tier price of its own takes the base one-hour price',
      u(250_000, { cacheWriteTokens: 50_000, cacheWrite1hTokens: 50_000 }),
      200_000 * 6 * M + 50_000 * 6 * M + 1000 * 22.5 * M,
      true,
    ],
  ])('%s', (_, usage, dollars, longContext) => {
    const cost = attemptCost(usage, price);
    expect(cost).toMatchObject({ kind: 'priced', longContext });
    if (cost.kind === 'priced') expect(cost.dollars).toBeCloseTo(dollars, 12);
  });

  it('a table without tier prices keeps the base ones', () => {
    const base = { input_cost_per_token: 1 * M, output_cost_per_token: 2 * M };
    const cost = attemptCost(u(300_000), base);
    if (cost.kind !== 'priced') throw new Error(cost.kind);
    expect(cost.dollars).toBeCloseTo(300_000 * M + 1000 * 2 * M, 12);
  });
});

describe('prices the table lacks', () => {
  const usage: Usage = {
    inputTokens: 1000,
    outputTokens: 100,
    totalTokens: 1100,
    cachedTokens: 400,
    cacheWriteTokens: 100,
    cacheWrite1hTokens: 50,
    reasoningTokens: 60,
  };
  it.each<[string, ModelPrice, number]>([
    [
      'no cache prices: cache reads and writes cost as input, never nothing',
      { input_cost_per_token: 2 * M, output_cost_per_token: 10 * M },
      1000 * 2 * M + 100 * 10 * M,
    ],
    [
      'no one-hour price: the write price',
      { input_cost_per_token: 2 * M, output_cost_per_token: 10 * M, cache_creation_input_token_cost: 4 * M },
      900 * 2 * M + 100 * 4 * M + 100 * 10 * M,
    ],
    [
      'a reasoning price of its own',
      { input_cost_per_token: 2 * M, output_cost_per_token: 10 * M, output_cost_per_reasoning_token: 20 * M },
      1000 * 2 * M + 40 * 10 * M + 60 * 20 * M,
    ],
  ])('%s', (_, table, dollars) => {
    const cost = attemptCost(usage, table);
    if (cost.kind !== 'priced') throw new Error(cost.kind);
    expect(cost.dollars).toBeCloseTo(dollars, 12);
  });

  it.each<[string, ModelPrice | null]>([
    ['no entry', null],
    ['no output price', { input_cost_per_token: 1 * M }],
    ['no input price', { output_cost_per_token: 1 * M }],
  ])('%s: price unknown, never $0', (_, table) => {
    expect(attemptCost(usage, table)).toEqual({ kind: 'unpriced' });
  });

  it('a free model is $0, and known', () => {
    const cost = attemptCost(usage, { input_cost_per_token: 0, output_cost_per_token: 0 });
    expect(cost).toMatchObject({ kind: 'priced', dollars: 0 });
  });
});

describe('every attempt priced; a turn is the sum of its attempts', () => {
  const usage = (input: number, output: number): Usage => ({
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
  });
  it('interrupted attempts are priced like any other, a refused one bills nothing', () => {
    const sum = sumCosts([
      attemptCost(usage(1000, 50), price), // interrupted midway: its stated usage
      attemptCost(null, price, true), // 429 before any output
      attemptCost(usage(1000, 200), price),
    ]);
    expect(sum).toMatchObject({ attempts: 3, known: 2, unpriced: 0, unmetered: 0 });
    expect(sum.dollars).toBeCloseTo(bill(1000, 0, 0, 0, 50) + bill(1000, 0, 0, 0, 200), 12);
    expect(costCertainty(sum)).toBe('exact');
  });

  it.each<[string, Parameters<typeof attemptCost>[], ReturnType<typeof costCertainty>]>([
    ['nothing billed', [[null, price, true]], 'none'],
    ['usage never came', [[null, price]], 'none'],
    ['an unpriced model', [[usage(1, 1), null]], 'unknown'],
    [
      'one priced, one whose usage never came',
      [
        [usage(1, 1), price],
        [null, price],
      ],
      'partial',
    ],
    ['the gateway’s figure', [[{ ...usage(1, 1), gatewayCost: 0.5 }, null]], 'exact'],
  ])('%s: %s', (_, attempts, certainty) => {
    expect(costCertainty(sumCosts(attempts.map((a) => attemptCost(...a))))).toBe(certainty);
  });

  it('sums join', () => {
    const a = sumCosts([attemptCost(usage(1000, 0), price), attemptCost(usage(1, 1), null)]);
    const b = sumCosts([attemptCost({ ...usage(1, 1), gatewayCost: 0.25 }, price)]);
    expect(joinCosts(a, b)).toMatchObject({ attempts: 3, known: 2, gateway: 1, unpriced: 1 });
    expect(joinCosts(a, b).dollars).toBeCloseTo(0.003 + 0.25, 12);
  });
});
