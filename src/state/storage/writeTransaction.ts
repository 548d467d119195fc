import { promisifyRequest, type UseStore } from 'idb-keyval';
import { mergeConversation } from '../domain/merge.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import {
  activeKey,
  conversationPrefix,
  deletedPrefix,
  type RecordingPart,
  readConversationRecord,
  readSettingsRecord,
  recentKey,
  requestPrefix,
  settingsKey,
  type Tombstone,
  type UnreadableRecord,
} from '../formats/records.ts';
import type { Settings } from '../stores/settingsStore.ts';
import {
  deleteRecording,
  putRecording,
  putRecordingPart,
  putRequest,
  setAside,
  withStored,
} from './database.ts';
import type { Base, SentTrace } from './knownState.ts';
import { attemptsOf, recordOf } from './storedConversation.ts';
import { joinBodies } from './storedRequests.ts';
import { asStoredSettings } from './storedSettings.ts';

/** A recording to write, and what is then known as sent. */
export interface TraceWrite {
  attempt: Attempt;
  /** The part of its recording to write (`putRecordingPart`); null: the whole of it, as one record. */
  part: RecordingPart | null;
  entry: SentTrace;
}

/** What one write stores: only what differs from what the database holds (`bases`). */
export interface Changes {
  changed: Conversation[];
  deletions: [string, Base][];
  /** Per conversation. */
  traces: Map<string, TraceWrite[]>;
  /** The settings fields this tab changed (none: null). */
  settings: Partial<Settings> | null;
  /** The active conversation, when it changed. */
  active: { id: string | null } | null;
  /** The conversations last worked on (`newestIds`), when they changed. */
  recent: string[] | null;
}

export interface Outcome {
  id: string;
  revision: number;
  /** What the record holds now: the conversation written (null: deleted). */
  stored: Conversation | null;
  /** The local copy the write started from. */
  local: Conversation | null;
}

export interface Written {
  outcomes: Outcome[];
  /** Unreadable records that stood in the way, copied aside first. */
  setAside: UnreadableRecord[];
  /** Another tab's request records that could not be read while joining its copy. */
  unreadable: UnreadableRecord[];
  /** The attempts whose request body the database now holds in a record of its own: written, or found. */
  bodies: Set<string>;
  /** The settings now stored (defaults filled in, in stored form), when they were written. */
  settings: Settings | null;
}

/**
 * Writes `changes` in one transaction, merge on write: each conversation record is read in the same
 * transaction, and if another tab stored a newer revision meanwhile, both copies are joined (`merge.ts`)
 * instead of overwritten. A conversation's record goes with the request bodies of its attempts that have
 * no record yet (`storedBodies`: those that have). A deletion leaves a tombstone and always wins,
 * recordings and bodies included. Throws when the transaction fails: then nothing of it was stored.
 */
export async function writeChanges(
  db: UseStore,
  changes: Changes,
  bases: ReadonlyMap<string, Base>,
  storedBodies: ReadonlySet<string>,
  now: number,
): Promise<Written> {
  const written: Written = { outcomes: [], setAside: [], unreadable: [], bodies: new Set(), settings: null };
  const { outcomes } = written;
  await db('readwrite', (store) => {
    const keep = (key: string, value: unknown, what: UnreadableRecord['what'], reason: string) => {
      written.setAside.push(setAside(store, key, value, what, reason, now));
    };
    const putTraces = (list: TraceWrite[] | undefined) => {
      for (const { attempt, part } of list ?? [])
        if (part) putRecordingPart(store, attempt.id, part);
        else putRecording(store, attempt.id, attempt.trace);
    };
    const putBodies = (content: Conversation) => {
      for (const { id, request } of attemptsOf(content))
        if (!request.bodyMissing && !storedBodies.has(id) && !written.bodies.has(id)) {
          putRequest(store, id, request.body);
          written.bodies.add(id);
        }
    };
    const deleteApart = (...copies: (Conversation | null | undefined)[]) => {
      for (const copy of copies)
        for (const attempt of copy ? attemptsOf(copy) : []) {
          deleteRecording(store, attempt.id);
          store.delete(requestPrefix + attempt.id);
        }
    };

    for (const local of changes.changed) {
      const base = bases.get(local.id);
      withStored(store, local.id, (value, tombstone, storedRevision) => {
        const next = Math.max(storedRevision, base?.revision ?? 0) + 1;
        if (tombstone !== undefined) {
          // Deleted in another tab: that wins, recordings and bodies included.
          deleteApart(local);
          outcomes.push({ id: local.id, revision: storedRevision, stored: null, local });
          return;
        }
        const write = (content: Conversation) => {
          store.put({ ...recordOf(content), revision: next }, conversationPrefix + local.id);
          putTraces(changes.traces.get(local.id));
          putBodies(content);
          outcomes.push({ id: local.id, revision: next, stored: content, local });
        };
        if (value === undefined) return write(local);
        const read = readConversationRecord(conversationPrefix + local.id, value);
        if (read.kind === 'unreadable') {
          keep(conversationPrefix + local.id, value, 'conversation', read.reason);
          return write(local);
        }
        if (base !== undefined && base.revision !== null && read.revision === base.revision)
          return write(local);
        // Another tab wrote it since this tab's copy was made: both copies joined, with that tab's bodies.
        joinBodies(store, read.conversation, local, (remote, found, unreadable) => {
          for (const id of found.keys()) written.bodies.add(id);
          written.unreadable.push(...unreadable);
          write(mergeConversation(local, remote, base?.conversation));
        });
      });
    }
    for (const [id, base] of changes.deletions) {
      withStored(store, id, (value, tombstone, storedRevision) => {
        if (tombstone === undefined) {
          const next = Math.max(storedRevision, base.revision ?? 0) + 1;
          let other: Conversation | null = null;
          if (value !== undefined) {
            const read = readConversationRecord(conversationPrefix + id, value);
            if (read.kind === 'unreadable') keep(conversationPrefix + id, value, 'conversation', read.reason);
            else other = read.conversation;
            store.delete(conversationPrefix + id);
          }
          store.put(
            { id, deleted: true, revision: next, deletedAt: now } satisfies Tombstone,
            deletedPrefix + id,
          );
          deleteApart(base.conversation, other);
          outcomes.push({ id, revision: next, stored: null, local: null });
        } else outcomes.push({ id, revision: storedRevision, stored: null, local: null });
      });
    }
    for (const [id, list] of changes.traces) if (!changes.changed.some((c) => c.id === id)) putTraces(list);
    const patch = changes.settings;
    if (patch) {
      const request = store.get(settingsKey);
      request.onsuccess = () => {
        const read = readSettingsRecord(request.result);
        if (read === null) keep(settingsKey, request.result, 'settings', 'not a settings record');
        // The fields this tab changed, on top of what is stored: other tabs' changes stay.
        const merged = { ...(read === null ? {} : (request.result as object)), ...patch };
        store.put(merged, settingsKey);
        written.settings = asStoredSettings(readSettingsRecord(merged)?.settings ?? {});
      };
    }
    if (changes.active) store.put(changes.active.id, activeKey);
    if (changes.recent) store.put(changes.recent, recentKey);
    return promisifyRequest(store.transaction);
  });
  return written;
}
