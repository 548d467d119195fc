import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { isDeleted } from './conversations.ts';
import {
  clientId,
  type Database,
  firstRow,
  int,
  isClientId,
  type Refused,
  rows,
  timestamp,
} from './database.ts';
import { checkSize, type StorageLimits } from './limits.ts';

/**
 * One person's attached files, bytes in the database (bytea) beside the conversations that name them:
 * several server processes need no shared disk, one `pg_dump` backs up everything, and a conversation's
 * deletion removes its files in the same transaction. The SHA-256 makes an upload repeated after a lost
 * answer a no-op instead of a second copy, and tells it apart from a different file under the same id.
 */

export interface AttachmentInfo {
  id: string;
  conversationId: string;
  name: string;
  mimeType: string;
  size: number;
  /** Hex. */
  sha256: string;
  createdAt: Date;
}

export interface NewAttachment {
  id: string;
  conversationId: string;
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

export type AttachmentWrite = { ok: true; info: AttachmentInfo } | Refused;

/** A stored file: what is known of it, and its bytes. */
export interface AttachmentFile {
  info: AttachmentInfo;
  bytes: Uint8Array;
}

const newAttachment = v.object({
  id: clientId,
  conversationId: clientId,
  name: v.pipe(v.string(), v.maxLength(1_000)),
  // `type/subtype` of HTTP's token characters, lower case: it is sent back as a header when the file is read.
  mimeType: v.pipe(
    v.string(),
    v.maxLength(200),
    v.regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/, 'a media type such as image/png or text/plain'),
  ),
  bytes: v.instance(Uint8Array),
});

const infoEntries = {
  id: v.string(),
  conversation_id: v.string(),
  name: v.string(),
  mime_type: v.string(),
  size: int,
  sha256: v.instance(Uint8Array),
  created_at: timestamp,
};
const toInfo = (row: v.InferOutput<v.ObjectSchema<typeof infoEntries, undefined>>): AttachmentInfo => ({
  id: row.id,
  conversationId: row.conversation_id,
  name: row.name,
  mimeType: row.mime_type,
  size: row.size,
  sha256: Buffer.from(row.sha256).toString('hex'),
  createdAt: row.created_at,
});
const infoRow = v.pipe(v.object(infoEntries), v.transform(toInfo));
const fileRow = v.pipe(
  v.object({ ...infoEntries, bytes: v.instance(Uint8Array) }),
  v.transform((row): AttachmentFile => ({ info: toInfo(row), bytes: row.bytes })),
);

const infoColumns = 'id, conversation_id, name, mime_type, size, sha256, created_at';

/** Known to the caller as `person.attachments`: every statement names `userId`. */
export class Attachments {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
    private readonly limits: StorageLimits,
  ) {}

  /** Stores the file under its id; storing the same bytes again under the same id changes nothing. */
  async put(input: NewAttachment): Promise<AttachmentWrite> {
    const file = v.parse(newAttachment, input);
    checkSize('attachmentBytes', file.bytes.byteLength, this.limits);
    const sha256 = createHash('sha256').update(file.bytes).digest();
    return this.db.transaction(async (tx) => {
      if (await isDeleted(tx, this.userId, file.conversationId)) return { ok: false, reason: 'deleted' };
      await tx.query(
        `INSERT INTO attachments (user_id, id, conversation_id, name, mime_type, size, sha256, bytes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_id, id) DO NOTHING`,
        [
          this.userId,
          file.id,
          file.conversationId,
          file.name.replaceAll('\u0000', ''),
          file.mimeType,
          file.bytes.byteLength,
          sha256,
          file.bytes,
        ],
      );
      const info = firstRow(
        infoRow,
        await tx.query(`SELECT ${infoColumns} FROM attachments WHERE user_id = $1 AND id = $2`, [
          this.userId,
          file.id,
        ]),
      );
      if (!info) throw new Error('the attachment was not stored');
      return info.sha256 === sha256.toString('hex') ? { ok: true, info } : { ok: false, reason: 'different' };
    });
  }

  async info(id: string): Promise<AttachmentInfo | undefined> {
    if (!isClientId(id)) return undefined;
    return firstRow(
      infoRow,
      await this.db.query(`SELECT ${infoColumns} FROM attachments WHERE user_id = $1 AND id = $2`, [
        this.userId,
        id,
      ]),
    );
  }

  /** The file with its bytes, read at once (a deletion in between cannot split them). */
  async file(id: string): Promise<AttachmentFile | undefined> {
    if (!isClientId(id)) return undefined;
    return firstRow(
      fileRow,
      await this.db.query(`SELECT ${infoColumns}, bytes FROM attachments WHERE user_id = $1 AND id = $2`, [
        this.userId,
        id,
      ]),
    );
  }

  async ofConversation(conversationId: string): Promise<AttachmentInfo[]> {
    if (!isClientId(conversationId)) return [];
    return rows(
      infoRow,
      await this.db.query(
        `SELECT ${infoColumns} FROM attachments WHERE user_id = $1 AND conversation_id = $2 ORDER BY created_at, id`,
        [this.userId, conversationId],
      ),
    );
  }

  /** Whether there was such a file. */
  async delete(id: string): Promise<boolean> {
    if (!isClientId(id)) return false;
    const gone = await this.db.query('DELETE FROM attachments WHERE user_id = $1 AND id = $2 RETURNING id', [
      this.userId,
      id,
    ]);
    return gone.length > 0;
  }
}
