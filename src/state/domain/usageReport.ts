import {
  attemptCost,
  type CostSum,
  joinCosts,
  noCost,
  type PriceTable,
  priceFor,
  sumCosts,
} from '../../core/index.ts';
import { costOfAttempt } from './cost.ts';
import type { Conversation } from './types.ts';

/**
 * The usage page's figures: tokens and cost per day, per model or per protocol, from the attempts this
 * browser keeps (every attempt, failed ones too, as a conversation's total counts them) or from the team
 * server's daily sums. Pure: the page and the CSV both read what this makes.
 */

export const usageGroupings = ['day', 'model', 'protocol'] as const;
export type UsageGrouping = (typeof usageGroupings)[number];

/** Tokens and their cost. `inputTokens` includes the cached ones, `outputTokens` the reasoning ones. */
export interface UsageFigures {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cost: CostSum;
}

/** One attempt's figures (or one server row's), with what it is grouped by. */
export interface UsageEntry extends UsageFigures {
  /** `YYYY-MM-DD`. */
  day: string;
  model: string;
  protocol: string;
}

export interface UsageReportRow extends UsageFigures {
  /** The day (`YYYY-MM-DD`), the model or the protocol. */
  key: string;
}

export interface UsageReport {
  grouping: UsageGrouping;
  /** Days in order; models and protocols by name. */
  rows: UsageReportRow[];
  total: UsageFigures;
}

const zero: UsageFigures = Object.freeze({
  inputTokens: 0,
  cachedTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cost: noCost,
});

function add(a: UsageFigures, b: UsageFigures): UsageFigures {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    cost: joinCosts(a.cost, b.cost),
  };
}

/**
 * Every attempt of every answer of `conversations`, priced as its answer's usage line prices it, on the
 * day `dayOf` gives its start (the person's own calendar day).
 */
export function attemptEntries(
  conversations: Iterable<Conversation>,
  prices: PriceTable,
  dayOf: (epochMs: number) => string,
): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const conversation of conversations) {
    for (const message of conversation.messages) {
      if (message.role !== 'assistant') continue;
      for (const attempt of message.attempts) {
        const usage = attempt.turn.usage;
        entries.push({
          day: dayOf(attempt.startedAt),
          model: message.model,
          protocol: message.protocol,
          inputTokens: usage?.inputTokens ?? 0,
          cachedTokens: usage?.cachedTokens ?? 0,
          outputTokens: usage?.outputTokens ?? 0,
          reasoningTokens: usage?.reasoningTokens ?? 0,
          cost: sumCosts([costOfAttempt(attempt, message.model, prices)]),
        });
      }
    }
  }
  return entries;
}

/** A team server's daily sum for one model and protocol (`usageApi.ts`'s row, as much as is priced). */
export interface ServerUsageSum {
  day: string;
  model: string;
  protocol: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

/**
 * The server's daily sums, priced by the table as one request each: exact for the table's prices, but the
 * server keeps neither a gateway's own figure nor each request's size (the long-prompt tier) nor how long a
 * cache write is kept, so those are not in it.
 */
export function serverEntries(sums: readonly ServerUsageSum[], prices: PriceTable): UsageEntry[] {
  return sums.map((sum) => {
    const usage = {
      inputTokens: sum.inputTokens,
      outputTokens: sum.outputTokens,
      totalTokens: sum.inputTokens + sum.outputTokens,
      cachedTokens: sum.cachedTokens,
      cacheWriteTokens: sum.cacheWriteTokens,
      reasoningTokens: sum.reasoningTokens,
    };
    return {
      day: sum.day,
      model: sum.model,
      protocol: sum.protocol,
      inputTokens: sum.inputTokens,
      cachedTokens: sum.cachedTokens,
      outputTokens: sum.outputTokens,
      reasoningTokens: sum.reasoningTokens,
      cost: sumCosts([attemptCost(usage, priceFor(prices, [sum.model]))]),
    };
  });
}

/** The entries summed per day, model or protocol, and in all. */
export function usageReport(entries: readonly UsageEntry[], grouping: UsageGrouping): UsageReport {
  const groups = new Map<string, UsageFigures>();
  let total = zero;
  for (const entry of entries) {
    const key = entry[grouping];
    groups.set(key, add(groups.get(key) ?? zero, entry));
    total = add(total, entry);
  }
  const rows = [...groups]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, figures]) => ({ key, ...figures }));
  return { grouping, rows, total };
}
