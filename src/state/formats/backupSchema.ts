import * as v from 'valibot';
import { aString, fields, onlyFields } from './validation.ts';

/**
 * A backup file (`backup.ts` makes and reads it) as valibot schemas. Its head decides whether it is read
 * at all: each of its messages is the code of the refusal (`BackupRefusal`). Its entries are then read one
 * by one, a damaged one reported while the rest is restored: the conversations as stored records are
 * (`recordSchemas.ts`), the settings as the settings record (`settingsSchema.ts`), the attachments here.
 */

export const backupFormat = 'hopbase-chat-backup';
export const backupVersion = 1;

/** The version of the app that made the file, when it says. */
export const madeBy = v.fallback(
  v.nullable(
    v.pipe(
      v.looseObject({ version: v.string() }),
      v.transform((app) => app.version),
    ),
  ),
  null,
);

export const backupHead = onlyFields(
  {
    format: v.literal(backupFormat, 'not_backup'),
    version: v.pipe(
      v.number('no_version'),
      v.safeInteger('no_version'),
      v.minValue(1, 'no_version'),
      v.maxValue(backupVersion, 'newer_version'),
    ),
    conversations: v.array(v.unknown(), 'no_conversations'),
    createdAt: v.fallback(v.nullable(v.string()), null),
    app: madeBy,
    // Read entry by entry: a damaged one is reported, not a reason to refuse the file.
    attachments: v.optional(v.unknown()),
    settings: v.optional(v.unknown()),
  },
  'not_backup',
);

export const attachmentList = v.array(v.unknown(), 'a list');

/** What a conversation entry needs before it is read as a stored record: an id (its record's key). */
export const conversationEntry = fields({ id: v.pipe(aString, v.nonEmpty('a string')) });

const byteCount = 'a number of bytes';

/** An attachment: its bytes (`data`, base64) are then checked against its size. */
export const attachmentEntry = fields({
  id: v.pipe(aString, v.nonEmpty('a string')),
  type: aString,
  size: v.pipe(v.number(byteCount), v.safeInteger(byteCount), v.minValue(0, byteCount)),
  data: v.optional(v.unknown()),
});
