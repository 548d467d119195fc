import * as v from 'valibot';
import { clientId, type Database, firstRow, isClientId, rows } from './database.ts';
import { checkSize, type StorageLimits } from './limits.ts';

/**
 * One person's recordings of their streams: per attempt, the events the inspector shows and the body as
 * received, as the browser's trace record holds them (`src/state/formats/records.ts`). Apart from the
 * conversation, whose record stays small to write while an answer streams.
 */

interface RecordedItem {
  t: number;
  kind: 'event' | 'comment';
  event: string;
  data: string;
}

export interface Recording {
  items: RecordedItem[];
  raw: string;
}

export interface StoredRecording extends Recording {
  attemptId: string;
  conversationId: string;
}

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

/** Known to the caller as `person.recordings`: every statement names `userId`. */
export class Recordings {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
    private readonly limits: StorageLimits,
  ) {}

  /**
   * Stores (or replaces: a recording grows while its attempt streams) one attempt's recording. False: its
   * conversation was deleted, and nothing was stored.
   */
  async put(attemptId: string, conversationId: string, input: Recording): Promise<boolean> {
    v.parse(clientId, attemptId);
    v.parse(clientId, conversationId);
    const { items, raw } = v.parse(recording, input);
    const json = JSON.stringify({ items, raw });
    checkSize('recordingBytes', Buffer.byteLength(json), this.limits);
    const stored = await this.db.query(
      `INSERT INTO recordings (user_id, attempt_id, conversation_id, trace)
       SELECT $1::uuid, $2::text, $3::text, $4::text WHERE NOT EXISTS (
         SELECT 1 FROM conversations WHERE user_id = $1 AND id = $3 AND deleted_at IS NOT NULL
       )
       ON CONFLICT (user_id, attempt_id) DO UPDATE SET conversation_id = excluded.conversation_id, trace = excluded.trace
       RETURNING attempt_id`,
      [this.userId, attemptId, conversationId, json],
    );
    return stored.length > 0;
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
