import * as v from 'valibot';
import { errorOf, jsonOf } from './json.ts';
import type { Failure } from './teamApi.ts';

/**
 * The team server's usage routes (`server/api/usageRoutes.ts`) as the page reads them: a person's own
 * totals, and (administrators) everyone's. Each answer is checked here, where it enters; a failure is
 * thrown as a `UsageError` (the query that asked shows it).
 */

/** Days `from` to `to`, both included, as `YYYY-MM-DD` (UTC), as the server sums them. */
export interface DayRange {
  from: string;
  to: string;
}

const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

const totalsRow = v.object({
  day: v.pipe(v.string(), v.isoDate()),
  model: v.string(),
  // As the server recorded it: one of the app's protocols, unless a newer server knows more.
  protocol: v.string(),
  attempts: count,
  // Attempts whose answer was cut or stopped (billed all the same).
  interrupted: count,
  inputTokens: count,
  outputTokens: count,
  cachedTokens: count,
  cacheWriteTokens: count,
  reasoningTokens: count,
});
const ownTotals = v.object({ totals: v.array(totalsRow) });
const everyonesTotals = v.object({
  totals: v.array(v.object({ ...totalsRow.entries, userId: v.string(), email: v.nullable(v.string()) })),
});

/** One day's totals for a model and protocol: a person's own, or (everyone's) one person's. */
export type UsageRow = v.InferOutput<typeof totalsRow> & {
  /** Everyone's usage only: whose, by email (by the server's id for a person it knows no email of). */
  person?: string;
};

/** Why usage could not be had: the team API's failures, or an answer that was not usage. */
export type UsageProblem = Failure | { kind: 'malformed' };

export class UsageError extends Error {
  constructor(readonly problem: UsageProblem) {
    super(`Usage could not be loaded: ${problem.kind}`);
    this.name = 'UsageError';
  }
}

/** The signed-in person's own totals per day, model and protocol, days in order. */
export async function ownUsage(range: DayRange): Promise<UsageRow[]> {
  return (await read('/api/usage', range, ownTotals)).totals;
}

/** Everyone's totals per day, person, model and protocol: administrators only (else a refusal). */
export async function everyonesUsage(range: DayRange): Promise<UsageRow[]> {
  const { totals } = await read('/api/admin/usage', range, everyonesTotals);
  return totals.map(({ userId, email, ...row }) => ({ ...row, person: email ?? userId }));
}

async function read<S extends v.GenericSchema>(
  path: string,
  { from, to }: DayRange,
  schema: S,
): Promise<v.InferOutput<S>> {
  let response: Response;
  try {
    response = await fetch(`${path}?from=${from}&to=${to}`, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new UsageError({
      kind: 'unreachable',
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  const body = await jsonOf(response);
  if (response.status === 401) throw new UsageError({ kind: 'signed-out' });
  if (!response.ok) {
    // The server's own words (a 400 says what is wrong with the range, a 403 who may see this).
    const reason = errorOf(body) ?? `HTTP ${response.status}`;
    const passing = response.status >= 500 || response.status === 429 || response.status === 408;
    throw new UsageError({ kind: passing ? 'unreachable' : 'refused', reason });
  }
  const checked = v.safeParse(schema, body);
  if (!checked.success) throw new UsageError({ kind: 'malformed' });
  return checked.output;
}
