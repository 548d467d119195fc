import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { sumUsage } from './usage.ts';

const attempt = (usage: { inputTokens: number; outputTokens: number } | null) => ({
  turn: { ...emptyTurn, usage: usage && { ...usage, totalTokens: usage.inputTokens + usage.outputTokens } },
});

describe('sumUsage', () => {
  it('adds every attempt, counting unreported usage as zero', () => {
    expect(sumUsage([])).toEqual({ input: 0, output: 0, total: 0 });
    expect(
      sumUsage([
        attempt({ inputTokens: 10, outputTokens: 5 }),
        attempt(null),
        attempt({ inputTokens: 7, outputTokens: 1 }),
      ]),
    ).toEqual({ input: 17, output: 6, total: 23 });
  });
});
