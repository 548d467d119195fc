import * as v from 'valibot';
import { isDeleted } from './conversations.ts';
import {
  clientId,
  type Database,
  firstRow,
  isClientId,
  type Refused,
  rows,
  shallowEnough,
  type Transaction,
} from './database.ts';
import { checkSize, type StorageLimits } from './limits.ts';

/**
 * One person's records of their attempts, apart from the conversation (whose record stays small to write
 * while an answer streams), as the browser's own records hold them (`src/state/formats/records.ts`): the
 * recording of each stream (the events the inspector shows and the body as received) and the body each
 * request sent. Neither is ever rewritten: a request body is written once, a recording only grows (its
 * attempt may still be streaming when it is first saved). What would change either is refused, so no
 * device's copy overwrites another's. Both go with their conversation when it is deleted.
 */

interface RecordedItem {
  t: number;
  kind: 'event' | 'comment';
  event: string;
  data: string;
}

interface Recording {
  items: RecordedItem[];
  raw: string;
}

export interface StoredRecording extends Recording {
  attemptId: string;
  conversationId: string;
}

/** A write of a recording or a request body: stored (or already stored, the same), or refused. */
type OnceWrite = { ok: true } | Refused;

/** A predicate, not an object schema: a recording holds up to 20,000 items, checked on every read. */
const item = v.custom<RecordedItem>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RecordedItem).t === 'number' &&
    Number.isFinite((value as RecordedItem).t) &&
    ((value as RecordedItem).kind === 'event' || (value as RecordedItem).kind === 'comment') &&
    typeof (value as RecordedItem).event === 'string' &&
    typeof (value as RecordedItem).data === 'string',
  'a recorded event or comment',
);
const recording = v.object({ items: v.array(item), raw: v.string() });

const recordingRow = v.pipe(
  v.object({
    attempt_id: v.string(),
    conversation_id: v.string(),
    trace: v.pipe(v.string(), v.parseJson(), recording),
  }),
  v.transform(
    (row): StoredRecording => ({
      attemptId: row.attempt_id,
      conversationId: row.conversation_id,
      items: row.trace.items,
      raw: row.trace.raw,
    }),
  ),
);

/** Whether `next` is `stored` with more after it: every event and byte stored, in place. */
function grows(stored: Recording, next: Recording): boolean {
  return (
    next.items.length >= stored.items.length &&
    next.raw.startsWith(stored.raw) &&
    stored.items.every((was, i) => {
      const now = next.items[i];
      return now?.t === was.t && now.kind === was.kind && now.event === was.event && now.data === was.data;
    })
  );
}

/** Where each kind of an attempt's records is kept, and the limit of its size. */
const kept = {
  recording: { table: 'recordings', column: 'trace', limit: 'recordingBytes' },
  request: { table: 'request_bodies', column: 'body', limit: 'requestBytes' },
} as const;

/**
 * Stores `json` as the attempt's record of `kind` if it has none; if it has, `compare` says whether the
 * write stands, in the same transaction. A deleted conversation takes nothing.
 */
function writeOnce(
  db: Database,
  userId: string,
  limits: StorageLimits,
  write: { kind: keyof typeof kept; attemptId: string; conversationId: string; json: string },
  compare: (tx: Transaction) => Promise<OnceWrite>,
): Promise<OnceWrite> {
  const { kind, attemptId, conversationId, json } = write;
  v.parse(clientId, attemptId);
  v.parse(clientId, conversationId);
  const { table, column, limit } = kept[kind];
  checkSize(limit, Buffer.byteLength(json), limits);
  return db.transaction(async (tx) => {
    if (await isDeleted(tx, userId, conversationId)) return { ok: false, reason: 'deleted' };
    const inserted = await tx.query(
      `INSERT INTO ${table} (user_id, attempt_id, conversation_id, ${column}) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, attempt_id) DO NOTHING RETURNING attempt_id`,
      [userId, attemptId, conversationId, json],
    );
    return inserted.length > 0 ? { ok: true } : compare(tx);
  });
}

/** Known to the caller as `person.recordings`: every statement names `userId`. */
export class Recordings {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
    private readonly limits: StorageLimits,
  ) {}

  /**
   * Stores one attempt's recording, or the same one grown (more events, more bytes after those stored):
   * its attempt went on streaming. A recording that differs from the stored one in what both hold, or
   * names another conversation, is refused (`different`). `input` is checked here: it is what a request sent.
   */
  async put(attemptId: string, conversationId: string, input: unknown): Promise<OnceWrite> {
    const next = v.parse(recording, input);
    const json = JSON.stringify(next);
    const write = { kind: 'recording', attemptId, conversationId, json } as const;
    return writeOnce(this.db, this.userId, this.limits, write, async (tx) => {
      // Locked until this write commits: two devices' copies growing at once are compared one after the other.
      const stored = firstRow(
        recordingRow,
        await tx.query(
          'SELECT attempt_id, conversation_id, trace FROM recordings WHERE user_id = $1 AND attempt_id = $2 FOR UPDATE',
          [this.userId, attemptId],
        ),
      );
      if (!stored) throw new Error('the recording was not stored');
      if (stored.conversationId !== conversationId || !grows(stored, next))
        return { ok: false, reason: 'different' };
      await tx.query('UPDATE recordings SET trace = $3 WHERE user_id = $1 AND attempt_id = $2', [
        this.userId,
        attemptId,
        json,
      ]);
      return { ok: true };
    });
  }

  async get(attemptId: string): Promise<StoredRecording | undefined> {
    if (!isClientId(attemptId)) return undefined;
    return firstRow(
      recordingRow,
      await this.db.query(
        'SELECT attempt_id, conversation_id, trace FROM recordings WHERE user_id = $1 AND attempt_id = $2',
        [this.userId, attemptId],
      ),
    );
  }

  /** The attempts of a conversation that have a recording. */
  async ofConversation(conversationId: string): Promise<string[]> {
    if (!isClientId(conversationId)) return [];
    const found = rows(
      v.object({ attempt_id: v.string() }),
      await this.db.query(
        'SELECT attempt_id FROM recordings WHERE user_id = $1 AND conversation_id = $2 ORDER BY attempt_id',
        [this.userId, conversationId],
      ),
    );
    return found.map((row) => row.attempt_id);
  }

  async delete(attemptId: string): Promise<boolean> {
    if (!isClientId(attemptId)) return false;
    const gone = await this.db.query(
      'DELETE FROM recordings WHERE user_id = $1 AND attempt_id = $2 RETURNING attempt_id',
      [this.userId, attemptId],
    );
    return gone.length > 0;
  }
}

/** An attempt's request body: a JSON object, as the browser's `request:<attemptId>` record holds it. */
type RequestBody = Record<string, unknown>;

const isObject = (value: unknown): value is RequestBody =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const requestBody = v.pipe(v.custom<RequestBody>(isObject, 'a JSON object'), shallowEnough());
const bodyRow = v.object({ body: v.pipe(v.string(), v.parseJson(), v.custom<RequestBody>(isObject)) });
const sameRow = v.object({ conversation_id: v.string(), same: v.boolean() });

/** Known to the caller as `person.requests`: every statement names `userId`. */
export class RequestBodies {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
    private readonly limits: StorageLimits,
  ) {}

  /**
   * Stores the body an attempt sent, once: the same body again changes nothing; another body for the
   * attempt, or another conversation, is refused (`different`). `input` is checked here: it is what a
   * request sent.
   */
  async put(attemptId: string, conversationId: string, input: unknown): Promise<OnceWrite> {
    const json = JSON.stringify(v.parse(requestBody, input));
    const write = { kind: 'request', attemptId, conversationId, json } as const;
    return writeOnce(this.db, this.userId, this.limits, write, async (tx) => {
      const stored = firstRow(
        sameRow,
        await tx.query(
          'SELECT conversation_id, body = $3 AS same FROM request_bodies WHERE user_id = $1 AND attempt_id = $2',
          [this.userId, attemptId, json],
        ),
      );
      if (!stored) throw new Error('the request body was not stored');
      return stored.same && stored.conversation_id === conversationId
        ? { ok: true }
        : { ok: false, reason: 'different' };
    });
  }

  async get(attemptId: string): Promise<RequestBody | undefined> {
    if (!isClientId(attemptId)) return undefined;
    return firstRow(
      bodyRow,
      await this.db.query('SELECT body FROM request_bodies WHERE user_id = $1 AND attempt_id = $2', [
        this.userId,
        attemptId,
      ]),
    )?.body;
  }
}
