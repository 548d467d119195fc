import { promisifyRequest, type UseStore } from 'idb-keyval';
import { mergeConversation } from '../merge.ts';
import {
  activeKey,
  conversationPrefix,
  deletedPrefix,
  readConversationRecord,
  readSettingsRecord,
  settingsKey,
  type Tombstone,
  tracePrefix,
  type UnreadableRecord,
} from '../records.ts';
import type { Settings } from '../settingsStore.ts';
import type { Attempt, Conversation } from '../types.ts';
import { putRecording, setAside, withStored } from './database.ts';
import type { Base, SentTrace } from './knownState.ts';
import { attemptsOf, withoutRecordings } from './storedConversation.ts';
import { asStoredSettings } from './storedSettings.ts';

/** A recording to write, and what is then known as sent. */
export interface TraceWrite {
  attempt: Attempt;
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
  /** The settings now stored (defaults filled in, in stored form), when they were written. */
  settings: Settings | null;
}

/**
 * Writes `changes` in one transaction, merge on write: each conversation record is read in the same
 * transaction, and if another tab stored a newer revision meanwhile, both copies are joined (`merge.ts`)
 * instead of overwritten. A deletion leaves a tombstone and always wins, recordings included. Throws when
 * the transaction fails: then nothing of it was stored.
 */
export async function writeChanges(
  db: UseStore,
  changes: Changes,
  bases: ReadonlyMap<string, Base>,
  now: number,
): Promise<Written> {
  const written: Written = { outcomes: [], setAside: [], settings: null };
  const { outcomes } = written;
  await db('readwrite', (store) => {
    const keep = (key: string, value: unknown, what: UnreadableRecord['what'], reason: string) => {
      written.setAside.push(setAside(store, key, value, what, reason, now));
    };
    const putTraces = (list: TraceWrite[] | undefined) => {
      for (const { attempt } of list ?? []) putRecording(store, attempt.id, attempt.trace);
    };
    const deleteTraces = (...copies: (Conversation | null | undefined)[]) => {
      for (const copy of copies)
        for (const attempt of copy ? attemptsOf(copy) : []) store.delete(tracePrefix + attempt.id);
    };

    for (const local of changes.changed) {
      const base = bases.get(local.id);
      withStored(store, local.id, (value, tombstone, storedRevision) => {
        const next = Math.max(storedRevision, base?.revision ?? 0) + 1;
        if (tombstone !== undefined) {
          // Deleted in another tab: that wins, recordings included.
          deleteTraces(local);
          outcomes.push({ id: local.id, revision: storedRevision, stored: null, local });
          return;
        }
        let content = local;
        if (value !== undefined) {
          const read = readConversationRecord(conversationPrefix + local.id, value);
          if (read.kind === 'unreadable')
            keep(conversationPrefix + local.id, value, 'conversation', read.reason);
          else if (base?.revision === null || base === undefined || read.revision !== base.revision)
            // Another tab wrote it since this tab's copy was made: both copies joined.
            content = mergeConversation(local, read.conversation, base?.conversation);
        }
        store.put({ ...withoutRecordings(content), revision: next }, conversationPrefix + local.id);
        putTraces(changes.traces.get(local.id));
        outcomes.push({ id: local.id, revision: next, stored: content, local });
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
          deleteTraces(base.conversation, other);
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
    return promisifyRequest(store.transaction);
  });
  return written;
}
