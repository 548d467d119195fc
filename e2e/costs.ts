import { readFileSync } from 'node:fs';
import { expect, type Locator } from '@playwright/test';

// Reading an answer's cost as a person sees it, and the same arithmetic done apart, on the simulator's own
// price table (simulator/prices.json, served as /api/prices).

/** simulator/prices.json, as the app reads it. */
type Price = Record<string, number | undefined>;
export const prices = JSON.parse(
  readFileSync(new URL('../simulator/prices.json', import.meta.url), 'utf8'),
) as Record<string, Price>;

/** The app's dollars in English (src/i18n/format.ts, `usd`). */
export function usd(dollars: number): string {
  const options =
    dollars === 0 || dollars >= 1 ? {} : { minimumSignificantDigits: 2, maximumSignificantDigits: 3 };
  return new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', ...options }).format(dollars);
}

/** The usage line's counts: `1,234 in · 56 out · 1,290 total · 600 cached · 300 cache writes`. */
export async function shownUsage(turn: Locator) {
  const text = await turn.getByTestId('turn-usage').innerText();
  const count = (label: string) => {
    const match = new RegExp(`([\\d,]+) ${label}`).exec(text);
    return match ? Number(match[1]?.replace(/,/g, '')) : 0;
  };
  return {
    input: count('in'),
    output: count('out'),
    cached: count('cached'),
    written: count('cache writes'),
    reasoning: count('reasoning'),
  };
}

/** The breakdown's rows by line (`input`, `cached`, …): tokens as shown. */
export async function breakdownTokens(turn: Locator): Promise<Record<string, number>> {
  const button = turn.getByTestId('turn-cost');
  await button.focus();
  const tip = turn.getByRole('tooltip');
  await expect(tip).toBeVisible();
  const rows = tip.locator('tbody tr');
  const tokens: Record<string, number> = {};
  for (const row of await rows.all()) {
    const line = (await row.getAttribute('data-line')) ?? '';
    tokens[line] = Number((await row.locator('td').first().innerText()).replace(/,/g, ''));
  }
  await button.blur();
  return tokens;
}

/** What the tokens of an answer of `model` cost by the table: the same arithmetic, done apart. */
export function expectedDollars(model: string, t: Record<string, number>): number {
  const p = prices[model] ?? {};
  const input = p.input_cost_per_token ?? 0;
  const output = p.output_cost_per_token ?? 0;
  const write = p.cache_creation_input_token_cost ?? input;
  return (
    (t.input ?? 0) * input +
    (t.cached ?? 0) * (p.cache_read_input_token_cost ?? input) +
    (t.cacheWrite ?? 0) * write +
    (t.cacheWrite1h ?? 0) * (p.cache_creation_input_token_cost_above_1hr ?? write) +
    (t.output ?? 0) * output +
    (t.reasoning ?? 0) * (p.output_cost_per_reasoning_token ?? output)
  );
}
