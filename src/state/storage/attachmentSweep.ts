import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { Conversation } from '../domain/types.ts';
import { attachmentPrefix, attachmentUses } from './attachmentBlobs.ts';
import { prefixRange } from './database.ts';

/**
 * Blobs of files attached but never sent (a draft left in a closed tab) would pile up in the database:
 * at startup, those no stored message and no draft of this tab refers to go, once they are a day old.
 * Younger ones stay: another tab's draft may hold them, and its drafts cannot be seen from here.
 */

export const sweepAgeMs = 24 * 60 * 60 * 1000;

/** A blob in the database: its attachment id and when it was stored (null: not known, stored before that was kept). */
export interface StoredAttachment {
  id: string;
  storedAt: number | null;
}

/** The ids of `stored` to delete: not in use, and stored more than `sweepAgeMs` before `now` (or at an unknown time). */
export function attachmentsToSweep(
  stored: readonly StoredAttachment[],
  inUse: ReadonlySet<string>,
  now: number,
): string[] {
  return stored
    .filter(({ id, storedAt }) => !inUse.has(id) && (storedAt === null || now - storedAt > sweepAgeMs))
    .map(({ id }) => id);
}

/** How an attachment id looks (`newId('file')`), to find one in a record that could not be read. */
const attachmentIdPattern = /file_[0-9a-f]{16}/g;

/**
 * The attachments still wanted: those the conversations' messages refer to, those a draft holds, and any
 * id a record that could not be read mentions (it is kept as stored, so its files are too).
 */
export function attachmentsInUse(
  conversations: Iterable<Conversation>,
  unreadable: readonly { value: unknown }[],
  drafts: Iterable<string>,
): Set<string> {
  const inUse = new Set([...attachmentUses(conversations).keys(), ...drafts]);
  for (const { value } of unreadable)
    for (const [id] of (JSON.stringify(value) ?? '').matchAll(attachmentIdPattern)) inUse.add(id);
  return inUse;
}

/** Deletes the blobs `attachmentsToSweep` picks, in one transaction; returns how many went. */
export function sweepAttachments(db: UseStore, inUse: ReadonlySet<string>, now: number): Promise<number> {
  return db('readwrite', (store) => {
    const range = prefixRange(attachmentPrefix);
    const keys = store.getAllKeys(range);
    const values = store.getAll(range);
    let swept = 0;
    values.onsuccess = () => {
      const stored = keys.result.map((key, i): StoredAttachment => {
        const value: unknown = values.result[i];
        return {
          id: String(key).slice(attachmentPrefix.length),
          storedAt: value instanceof File ? value.lastModified : null,
        };
      });
      const sweep = attachmentsToSweep(stored, inUse, now);
      for (const id of sweep) store.delete(attachmentPrefix + id);
      swept = sweep.length;
    };
    return promisifyRequest(store.transaction).then(() => swept);
  });
}
