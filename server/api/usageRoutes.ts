import { type Context, Hono } from 'hono';
import type { TeamAuth } from '../auth/teamAuth.ts';
import type { Storage } from '../db/storage.ts';
import type { DayRange } from '../db/usage.ts';
import { type ApiEnv, signedIn } from './signedIn.ts';

/** The longest range one request may sum: a year, leap day included. */
const MAX_USAGE_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A day as `YYYY-MM-DD` (UTC) that is on the calendar (not 2026-02-30) and PostgreSQL can hold (year 1 on). */
function parseDay(value: string | undefined): { day: string; ms: number } | undefined {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '0001') return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value
    ? undefined
    : { day: value, ms };
}

const notADay = (name: string, value: string | undefined) =>
  `${name} must be a day written YYYY-MM-DD (UTC), such as 2026-03-01${value === undefined ? '' : `, not "${value.slice(0, 40)}"`}.`;

/** The days `from` to `to` (both included), or why they are not a range this API sums. */
function usageRange(from: string | undefined, to: string | undefined): DayRange | string {
  const start = parseDay(from);
  if (!start) return notADay('from', from);
  const end = parseDay(to);
  if (!end) return notADay('to', to);
  if (start.ms > end.ms) return `from (${start.day}) comes after to (${end.day}).`;
  const days = (end.ms - start.ms) / DAY_MS + 1;
  if (days > MAX_USAGE_DAYS)
    return `At most ${MAX_USAGE_DAYS} days at once: ${start.day} to ${end.day} is ${days}.`;
  return { from: start.day, to: end.day };
}

/**
 * Usage as the server recorded it from the answers it relayed (`usageMeter.ts`): `GET /api/usage`, the
 * person's own totals per day, model and protocol; `GET /api/admin/usage`, everyone's per person too, for
 * administrators only (as their last sign-in said). Both take `from` and `to` (`YYYY-MM-DD`, UTC, both
 * included, at most 366 days). Behind the guard of every route of a person's data (`signedIn`): the person
 * is known only from their session, nothing in the request can name another.
 */
export function usageRoutes(auth: TeamAuth, storage: Storage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const guard = signedIn(auth, storage);
  app.use('/api/usage', guard);
  app.use('/api/admin/usage', guard);
  const rangeOf = (c: Context<ApiEnv>) => usageRange(c.req.query('from'), c.req.query('to'));

  app.get('/api/usage', async (c) => {
    const range = rangeOf(c);
    if (typeof range === 'string') return c.json({ error: range }, 400);
    return c.json({ ...range, totals: await c.get('person').usage.totals(range) });
  });

  app.get('/api/admin/usage', async (c) => {
    const admin = await storage.forAdmin(c.get('person').userId);
    if (!admin) return c.json({ error: 'Only administrators see everyone’s usage.' }, 403);
    const range = rangeOf(c);
    if (typeof range === 'string') return c.json({ error: range }, 400);
    return c.json({ ...range, totals: await admin.usage(range) });
  });

  return app;
}
