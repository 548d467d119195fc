import { describe, expect, it } from 'vitest';
import { mergePrices, priceFor, readPriceTable, skippedInWords } from './prices.ts';

describe('readPriceTable: LiteLLM’s file as it is', () => {
  it('keeps the fields it reads, drops the others, and skips LiteLLM’s sample_spec', () => {
    const read = readPriceTable({
      sample_spec: { max_input_tokens: 'max input tokens, if the provider specifies it' },
      'claude-sonnet-4-5': {
        litellm_provider: 'anthropic',
        mode: 'chat',
        max_input_tokens: 200000,
        input_cost_per_token: 3e-6,
        output_cost_per_token: 1.5e-5,
        cache_read_input_token_cost: 3e-7,
        cache_creation_input_token_cost: 3.75e-6,
        cache_creation_input_token_cost_above_1hr: 6e-6,
        input_cost_per_token_above_200k_tokens: 6e-6,
        supports_vision: true,
      },
    });
    expect(read).toEqual({
      table: {
        'claude-sonnet-4-5': {
          max_input_tokens: 200000,
          input_cost_per_token: 3e-6,
          output_cost_per_token: 1.5e-5,
          cache_read_input_token_cost: 3e-7,
          cache_creation_input_token_cost: 3.75e-6,
          cache_creation_input_token_cost_above_1hr: 6e-6,
          input_cost_per_token_above_200k_tokens: 6e-6,
        },
      },
      skipped: [],
    });
  });

  it.each<[string, unknown, string]>([
    ['a price as text', { input_cost_per_token: '0.01' }, 'input_cost_per_token is "0.01"'],
    [
      'a negative price',
      { output_cost_per_token: -1 },
      'output_cost_per_token is -1 (expected not negative)',
    ],
    ['a fractional window', { max_input_tokens: 1.5 }, 'max_input_tokens is 1.5'],
    ['not an object', [1, 2], 'is a list'],
    ['null', null, 'null'],
  ])('%s: that entry is skipped with its reason, the rest kept', (_, entry, reason) => {
    const read = readPriceTable({ bad: entry, good: { input_cost_per_token: 1e-6 } });
    expect(read?.table).toEqual({ good: { input_cost_per_token: 1e-6 } });
    expect(read?.skipped).toHaveLength(1);
    const skipped = read?.skipped[0];
    expect(skipped?.model).toBe('bad');
    expect(skipped && skippedInWords(skipped)).toContain(reason);
  });

  it.each([[null], [[]], ['{}'], [3]])('%j is no table', (json) => {
    expect(readPriceTable(json)).toBeNull();
  });
});

describe('mergePrices: a person’s prices over the operator’s', () => {
  it('field by field, new models added', () => {
    const merged = mergePrices(
      { a: { input_cost_per_token: 1, output_cost_per_token: 2 } },
      { a: { output_cost_per_token: 3 }, b: { input_cost_per_token: 4 } },
    );
    expect(merged).toEqual({
      a: { input_cost_per_token: 1, output_cost_per_token: 3 },
      b: { input_cost_per_token: 4 },
    });
  });
});

describe('priceFor: which entry a model takes', () => {
  const table = { 'gpt-4o': { input_cost_per_token: 1 }, 'gpt-4o-2024-08-06': { input_cost_per_token: 2 } };
  it.each<[string, (string | null)[], number | null]>([
    ['the model asked for', ['gpt-4o', 'gpt-4o-2024-08-06'], 1],
    ['the model the gateway named, when the one asked for has no price', ['alias', 'gpt-4o-2024-08-06'], 2],
    ['without a provider’s prefix', ['openrouter/openai/gpt-4o', null], 1],
    ['no entry', ['other', null], null],
    ['no inherited names', ['toString', 'constructor'], null],
  ])('%s', (_, names, input) => {
    expect(priceFor(table, names)?.input_cost_per_token ?? null).toBe(input);
  });
});
