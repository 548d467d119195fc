import * as v from 'valibot';
import { type Protocol, protocols } from '../../src/core/index.ts';
import { clientId, type Database, firstRow, int, rows } from './database.ts';

/**
 * Tokens per attempt, as the server read them from the stream it relayed (never as a browser reports
 * them), partial attempts included: billed all the same. Summed per day, model and protocol: a person's
 * own, or (administrators) everyone's, per person.
 */

export interface AttemptUsage {
  attemptId: string;
  conversationId: string;
  protocol: Protocol;
  model: string;
  /** When the attempt started: its day (UTC) is the one it counts on. */
  startedAt: Date;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** The stream ended before its end (the person stopped it, the connection broke). */
  interrupted: boolean;
}

/** A range of days, both included, as `YYYY-MM-DD` (UTC). */
export interface DayRange {
  from: string;
  to: string;
}

export interface UsageTotals {
  day: string;
  model: string;
  protocol: string;
  attempts: number;
  interrupted: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export interface PersonUsageTotals extends UsageTotals {
  userId: string;
  email: string | null;
}

const tokens = v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(2 ** 31 - 1));
const attemptUsage = v.object({
  attemptId: clientId,
  conversationId: clientId,
  protocol: v.picklist(protocols),
  model: v.pipe(v.string(), v.maxLength(500)),
  startedAt: v.date(),
  inputTokens: tokens,
  outputTokens: tokens,
  cachedTokens: tokens,
  cacheWriteTokens: tokens,
  reasoningTokens: tokens,
  interrupted: v.boolean(),
});
const dayText = v.pipe(v.string(), v.isoDate());
const dayRange = v.object({ from: dayText, to: dayText });

const totalsEntries = {
  day: v.string(),
  model: v.string(),
  protocol: v.string(),
  attempts: int,
  interrupted: int,
  input_tokens: int,
  output_tokens: int,
  cached_tokens: int,
  cache_write_tokens: int,
  reasoning_tokens: int,
};
const totals = (row: v.InferOutput<v.ObjectSchema<typeof totalsEntries, undefined>>): UsageTotals => ({
  day: row.day,
  model: row.model,
  protocol: row.protocol,
  attempts: row.attempts,
  interrupted: row.interrupted,
  inputTokens: row.input_tokens,
  outputTokens: row.output_tokens,
  cachedTokens: row.cached_tokens,
  cacheWriteTokens: row.cache_write_tokens,
  reasoningTokens: row.reasoning_tokens,
});
const totalsRow = v.pipe(v.object(totalsEntries), v.transform(totals));
const personTotalsRow = v.pipe(
  v.object({ ...totalsEntries, user_id: v.string(), email: v.nullable(v.string()) }),
  v.transform((row): PersonUsageTotals => ({ ...totals(row), userId: row.user_id, email: row.email })),
);

/** `day::text`: a date as written, not turned into a Date at local midnight by the driver. */
const sums = `day::text AS day, model, protocol, count(*) AS attempts,
  count(*) FILTER (WHERE interrupted) AS interrupted,
  sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(cached_tokens) AS cached_tokens, sum(cache_write_tokens) AS cache_write_tokens,
  sum(reasoning_tokens) AS reasoning_tokens`;

/** Known to the caller as `person.usage`: every statement names `userId`. */
export class Usage {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
  ) {}

  /** Records an attempt's usage; recording it again (its final figures after partial ones) replaces it. */
  async record(input: AttemptUsage): Promise<void> {
    await this.insert(
      input,
      `ON CONFLICT (user_id, attempt_id) DO UPDATE SET
         conversation_id = excluded.conversation_id, protocol = excluded.protocol, model = excluded.model,
         day = excluded.day, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
         cached_tokens = excluded.cached_tokens, cache_write_tokens = excluded.cache_write_tokens,
         reasoning_tokens = excluded.reasoning_tokens, interrupted = excluded.interrupted, recorded_at = now()`,
    );
  }

  /**
   * Records a new attempt's usage; false, with nothing changed, when the person already has one under that
   * id. What the server read from a stream is added this way: a client sending an attempt id again must not
   * replace what an earlier request was billed.
   */
  async add(input: AttemptUsage): Promise<boolean> {
    return (await this.insert(input, 'ON CONFLICT (user_id, attempt_id) DO NOTHING RETURNING 1')).length > 0;
  }

  /** Tokens (input and output) of the attempts that started on `day` (UTC, `YYYY-MM-DD`). */
  async tokensOn(day: string): Promise<number> {
    const row = firstRow(
      v.object({ tokens: int }),
      await this.db.query(
        `SELECT coalesce(sum(input_tokens::bigint + output_tokens), 0)::bigint AS tokens
         FROM usage WHERE user_id = $1 AND day = $2`,
        [this.userId, v.parse(dayText, day)],
      ),
    );
    return row?.tokens ?? 0;
  }

  private insert(input: AttemptUsage, onConflict: string): Promise<unknown[]> {
    const u = v.parse(attemptUsage, input);
    return this.db.query(
      `INSERT INTO usage (user_id, attempt_id, conversation_id, protocol, model, day, input_tokens, output_tokens,
         cached_tokens, cache_write_tokens, reasoning_tokens, interrupted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ${onConflict}`,
      [
        this.userId,
        u.attemptId,
        u.conversationId,
        u.protocol,
        u.model.replaceAll('\u0000', ''),
        u.startedAt.toISOString().slice(0, 10),
        u.inputTokens,
        u.outputTokens,
        u.cachedTokens,
        u.cacheWriteTokens,
        u.reasoningTokens,
        u.interrupted,
      ],
    );
  }

  /** The person's totals per day, model and protocol, days in order. */
  async totals(range: DayRange): Promise<UsageTotals[]> {
    const { from, to } = v.parse(dayRange, range);
    return rows(
      totalsRow,
      await this.db.query(
        `SELECT ${sums} FROM usage WHERE user_id = $1 AND day BETWEEN $2 AND $3
         GROUP BY day, model, protocol ORDER BY day, model, protocol`,
        [this.userId, from, to],
      ),
    );
  }
}

/** Everyone's totals per person, day, model and protocol: only `Storage.forAdmin` hands this out. */
export async function everyonesUsage(db: Database, range: DayRange): Promise<PersonUsageTotals[]> {
  const { from, to } = v.parse(dayRange, range);
  return rows(
    personTotalsRow,
    await db.query(
      `SELECT u.user_id, p.email, ${sums}
       FROM usage u JOIN users p ON p.id = u.user_id
       WHERE day BETWEEN $1 AND $2
       GROUP BY u.user_id, p.email, day, model, protocol
       ORDER BY day, p.email, u.user_id, model, protocol`,
      [from, to],
    ),
  );
}
