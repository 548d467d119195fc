import { type AttemptCost, type CostBreakdown, type CostSum, costCertainty } from '../../core/index.ts';
import type { I18n } from '../../i18n/i18n.tsx';

/**
 * A sum of costs as shown: `$0.0123`, `at least $0.0123` when some attempts have no price or no usage,
 * `price unknown` when none has a price (never $0), the gateway's figure marked as such; null when nothing
 * was billed. `attempts`: say over how many attempts (an answer's cost, not a conversation's).
 */
export function costFigure(
  { t, format }: Pick<I18n, 't' | 'format'>,
  sum: CostSum,
  attempts: boolean,
): string | null {
  const certainty = costCertainty(sum);
  if (certainty === 'none') return null;
  if (certainty === 'unknown') return t('cost.unknown');
  const gateway = sum.gateway === 0 ? 'none' : sum.gateway === sum.known ? 'all' : 'some';
  return t('cost.figure', {
    certainty,
    amount: format.usd(sum.dollars),
    gateway,
    attempts: attempts ? sum.attempts : 1,
  });
}

/** The kinds of token a bill lists, in the order shown. */
export const costLines = ['input', 'cached', 'cacheWrite', 'cacheWrite1h', 'output', 'reasoning'] as const;

/** The lines worth a row: those with tokens (input and output always). */
export function shownLines(breakdown: CostBreakdown): (typeof costLines)[number][] {
  return costLines.filter((kind) => kind === 'input' || kind === 'output' || breakdown[kind].tokens > 0);
}

/** One attempt's cost alone, as the inspector shows it: the figure, or why there is none. */
export function attemptFigure(i18n: Pick<I18n, 't' | 'format'>, cost: AttemptCost): string {
  switch (cost.kind) {
    case 'priced':
    case 'gateway':
      return i18n.t('cost.figure', {
        certainty: 'exact',
        amount: i18n.format.usd(cost.dollars),
        gateway: cost.kind === 'gateway' ? 'all' : 'none',
        attempts: 1,
      });
    case 'unpriced':
      return i18n.t('cost.unknown');
    case 'unmetered':
      return i18n.t('cost.note.unmetered');
    case 'none':
      return i18n.t('cost.note.none');
  }
}
