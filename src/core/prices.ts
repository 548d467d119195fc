import * as v from 'valibot';

/**
 * A price table in LiteLLM's `model_prices_and_context_window.json` format, read as it is: one entry per
 * model name, dollars per token. Only the fields below are read; the many others (`mode`,
 * `supports_vision`, per-image prices…) are ignored.
 */
export interface ModelPrice {
  input_cost_per_token?: number;
  output_cost_per_token?: number;
  cache_read_input_token_cost?: number;
  /** The cache write price (Anthropic's five-minute writes). */
  cache_creation_input_token_cost?: number;
  /** Anthropic's one-hour cache writes. */
  cache_creation_input_token_cost_above_1hr?: number;
  output_cost_per_reasoning_token?: number;
  /** The tier that applies to the whole request once its prompt passes 200,000 tokens. */
  input_cost_per_token_above_200k_tokens?: number;
  output_cost_per_token_above_200k_tokens?: number;
  cache_read_input_token_cost_above_200k_tokens?: number;
  cache_creation_input_token_cost_above_200k_tokens?: number;
  cache_creation_input_token_cost_above_1hr_above_200k_tokens?: number;
  /** The model's context window for the prompt. */
  max_input_tokens?: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** An entry left out of a table, and why: its field (null: the entry is no object) and what it held. */
export interface SkippedPrice {
  model: string;
  field: string | null;
  value: string;
  /** In English, for the operator's log: `a number`, `not negative`, `an object of prices`. */
  expected: string;
}

export interface ReadPrices {
  table: PriceTable;
  skipped: SkippedPrice[];
}

const dollars = v.optional(
  v.pipe(v.number('a number'), v.finite('a finite number'), v.minValue(0, 'not negative')),
);

const priceFields = {
  input_cost_per_token: dollars,
  output_cost_per_token: dollars,
  cache_read_input_token_cost: dollars,
  cache_creation_input_token_cost: dollars,
  cache_creation_input_token_cost_above_1hr: dollars,
  output_cost_per_reasoning_token: dollars,
  input_cost_per_token_above_200k_tokens: dollars,
  output_cost_per_token_above_200k_tokens: dollars,
  cache_read_input_token_cost_above_200k_tokens: dollars,
  cache_creation_input_token_cost_above_200k_tokens: dollars,
  cache_creation_input_token_cost_above_1hr_above_200k_tokens: dollars,
  max_input_tokens: v.optional(
    v.pipe(v.number('a number'), v.safeInteger('a whole number'), v.minValue(1, 'at least 1')),
  ),
} satisfies { [K in keyof ModelPrice]-?: v.GenericSchema<unknown, ModelPrice[K]> };

/** Unknown fields are dropped (`v.object` keeps only those named). */
const modelPrice = v.object(priceFields, 'an object');

/** LiteLLM's file documents its own fields in an entry of this name, which is no model. */
const SAMPLE_SPEC = 'sample_spec';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  return typeof value;
}

/**
 * A price table from outside (the operator's file, the server's answer, a person's own prices), checked
 * entry by entry: an entry that is wrong is left out with its reason, and the rest is kept. Only a table
 * that is not an object at all is refused as a whole (null).
 */
export function readPriceTable(json: unknown): ReadPrices | null {
  if (!isRecord(json)) return null;
  const table: Record<string, ModelPrice> = {};
  const skipped: SkippedPrice[] = [];
  for (const [model, entry] of Object.entries(json)) {
    if (model === SAMPLE_SPEC) continue;
    if (!isRecord(entry)) {
      skipped.push({ model, field: null, value: kindOf(entry), expected: 'an object of prices' });
      continue;
    }
    const result = v.safeParse(modelPrice, entry);
    if (result.success) {
      // Absent fields stay absent: an entry keeps only the prices it gives.
      table[model] = Object.fromEntries(
        Object.entries(result.output).filter(([, value]) => value !== undefined),
      );
      continue;
    }
    const issue = result.issues[0];
    const field = issue.path?.map((item) => String(item.key)).join('.') ?? null;
    skipped.push({ model, field, value: kindOf(issue.input), expected: issue.message });
  }
  return { table, skipped };
}

/** A left-out entry in the operator's log's words: `gpt-4o: input_cost_per_token is "0.01" (expected a number)`. */
export function skippedInWords({ model, field, value, expected }: SkippedPrice): string {
  return `${model}: ${field ? `${field} is` : 'is'} ${value} (expected ${expected})`;
}

/** The operator's table with a person's own prices over it, field by field: an entry may change one price. */
export function mergePrices(base: PriceTable, own: PriceTable): PriceTable {
  const merged: Record<string, ModelPrice> = { ...base };
  for (const [model, price] of Object.entries(own)) merged[model] = { ...base[model], ...price };
  return merged;
}

/**
 * The entry of the first name found: the model as asked for, then as the gateway named it in its answer,
 * then either without a provider's prefix (`openrouter/anthropic/claude-…` → `claude-…`).
 */
export function priceFor(
  table: PriceTable,
  names: readonly (string | null | undefined)[],
): ModelPrice | null {
  const candidates = names.filter((name): name is string => Boolean(name));
  for (const name of candidates) if (Object.hasOwn(table, name)) return table[name]!;
  for (const name of candidates) {
    const bare = name.slice(name.lastIndexOf('/') + 1);
    if (bare !== name && Object.hasOwn(table, bare)) return table[bare]!;
  }
  return null;
}
