import * as v from 'valibot';
import { type Database, firstRow, int } from './database.ts';

/**
 * A person's requests of the last minute, for `HOPBASE_USER_REQUESTS_PER_MINUTE`: counted in the database,
 * so the limit holds across every server process sharing it. The times are the database's (`now()`), one
 * clock for all of them.
 */

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

const waitRow = v.object({ wait_ms: int });

/** Known to the caller as `person.recentRequests`: every statement names `userId`. */
export class RequestWindow {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
  ) {}

  /**
   * Counts a request starting now if fewer than `limit` started in the last minute; otherwise counts
   * nothing and says how long until one of those is a minute old (a slot frees). One statement decides
   * and counts: ON CONFLICT locks the person's row and works on its latest version, so two requests
   * (in two processes) never both take the last slot.
   */
  async admit(limit: number): Promise<Admission> {
    const counted = await this.db.query(
      `INSERT INTO request_windows AS w (user_id, started) VALUES ($1, ARRAY[now()])
       ON CONFLICT (user_id) DO UPDATE
         SET started = ARRAY(
           SELECT t FROM unnest(w.started) t WHERE t > now() - interval '1 minute' ORDER BY t) || now()
         WHERE (SELECT count(*) FROM unnest(w.started) t WHERE t > now() - interval '1 minute') < $2
       RETURNING 1`,
      [this.userId, limit],
    );
    if (counted.length > 0) return { admitted: true };
    // The slot that frees first: when the `limit`-th newest request turns a minute old.
    const slot = firstRow(
      waitRow,
      await this.db.query(
        `SELECT ceil(extract(epoch FROM t + interval '1 minute' - now()) * 1000)::integer AS wait_ms
         FROM request_windows, unnest(started) t
         WHERE user_id = $1 AND t > now() - interval '1 minute'
         ORDER BY t DESC OFFSET $2 - 1 LIMIT 1`,
        [this.userId, limit],
      ),
    );
    return { admitted: false, retryAfterMs: Math.max(0, slot?.wait_ms ?? 0) };
  }
}
