import * as v from 'valibot';
import { announce } from './changes.ts';
import { baseVersion as baseVersionSchema, type Database, firstRow, int, shallowEnough } from './database.ts';
import { checkSize, type StorageLimits } from './limits.ts';

/**
 * One person's settings: one JSON document (the browser's settings record, which it reads field by field)
 * with a version, written like a conversation: from the version it was made from, or not at all.
 */

export type SettingsDocument = Record<string, unknown>;

export interface StoredSettings {
  version: number;
  change: number;
  document: SettingsDocument;
}

export type SettingsWrite =
  | { ok: true; version: number; change: number }
  | { ok: false; current: StoredSettings | undefined };

const settingsDocument = v.pipe(v.record(v.string(), v.unknown()), shallowEnough());

const settingsRow = v.pipe(
  v.object({ version: int, change: int, document: v.pipe(v.string(), v.parseJson(), settingsDocument) }),
  v.transform((row): StoredSettings => row),
);
const writtenRow = v.object({ version: int, change: int });

/** Known to the caller as `person.settings`: every statement names `userId`. */
export class Settings {
  constructor(
    private readonly db: Database,
    private readonly userId: string,
    private readonly limits: StorageLimits,
  ) {}

  async get(): Promise<StoredSettings | undefined> {
    return firstRow(
      settingsRow,
      await this.db.query('SELECT version, change, document FROM settings WHERE user_id = $1', [this.userId]),
    );
  }

  /** Writes `document` if the stored one is still at `baseVersion` (0: none stored yet). */
  async put(input: SettingsDocument, baseVersion: number): Promise<SettingsWrite> {
    v.parse(baseVersionSchema, baseVersion);
    const json = JSON.stringify(v.parse(settingsDocument, input));
    checkSize('settingsBytes', Buffer.byteLength(json), this.limits);
    return this.db.transaction(async (tx) => {
      const written = firstRow(
        writtenRow,
        baseVersion === 0
          ? await tx.query(
              `INSERT INTO settings (user_id, version, document) VALUES ($1, 1, $2)
               ON CONFLICT (user_id) DO NOTHING RETURNING version, change`,
              [this.userId, json],
            )
          : await tx.query(
              `UPDATE settings SET document = $2, version = version + 1, change = nextval('changes'), updated_at = now()
               WHERE user_id = $1 AND version = $3 RETURNING version, change`,
              [this.userId, json, baseVersion],
            ),
      );
      if (!written) {
        const current = firstRow(
          settingsRow,
          await tx.query('SELECT version, change, document FROM settings WHERE user_id = $1', [this.userId]),
        );
        return { ok: false, current };
      }
      await announce(tx, {
        userId: this.userId,
        kind: 'settings',
        id: this.userId,
        ...written,
        deleted: false,
      });
      return { ok: true, ...written };
    });
  }
}
