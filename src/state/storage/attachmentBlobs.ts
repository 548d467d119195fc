import { delMany, get, promisifyRequest, setMany, type UseStore } from 'idb-keyval';
import { valuesOf } from '../domain/idRecord.ts';
import type { AttachmentRef, Conversation } from '../domain/types.ts';
import { type ConversationStore, touchedIds } from '../stores/conversationStore.ts';

/**
 * Where attachments' bytes live: one blob per attachment in the app's own database, under
 * `attachment:<id>`, apart from the conversation records (which hold only `AttachmentRef`s), so that a
 * conversation stays small to read and write while an answer streams.
 */

export const attachmentPrefix = 'attachment:';

/** A file to keep: its reference (as the message holds it) and its bytes. */
export interface NewAttachment {
  ref: AttachmentRef;
  blob: Blob;
}

export interface AttachmentBlobs {
  put(files: readonly NewAttachment[]): Promise<void>;
  /** The bytes of one attachment; undefined when they are not stored (never were, or deleted). */
  get(id: string): Promise<Blob | undefined>;
  remove(ids: readonly string[]): Promise<void>;
}

/** The blobs in IndexedDB (`openDatabase()`'s store). */
export function databaseAttachments(db: UseStore): AttachmentBlobs {
  return {
    // Kept as a File whose lastModified is when it was stored: the sweep (`attachmentSweep.ts`) leaves
    // young blobs alone, as another tab may be about to send them.
    put: (files) =>
      files.length
        ? setMany(
            files.map((f) => [
              attachmentPrefix + f.ref.id,
              new File([f.blob], f.ref.name, { type: f.blob.type, lastModified: Date.now() }),
            ]),
            db,
          )
        : Promise.resolve(),
    get: async (id) => {
      const value = await get<unknown>(attachmentPrefix + id, db);
      return value instanceof Blob ? value : undefined;
    },
    remove: (ids) =>
      ids.length
        ? delMany(
            ids.map((id) => attachmentPrefix + id),
            db,
          )
        : Promise.resolve(),
  };
}

/** The blobs in memory, for an app without a database (tests). */
export function memoryAttachments(): AttachmentBlobs {
  const blobs = new Map<string, Blob>();
  return {
    put: async (files) => {
      for (const f of files) blobs.set(f.ref.id, f.blob);
    },
    get: async (id) => blobs.get(id),
    remove: async (ids) => {
      for (const id of ids) blobs.delete(id);
    },
  };
}

/** Where an attachment is referred to first: its reference, conversation and message. */
export interface AttachmentUse {
  ref: AttachmentRef;
  conversationId: string;
  messageId: string;
}

/** Every attachment the conversations refer to, by id (an edited message shares its original's). */
export function attachmentUses(conversations: Iterable<Conversation>): Map<string, AttachmentUse> {
  const uses = new Map<string, AttachmentUse>();
  for (const conversation of conversations)
    for (const message of conversation.messages)
      if (message.role === 'user')
        for (const ref of message.attachments ?? [])
          if (!uses.has(ref.id))
            uses.set(ref.id, { ref, conversationId: conversation.id, messageId: message.id });
  return uses;
}

/**
 * The attachments only conversations that are gone referred to: their blobs can go too. `ids`: those that
 * may have gone (`touchedIds`).
 */
export function orphanedAttachments(
  previous: Record<string, Conversation>,
  next: Record<string, Conversation>,
  ids: readonly string[],
): string[] {
  const gone: Conversation[] = [];
  for (const id of ids) if (previous[id] && !next[id]) gone.push(previous[id]);
  if (gone.length === 0) return [];
  const kept = attachmentUses(valuesOf(next));
  return [...attachmentUses(gone).keys()].filter((id) => !kept.has(id));
}

/**
 * Deletes the blobs of deleted conversations (here or in another tab) that no remaining conversation
 * refers to. Returns the unsubscribe function.
 */
export function deleteOrphanedAttachments(
  conversations: ConversationStore,
  blobs: AttachmentBlobs,
): () => void {
  return conversations.subscribe((state, previous) => {
    if (state.conversations === previous.conversations || !previous.hydrated) return;
    const orphans = orphanedAttachments(
      previous.conversations,
      state.conversations,
      touchedIds(state, previous),
    );
    if (orphans.length)
      blobs.remove(orphans).catch((error: unknown) => console.warn('Could not delete attachments', error));
  });
}

/** The stored blobs of `ids` (those missing left out), for a backup. */
export async function readAttachmentBlobs(db: UseStore, ids: readonly string[]): Promise<Map<string, Blob>> {
  const found = new Map<string, Blob>();
  await db('readonly', (store) => {
    for (const id of ids) {
      const request = store.get(attachmentPrefix + id);
      request.onsuccess = () => {
        if (request.result instanceof Blob) found.set(id, request.result);
      };
    }
    return promisifyRequest(store.transaction);
  });
  return found;
}

/**
 * Stores the blobs this database lacks, in one transaction; one already here is left as it is (an
 * attachment's bytes never change under its id). Returns how many were written and kept.
 */
export async function writeMissingAttachments(
  db: UseStore,
  files: readonly { id: string; blob: Blob }[],
): Promise<{ written: number; kept: number }> {
  const counts = { written: 0, kept: 0 };
  await db('readwrite', (store) => {
    for (const { id, blob } of files) {
      const key = attachmentPrefix + id;
      const request = store.getKey(key);
      request.onsuccess = () => {
        if (request.result === undefined) {
          store.put(blob, key);
          counts.written++;
        } else counts.kept++;
      };
    }
    return promisifyRequest(store.transaction);
  });
  return counts;
}
