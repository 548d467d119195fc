import {
  type AttemptCost,
  attemptCost,
  type CostSum,
  joinCosts,
  mergePrices,
  noCost,
  type PriceTable,
  priceFor,
  readPriceTable,
  type SkippedPrice,
  sumCosts,
} from '../../core/index.ts';
import type { AssistantMessage, Attempt, Conversation } from './types.ts';

/** A person's own prices as typed in Settings: the table read from them, or why it could not be. */
export type OwnPrices =
  | { kind: 'empty'; table: PriceTable }
  | { kind: 'read'; table: PriceTable; skipped: SkippedPrice[] }
  | { kind: 'not-json'; table: PriceTable; reason: string }
  | { kind: 'not-a-table'; table: PriceTable };

const none: PriceTable = Object.freeze({});

/** Reads the Settings text: JSON in LiteLLM's format; anything else leaves the operator's prices alone. */
export function readOwnPrices(text: string): OwnPrices {
  if (text.trim() === '') return { kind: 'empty', table: none };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'not-json', table: none, reason: (error as Error).message };
  }
  const read = readPriceTable(json);
  return read ? { kind: 'read', ...read } : { kind: 'not-a-table', table: none };
}

/** The prices answers are priced with: the server's table with the person's own over it. */
export function pricesFor(server: PriceTable, own: string): PriceTable {
  const mine = readOwnPrices(own).table;
  return Object.keys(mine).length === 0 ? server : mergePrices(server, mine);
}

/**
 * One attempt's cost, priced as the model asked for (else as the gateway named it). An attempt refused
 * before it began, one that never got an answer and one still streaming without usage bill nothing yet.
 */
export function costOfAttempt(attempt: Attempt, model: string, prices: PriceTable): AttemptCost {
  const { turn } = attempt;
  const billedNothing =
    attempt.httpError !== null || attempt.trace.headersAt === null || turn.status === 'streaming';
  return attemptCost(turn.usage, priceFor(prices, [model, turn.model]), billedNothing);
}

/** Every attempt of an answer priced, and their sum: what the answer cost. */
export function costOfAnswer(
  message: Pick<AssistantMessage, 'attempts' | 'model'>,
  prices: PriceTable,
): { attempts: { attempt: Attempt; cost: AttemptCost }[]; sum: CostSum } {
  const attempts = message.attempts.map((attempt) => ({
    attempt,
    cost: costOfAttempt(attempt, message.model, prices),
  }));
  return { attempts, sum: sumCosts(attempts.map((a) => a.cost)) };
}

/** What a conversation cost: every attempt of every answer, on every branch, as its token total counts. */
export function costOfConversation(conversation: Conversation, prices: PriceTable): CostSum {
  let sum = noCost;
  for (const m of conversation.messages) {
    if (m.role === 'assistant') sum = joinCosts(sum, costOfAnswer(m, prices).sum);
  }
  return sum;
}
