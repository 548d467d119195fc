import * as v from 'valibot';
import { announce } from './changes.ts';
import {
  baseVersion as baseVersionSchema,
  clientId,
  type Database,
  firstRow,
  int,
  isClientId,
  type Queryable,
  rows,
  shallowEnough,
  timestamp,
} from './database.ts';
import { checkSize, type StorageLimits } from './limits.ts';
import { searchPattern, searchTextOf } from './searchText.ts';

/**
 * One person's conversations. Each row has a version raised by every write: a write names the version it
 * was made from, and if the row has moved on since (another device wrote), nothing is written and the
 * current row comes back, for the client to merge with its per-field merge and write again. A deletion
 * keeps the row without its content (a tombstone), so the person's other devices learn of it and no
 * older copy brings the conversation back.
 */

/**
 * The browser's conversation record (`src/state/domain/types.ts`), as far as the server reads it: the
 * browser checks the rest when it reads the record back, and fields this version does not know are kept.
 */
const ms = v.pipe(v.number(), v.finite());
const conversationRecord = v.pipe(
  v.looseObject({
    id: clientId,
    title: v.string(),
    createdAt: ms,
    updatedAt: v.optional(ms),
    messages: v.array(v.unknown()),
  }),
  shallowEnough(),
);
export type ConversationRecord = v.InferOutput<typeof conversationRecord>;

function readConversationRecord(value: unknown): ConversationRecord {
  return v.parse(conversationRecord, value);
}

interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  version: number;
}

export type ConversationState =
  | (ConversationSummary & { deleted: false; change: number; record: ConversationRecord })
  | { deleted: true; id: string; version: number; change: number; deletedAt: Date };

export type WriteResult =
  | { ok: true; version: number; change: number }
  /** `current` undefined: the conversation is not stored (the base version named one that is not there). */
  | { ok: false; current: ConversationState | undefined };

/** Where a page ended: the next page starts after it. */
export interface PageCursor {
  updatedAt: number;
  id: string;
}

export interface Page {
  items: ConversationSummary[];
  /** Undefined on the last page. */
  next: PageCursor | undefined;
}

export interface ChangedConversation {
  id: string;
  version: number;
  change: number;
  deleted: boolean;
}

/**
 * Whether the person deleted this conversation: what would be kept with it (a file, a recording, a request
 * body) is then refused, as its deletion removed what there was.
 */
export async function isDeleted(q: Queryable, userId: string, conversationId: string): Promise<boolean> {
  const found = await q.query(
    'SELECT 1 FROM conversations WHERE user_id = $1 AND id = $2 AND deleted_at IS NOT NULL',
    [userId, conversationId],
  );
  return found.length > 0;
}

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;
const CHANGES_PAGE = 1_000;

const summaryRow = v.pipe(
  v.object({ id: v.string(), title: v.string(), created_ms: int, updated_ms: int, version: int }),
  v.transform(
    (row): ConversationSummary => ({
      id: row.id,
      title: row.title,
      createdAt: row.created_ms,
      updatedAt: row.updated_ms,
      version: row.version,
    }),
  ),
);

const stateRow = v.pipe(
  v.object({
    id: v.string(),
    title: v.string(),
    created_ms: int,
    updated_ms: int,
    version: int,
    change: int,
    deleted_at: v.nullable(timestamp),
    record: v.nullable(v.pipe(v.string(), v.parseJson(), conversationRecord)),
  }),
  v.transform((row): ConversationState => {
    if (row.deleted_at !== null || row.record === null)
      return {
        deleted: true,
        id: row.id,
        version: row.version,
        change: row.change,
        deletedAt: row.deleted_at ?? new Date(0),
      };
    return {
      deleted: false,
      id: row.id,
      title: row.title,
      createdAt: row.created_ms,
      updatedAt: row.updated_ms,
      version: row.version,
      change: row.change,
      record: row.record,
    };
  }),
);

const writtenRow = v.object({ version: int, change: int });
const changedRow = v.object({ id: v.string(), version: int, change: int, deleted: v.boolean() });

const summaryColumns = 'id, title, created_ms, updated_ms, version';
const countRow = v.object({ n: int });
const stateColumns = 'id, title, created_ms, updated_ms, version, change, deleted_at, record';

const pageSize = (limit: number | undefined) =>
  limit !== undefined && Number.isFinite(limit)
    ? Math.max(1, Math.min(MAX_PAGE, Math.floor(limit)))
    : DEFAULT_PAGE;

/** Known to the caller as `person.conversations`: every statement names `userId`. */
export class Conversations {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
    private readonly limits: StorageLimits,
  ) {}

  async get(id: string): Promise<ConversationState | undefined> {
    if (!isClientId(id)) return undefined;
    return firstRow(
      stateRow,
      await this.db.query(`SELECT ${stateColumns} FROM conversations WHERE user_id = $1 AND id = $2`, [
        this.userId,
        id,
      ]),
    );
  }

  /**
   * Writes `record` if the stored row is still at `baseVersion` (0: not stored yet). A deleted
   * conversation is never written again: the result then holds its tombstone.
   */
  async put(input: ConversationRecord, baseVersion: number): Promise<WriteResult> {
    v.parse(baseVersionSchema, baseVersion);
    const record = readConversationRecord(input);
    const json = JSON.stringify(record);
    checkSize('conversationBytes', Buffer.byteLength(json), this.limits);
    const title = record.title.replaceAll('\u0000', '');
    const values = [
      this.userId,
      record.id,
      title,
      Math.round(record.createdAt),
      Math.round(record.updatedAt ?? record.createdAt),
      json,
      searchTextOf(record.title, record.messages),
    ];
    return this.db.transaction(async (tx) => {
      const written = firstRow(
        writtenRow,
        baseVersion === 0
          ? await tx.query(
              `INSERT INTO conversations (user_id, id, version, title, created_ms, updated_ms, record, search_text)
               VALUES ($1, $2, 1, $3, $4, $5, $6, $7)
               ON CONFLICT (user_id, id) DO NOTHING
               RETURNING version, change`,
              values,
            )
          : await tx.query(
              `UPDATE conversations
               SET title = $3, created_ms = $4, updated_ms = $5, record = $6, search_text = $7,
                   version = version + 1, change = nextval('changes')
               WHERE user_id = $1 AND id = $2 AND version = $8 AND deleted_at IS NULL
               RETURNING version, change`,
              [...values, baseVersion],
            ),
      );
      if (!written) {
        const current = firstRow(
          stateRow,
          await tx.query(`SELECT ${stateColumns} FROM conversations WHERE user_id = $1 AND id = $2`, [
            this.userId,
            record.id,
          ]),
        );
        return { ok: false, current };
      }
      await announce(tx, {
        userId: this.userId,
        kind: 'conversation',
        id: record.id,
        ...written,
        deleted: false,
      });
      return { ok: true, ...written };
    });
  }

  /**
   * Deletes the conversation, with its files, recordings and request bodies (gone, not hidden: nothing of
   * it stays to be read by id), leaving its tombstone (also for an id not stored yet, so that a device that
   * still holds it does not upload it, nor any of its files, recordings or bodies). Undefined: it already
   * was deleted.
   */
  async delete(id: string): Promise<{ version: number; change: number } | undefined> {
    if (!isClientId(id)) return undefined;
    return this.db.transaction(async (tx) => {
      const written = firstRow(
        writtenRow,
        await tx.query(
          `INSERT INTO conversations (user_id, id, version, title, created_ms, updated_ms, deleted_at, record)
           VALUES ($1, $2, 1, '', $3, $3, now(), NULL)
           ON CONFLICT (user_id, id) DO UPDATE
             SET deleted_at = now(), record = NULL, title = '', search_text = '', updated_ms = $3,
                 version = conversations.version + 1, change = nextval('changes')
             WHERE conversations.deleted_at IS NULL
           RETURNING version, change`,
          [this.userId, id, Date.now()],
        ),
      );
      if (!written) return undefined;
      for (const table of ['attachments', 'recordings', 'request_bodies'])
        await tx.query(`DELETE FROM ${table} WHERE user_id = $1 AND conversation_id = $2`, [this.userId, id]);
      await announce(tx, { userId: this.userId, kind: 'conversation', id, ...written, deleted: true });
      return written;
    });
  }

  /** The conversations not deleted, most recently changed first, a page at a time. */
  async list(options: { limit?: number; after?: PageCursor } = {}): Promise<Page> {
    return this.page(options);
  }

  /** The conversations whose title or text holds `query` (as the sidebar's search matches), in list order. */
  async search(query: string, options: { limit?: number; after?: PageCursor } = {}): Promise<Page> {
    const pattern = searchPattern(query);
    if (pattern === null) return { items: [], next: undefined };
    return this.page(options, pattern);
  }

  /** How many conversations `search` finds in all, over every page: what the sidebar says matched. */
  async searchCount(query: string): Promise<number> {
    const pattern = searchPattern(query);
    if (pattern === null) return 0;
    const [row] = rows(
      countRow,
      await this.db.query(
        `SELECT count(*)::int AS n FROM conversations
         WHERE user_id = $1 AND deleted_at IS NULL AND search_text LIKE $2`,
        [this.userId, pattern],
      ),
    );
    return row?.n ?? 0;
  }

  /**
   * What changed after `change` (deletions included), in order, up to `CHANGES_PAGE` of them (ask again
   * from the last one for more): what a device that was away missed. Numbers are taken when a write
   * starts and rows appear when it commits, so one may appear behind a number already read: follow the
   * person's feed before reading, and it arrives there.
   */
  async changesSince(change: number): Promise<ChangedConversation[]> {
    v.parse(baseVersionSchema, change);
    return rows(
      changedRow,
      await this.db.query(
        `SELECT id, version, change, deleted_at IS NOT NULL AS deleted FROM conversations
         WHERE user_id = $1 AND change > $2 ORDER BY change LIMIT $3`,
        [this.userId, change, CHANGES_PAGE],
      ),
    );
  }

  private async page(
    { limit, after }: { limit?: number; after?: PageCursor },
    /** Only the conversations whose search text is `LIKE` it. */
    pattern?: string,
  ): Promise<Page> {
    const size = pageSize(limit);
    // A cursor is the client's to send back: one that no page can have ended on starts no page.
    if (after && !(isClientId(after.id) && Number.isSafeInteger(after.updatedAt)))
      return { items: [], next: undefined };
    // Keyset: the next page starts after the last row seen, so page 200 costs what page 1 does.
    const where = ['user_id = $1', 'deleted_at IS NULL'];
    const values: unknown[] = [this.userId, size + 1];
    if (after) {
      values.push(after.updatedAt, after.id);
      where.push(`(updated_ms, id) < ($${values.length - 1}, $${values.length})`);
    }
    if (pattern !== undefined) {
      values.push(pattern);
      where.push(`search_text LIKE $${values.length}`);
    }
    const found = rows(
      summaryRow,
      await this.db.query(
        `SELECT ${summaryColumns} FROM conversations WHERE ${where.join(' AND ')}
         ORDER BY updated_ms DESC, id DESC LIMIT $2`,
        values,
      ),
    );
    const items = found.slice(0, size);
    const last = items[items.length - 1];
    return {
      items,
      next: found.length > size && last ? { updatedAt: last.updatedAt, id: last.id } : undefined,
    };
  }
}
