import type { Attempt } from './types.ts';

export interface UsageTotals {
  input: number;
  output: number;
  total: number;
}

/** Tokens billed over some attempts: every attempt counts, failed ones included (usage not reported: 0). */
export function sumUsage(attempts: readonly Pick<Attempt, 'turn'>[]): UsageTotals {
  let input = 0;
  let output = 0;
  for (const a of attempts) {
    input += a.turn.usage?.inputTokens ?? 0;
    output += a.turn.usage?.outputTokens ?? 0;
  }
  return { input, output, total: input + output };
}
