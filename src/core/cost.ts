import type { ModelPrice } from './prices.ts';
import type { Usage } from './turn.ts';

/**
 * What an attempt cost, from its normalized usage (`Usage`: every protocol's prompt count includes its
 * cache reads and writes, its output count its reasoning; the reducers make it so) and the model's prices.
 */

/** One kind of token in a bill: how many, at what price each, for how much. */
export interface CostLine {
  tokens: number;
  /** Dollars per token. */
  price: number;
  dollars: number;
}

export interface CostBreakdown {
  /** Prompt tokens neither read from nor written to a cache. */
  input: CostLine;
  /** Prompt tokens read from a cache. */
  cached: CostLine;
  /** Prompt tokens written to a cache (for five minutes, or for a time the gateway did not say). */
  cacheWrite: CostLine;
  /** Prompt tokens written to a cache for one hour (Anthropic). */
  cacheWrite1h: CostLine;
  /** Output tokens other than reasoning. */
  output: CostLine;
  /** Reasoning tokens (part of the output count). */
  reasoning: CostLine;
}

export type AttemptCost =
  /** Tokens times the table's prices; `longContext`: the prompt passed 200,000 tokens, its tier applied. */
  | { kind: 'priced'; dollars: number; breakdown: CostBreakdown; longContext: boolean }
  /** The gateway's own figure (`usage.cost`), which wins; what the table would say beside it, if it can. */
  | { kind: 'gateway'; dollars: number; estimate: Extract<AttemptCost, { kind: 'priced' }> | null }
  /** Usage reported, but the model has no price: never $0. */
  | { kind: 'unpriced' }
  /** Usage never reported (a stream cut before it): what it cost cannot be known. */
  | { kind: 'unmetered' }
  /** Refused before it began (an HTTP error): nothing billed. */
  | { kind: 'none' };

/** The prompt size past which LiteLLM's `*_above_200k_tokens` prices apply to the whole request. */
export const LONG_CONTEXT_TOKENS = 200_000;

function line(tokens: number, price: number): CostLine {
  return { tokens, price, dollars: tokens * price };
}

/** The table's prices for tokens of a request; null when the model has no input or output price. */
function pricedUsage(usage: Usage, price: ModelPrice): Extract<AttemptCost, { kind: 'priced' }> | null {
  const longContext = usage.inputTokens > LONG_CONTEXT_TOKENS;
  // A tier price the table lacks falls back to the base one.
  const tier = (base: number | undefined, above: number | undefined) =>
    longContext ? (above ?? base) : base;
  const input = tier(price.input_cost_per_token, price.input_cost_per_token_above_200k_tokens);
  const output = tier(price.output_cost_per_token, price.output_cost_per_token_above_200k_tokens);
  if (input === undefined || output === undefined) return null;
  // A cache price the table lacks counts as plain input: never free.
  const cacheRead =
    tier(price.cache_read_input_token_cost, price.cache_read_input_token_cost_above_200k_tokens) ?? input;
  const cacheWrite =
    tier(price.cache_creation_input_token_cost, price.cache_creation_input_token_cost_above_200k_tokens) ??
    input;
  const cacheWrite1h =
    tier(
      price.cache_creation_input_token_cost_above_1hr,
      price.cache_creation_input_token_cost_above_1hr_above_200k_tokens,
    ) ?? cacheWrite;
  const reasoning = price.output_cost_per_reasoning_token ?? output;

  const cached = usage.cachedTokens ?? 0;
  const writes = usage.cacheWriteTokens ?? 0;
  const writes1h = Math.min(usage.cacheWrite1hTokens ?? 0, writes);
  const thought = Math.min(usage.reasoningTokens ?? 0, usage.outputTokens);
  const breakdown: CostBreakdown = {
    input: line(Math.max(0, usage.inputTokens - cached - writes), input),
    cached: line(cached, cacheRead),
    cacheWrite: line(writes - writes1h, cacheWrite),
    cacheWrite1h: line(writes1h, cacheWrite1h),
    output: line(usage.outputTokens - thought, output),
    reasoning: line(thought, reasoning),
  };
  const dollars = Object.values(breakdown).reduce((sum, l) => sum + l.dollars, 0);
  return { kind: 'priced', dollars, breakdown, longContext };
}

/**
 * One attempt's cost. `refused`: the gateway answered with an error before streaming, which bills nothing.
 * Interrupted and stopped attempts are priced like any other: their usage is what was billed.
 */
export function attemptCost(usage: Usage | null, price: ModelPrice | null, refused = false): AttemptCost {
  if (usage === null) return refused ? { kind: 'none' } : { kind: 'unmetered' };
  const estimate = price ? pricedUsage(usage, price) : null;
  if (usage.gatewayCost !== undefined) return { kind: 'gateway', dollars: usage.gatewayCost, estimate };
  return estimate ?? { kind: 'unpriced' };
}

/** Several attempts' costs together: the dollars of those known, and how many were not. */
export interface CostSum {
  dollars: number;
  attempts: number;
  /** Attempts with a figure (priced from the table, or the gateway's). */
  known: number;
  /** Of those, the gateway's own. */
  gateway: number;
  /** Attempts with usage but no price. */
  unpriced: number;
  /** Attempts whose usage never came. */
  unmetered: number;
}

export const noCost: CostSum = Object.freeze({
  dollars: 0,
  attempts: 0,
  known: 0,
  gateway: 0,
  unpriced: 0,
  unmetered: 0,
});

export function addCost(sum: CostSum, cost: AttemptCost): CostSum {
  const next = { ...sum, attempts: sum.attempts + 1 };
  switch (cost.kind) {
    case 'gateway':
      next.gateway++;
      next.known++;
      next.dollars += cost.dollars;
      break;
    case 'priced':
      next.known++;
      next.dollars += cost.dollars;
      break;
    case 'unpriced':
      next.unpriced++;
      break;
    case 'unmetered':
      next.unmetered++;
      break;
    case 'none':
      break;
  }
  return next;
}

export function sumCosts(costs: readonly AttemptCost[]): CostSum {
  return costs.reduce(addCost, noCost);
}

/** Two sums as one (a conversation's answers). */
export function joinCosts(a: CostSum, b: CostSum): CostSum {
  return {
    dollars: a.dollars + b.dollars,
    attempts: a.attempts + b.attempts,
    known: a.known + b.known,
    gateway: a.gateway + b.gateway,
    unpriced: a.unpriced + b.unpriced,
    unmetered: a.unmetered + b.unmetered,
  };
}

/**
 * How a sum reads: `unknown` when nothing in it has a price (never $0), `partial` when some attempts
 * have one and others not (the dollars are then a floor), else `exact`; `none` when nothing was billed.
 */
export function costCertainty(sum: CostSum): 'none' | 'unknown' | 'partial' | 'exact' {
  const missing = sum.unpriced + sum.unmetered;
  if (sum.known === 0) return sum.unpriced > 0 ? 'unknown' : 'none';
  return missing > 0 ? 'partial' : 'exact';
}
