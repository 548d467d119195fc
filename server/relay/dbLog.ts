import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { RelayItem } from '../../src/core/index.ts';
import { type Database, firstRow, rows } from '../db/database.ts';
import { type Ending, outcomes } from './events.ts';
import type { AnswerKey, Follow, SharedLog } from './relay.ts';

/**
 * Team mode's relay log in the database (PostgreSQL or PGlite), so that any server process serves a
 * resume and a stop. The process running an answer writes its events in batches, every `flushMs` (one
 * statement for every answer it runs, never one per piece), and announces each batch on one channel; a
 * process with a page following an answer it does not run reads what is new when it hears. Every process
 * says it is alive every `heartbeatMs`: an answer whose process has been quiet for `staleMs` is `lost`
 * for its readers. Ended answers are deleted once their time is up (`sweepMs`).
 */

const relayChannel = 'hopbase_relay';

export interface DbLogOptions {
  log: (line: string) => void;
  /** How long an ended answer no page has stored is kept, and an answer a page has stored. */
  keepMs: number;
  graceMs: number;
  heartbeatMs: number;
  staleMs: number;
  flushMs?: number;
  sweepMs?: number;
}

const FLUSH_MS = 50;
const SWEEP_MS = 60_000;
/** NOTIFY's payload is at most 8000 bytes: announcements are split well below it. */
const MAX_PAYLOAD = 7_000;

const eventSchema = v.variant('kind', [
  v.object({ id: v.number(), kind: v.literal('piece'), t: v.number(), text: v.string() }),
  v.object({
    id: v.number(),
    kind: v.literal('end'),
    outcome: v.picklist(outcomes),
    message: v.optional(v.string()),
  }),
]);
const batchRow = v.object({ events: v.pipe(v.string(), v.parseJson(), v.array(eventSchema)) });
const answerRow = v.object({
  outcome: v.nullable(v.picklist(outcomes)),
  message: v.nullable(v.string()),
  alive: v.boolean(),
  last: v.number(),
});
const notice = v.pipe(
  v.string(),
  v.parseJson(),
  v.union([
    v.object({ e: v.array(v.tuple([v.string(), v.string()])) }),
    v.object({ s: v.tuple([v.string(), v.string()]) }),
  ]),
);

const keyOf = ({ owner, attemptId }: AnswerKey) => `${owner}\0${attemptId}`;

interface Follower {
  key: AnswerKey;
  /** The last event handed over. */
  last: number;
  on: Follow;
  reading: boolean;
  again: boolean;
  done: boolean;
}

export class DbLog implements SharedLog {
  private readonly runner = randomUUID();
  private pending = new Map<string, { key: AnswerKey; events: RelayItem[] }>();
  private flushTimer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly followers = new Map<string, Set<Follower>>();
  private stopHandler: (key: AnswerKey) => void = () => {};
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | undefined;
  private readonly staleMs: number;

  constructor(
    private readonly db: Database,
    private readonly options: DbLogOptions,
  ) {
    this.staleMs = options.staleMs;
  }

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(relayChannel, {
      message: (text) => this.hear(text),
      reconnected: () => this.readAll(),
    });
    await this.beat();
    const every = (ms: number, work: () => Promise<void>) => {
      const timer = setInterval(() => {
        work().catch((error: unknown) => this.options.log(`relay: ${(error as Error).message}`));
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs, async () => {
      await this.beat();
      // Readers here learn of a process gone quiet, and of anything an announcement missed.
      this.readAll();
    });
    every(this.options.sweepMs ?? SWEEP_MS, () => this.sweep());
    await this.sweep();
  }

  onStop(handler: (key: AnswerKey) => void): void {
    this.stopHandler = handler;
  }

  async claim(key: AnswerKey, conversationId: string): Promise<boolean> {
    const found = await this.db.query(
      `INSERT INTO relay_answers (user_id, attempt_id, conversation_id, runner) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [key.owner, key.attemptId, conversationId, this.runner],
    );
    return found.length === 1;
  }

  async unclaim(key: AnswerKey): Promise<void> {
    await this.db
      .query(
        'DELETE FROM relay_answers WHERE user_id = $1 AND attempt_id = $2 AND runner = $3 AND outcome IS NULL',
        [key.owner, key.attemptId, this.runner],
      )
      .catch((error: unknown) => this.options.log(`relay: could not free an attempt id (${String(error)})`));
  }

  write(key: AnswerKey, event: RelayItem): void {
    const k = keyOf(key);
    let entry = this.pending.get(k);
    if (!entry) {
      entry = { key, events: [] };
      this.pending.set(k, entry);
    }
    entry.events.push(event);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flushed();
    }, this.options.flushMs ?? FLUSH_MS);
  }

  /** Writes what is pending (after any write under way), and resolves once it is committed. */
  flushed(): Promise<void> {
    this.chain = this.chain.then(() => this.flush());
    return this.chain;
  }

  async follow(key: AnswerKey, after: number, on: Follow): Promise<(() => void) | undefined> {
    const follower: Follower = { key, last: after, on, reading: false, again: false, done: false };
    const k = keyOf(key);
    // Listening first, then reading: an announcement during the read makes it read again.
    let set = this.followers.get(k);
    if (!set) {
      set = new Set();
      this.followers.set(k, set);
    }
    set.add(follower);
    const remove = () => {
      follower.done = true;
      const current = this.followers.get(k);
      current?.delete(follower);
      if (current?.size === 0) this.followers.delete(k);
    };
    try {
      if (await this.read(follower)) return remove;
    } catch (error) {
      remove();
      throw error;
    }
    remove();
    return undefined;
  }

  async stop(key: AnswerKey): Promise<Ending | undefined> {
    const answer = await this.answer(key);
    if (!answer) return undefined;
    if (answer.outcome) return { outcome: answer.outcome };
    if (!answer.alive) return { outcome: 'lost' };
    // The process that runs it hears this and stops it; its end comes back the way every event does.
    return new Promise<Ending | undefined>((resolve) => {
      let unfollow: (() => void) | undefined;
      const timer = setTimeout(() => settle({ outcome: 'stopped' }), 10_000);
      const settle = (ending: Ending) => {
        clearTimeout(timer);
        unfollow?.();
        resolve(ending);
      };
      this.follow(key, answer.last, (event) => {
        if (event.kind === 'end') settle({ outcome: event.outcome });
      })
        .then((stop) => {
          unfollow = stop;
          return this.db.query('SELECT pg_notify($1, $2)', [
            relayChannel,
            JSON.stringify({ s: [key.owner, key.attemptId] }),
          ]);
        })
        .catch(() => settle({ outcome: 'stopped' }));
    });
  }

  async forget(key: AnswerKey, graceMs: number): Promise<boolean> {
    const found = await this.db.query(
      `UPDATE relay_answers SET acknowledged = true,
         forget_at = CASE WHEN outcome IS NULL THEN NULL
           ELSE LEAST(forget_at, now() + $3::bigint * interval '1 millisecond') END
       WHERE user_id = $1 AND attempt_id = $2 RETURNING 1`,
      [key.owner, key.attemptId, graceMs],
    );
    return found.length === 1;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.flushTimer);
    await this.flushed().catch(() => {});
    for (const set of this.followers.values()) for (const follower of set) follower.done = true;
    this.followers.clear();
    await this.unlisten?.();
    // Nothing runs here any more (the relay ended what did): this process need not be watched.
    await this.db.query('DELETE FROM relay_runners WHERE id = $1', [this.runner]).catch(() => {});
  }

  private async beat(): Promise<void> {
    await this.db.query(
      'INSERT INTO relay_runners (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()',
      [this.runner],
    );
  }

  /** Forgets the answers whose time is up, and those of processes quiet for longer than answers are kept. */
  private async sweep(): Promise<void> {
    const { keepMs } = this.options;
    await this.db.query(
      `DELETE FROM relay_answers a WHERE a.forget_at < now()
         OR (a.outcome IS NULL AND NOT EXISTS (SELECT 1 FROM relay_runners r
               WHERE r.id = a.runner AND r.seen_at > now() - $1::bigint * interval '1 millisecond'))`,
      [keepMs],
    );
    await this.db.query(
      "DELETE FROM relay_runners WHERE seen_at < now() - $1::bigint * interval '1 millisecond'",
      [keepMs],
    );
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const { keepMs, graceMs } = this.options;
    const columns: [string[], string[], number[], number[], string[]] = [[], [], [], [], []];
    const ends: [string[], string[], string[], (string | null)[]] = [[], [], [], []];
    for (const { key, events } of batch) {
      columns[0].push(key.owner);
      columns[1].push(key.attemptId);
      columns[2].push(events[0]?.id ?? 0);
      columns[3].push(events.at(-1)?.id ?? 0);
      columns[4].push(JSON.stringify(events));
      const end = events.at(-1);
      if (end?.kind === 'end') {
        ends[0].push(key.owner);
        ends[1].push(key.attemptId);
        ends[2].push(end.outcome);
        ends[3].push(end.message ?? null);
      }
    }
    try {
      await this.db.transaction(async (tx) => {
        // Only for answers still there (one forgotten meanwhile takes no more).
        await tx.query(
          `INSERT INTO relay_events (user_id, attempt_id, first_id, last_id, events)
           SELECT e.* FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::text[])
             AS e (user_id, attempt_id, first_id, last_id, events)
           JOIN relay_answers a USING (user_id, attempt_id)`,
          columns,
        );
        if (ends[0].length > 0)
          await tx.query(
            `UPDATE relay_answers a SET outcome = e.outcome, message = e.message,
               forget_at = now() + CASE WHEN a.acknowledged THEN $5::bigint ELSE $6::bigint END * interval '1 millisecond'
             FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS e (user_id, attempt_id, outcome, message)
             WHERE a.user_id = e.user_id AND a.attempt_id = e.attempt_id`,
            [...ends, graceMs, keepMs],
          );
        for (const payload of announcements(batch.map(({ key }) => [key.owner, key.attemptId])))
          await tx.notify(relayChannel, payload);
      });
    } catch (error) {
      this.options.log(`relay: could not write answers' events (${(error as Error).message}); trying again`);
      // Back at the front, before anything newer: the next flush writes them in order.
      const newer = this.pending;
      this.pending = new Map(batch.map((entry) => [keyOf(entry.key), entry]));
      for (const [k, entry] of newer) {
        const older = this.pending.get(k);
        if (older) older.events.push(...entry.events);
        else this.pending.set(k, entry);
      }
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = undefined;
        void this.flushed();
      }, this.options.flushMs ?? FLUSH_MS);
    }
  }

  private hear(text: string): void {
    const read = v.safeParse(notice, text);
    if (!read.success) return;
    if ('s' in read.output) {
      const [owner, attemptId] = read.output.s;
      this.stopHandler({ owner, attemptId });
      return;
    }
    for (const [owner, attemptId] of read.output.e)
      for (const follower of this.followers.get(keyOf({ owner, attemptId })) ?? [])
        void this.readSafely(follower);
  }

  private readAll(): void {
    for (const set of this.followers.values()) for (const follower of set) void this.readSafely(follower);
  }

  private async readSafely(follower: Follower): Promise<void> {
    await this.read(follower).catch((error: unknown) =>
      this.options.log(`relay: could not read an answer's events (${(error as Error).message})`),
    );
  }

  private async answer(key: AnswerKey) {
    return firstRow(
      answerRow,
      await this.db.query(
        `SELECT a.outcome, a.message,
           EXISTS (SELECT 1 FROM relay_runners r
             WHERE r.id = a.runner AND r.seen_at > now() - $3::bigint * interval '1 millisecond') AS alive,
           COALESCE((SELECT max(last_id) FROM relay_events e
             WHERE e.user_id = a.user_id AND e.attempt_id = a.attempt_id), 0) AS last
         FROM relay_answers a WHERE a.user_id = $1 AND a.attempt_id = $2`,
        [key.owner, key.attemptId, this.staleMs],
      ),
    );
  }

  /**
   * Hands the follower what is new since its last event: false when there is no such answer. One read at
   * a time per follower; news during a read makes it read again after.
   */
  private async read(follower: Follower): Promise<boolean> {
    if (follower.reading) {
      follower.again = true;
      return true;
    }
    follower.reading = true;
    try {
      do {
        follower.again = false;
        if (follower.done) return true;
        // The answer first: an answer seen running whose events are read after may have ended meanwhile,
        // never the other way round.
        const answer = await this.answer(follower.key);
        if (!answer) return false;
        const batches = rows(
          batchRow,
          await this.db.query(
            `SELECT events FROM relay_events WHERE user_id = $1 AND attempt_id = $2
               AND (last_id > $3 OR first_id = (SELECT max(first_id) FROM relay_events
                 WHERE user_id = $1 AND attempt_id = $2)) ORDER BY first_id`,
            [follower.key.owner, follower.key.attemptId, follower.last],
          ),
        );
        // Each event once, in order; the end whatever its id (a reader that named it, or one beyond it).
        for (const { events } of batches)
          for (const event of events) {
            if (follower.done || (event.id !== follower.last + 1 && event.kind !== 'end')) continue;
            follower.last = Math.max(follower.last, event.id);
            follower.on(event as RelayItem);
            if (event.kind === 'end') follower.done = true;
          }
        if (!follower.done && answer.outcome === null && !answer.alive) {
          follower.done = true;
          follower.on({
            id: follower.last + 1,
            kind: 'end',
            outcome: 'lost',
            message: 'The server process that ran this answer ended before the answer did.',
          });
        }
      } while (follower.again && !follower.done);
      return true;
    } finally {
      follower.reading = false;
    }
  }
}

/** `{"e": [[owner, attempt], …]}` payloads, each under NOTIFY's limit. */
function announcements(keys: [string, string][]): string[] {
  const payloads: string[] = [];
  let current: [string, string][] = [];
  let size = 0;
  for (const key of keys) {
    const length = key[0].length + key[1].length * 6 + 10;
    if (size + length > MAX_PAYLOAD && current.length > 0) {
      payloads.push(JSON.stringify({ e: current }));
      current = [];
      size = 0;
    }
    current.push(key);
    size += length;
  }
  if (current.length > 0) payloads.push(JSON.stringify({ e: current }));
  return payloads;
}
