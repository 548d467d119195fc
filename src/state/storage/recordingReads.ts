import { get, promisifyRequest, type UseStore } from 'idb-keyval';
import { type RecordingLoad, type RecordingLoads, recordingKeptApart } from '../domain/recordings.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import { readTraceRecord, type StoredTrace, tracePrefix, type UnreadableRecord } from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import type { KnownState } from './knownState.ts';
import { attemptsOf, withRecordings } from './storedConversation.ts';

/** Where recordings this browser lacks may be found (the team server), by attempt id; the ones found. */
export type RecordingsElsewhere = (attemptIds: readonly string[]) => Promise<Map<string, StoredTrace>>;

/** One recording kept apart in IndexedDB, if it is there and readable. */
export async function storedRecording(db: UseStore, attemptId: string): Promise<StoredTrace | undefined> {
  const value = await get(tracePrefix + attemptId, db);
  const trace = value === undefined ? undefined : readTraceRecord(value);
  return typeof trace === 'object' ? trace : undefined;
}

/**
 * Reads the events of recordings kept apart (this tab's from an earlier visit, or another tab's) when
 * `stores.recordings` asks for them, for the inspector and exports, and puts them into their attempts;
 * `stores.recordings` then says what became of each: gone from it once in memory, else why not. Returns
 * the function that stops listening.
 */
export function readRecordingsWhenAsked(
  db: UseStore,
  stores: AppStores,
  known: KnownState,
  stopped: () => boolean,
  elsewhere?: RecordingsElsewhere,
): () => void {
  const { conversations: conversationStore, storage } = stores;
  /** Recordings being read now. */
  const reading = new Set<string>();

  function onRecordingLoads({ loads }: RecordingLoads) {
    const wanted = Object.keys(loads).filter((id) => loads[id] === 'loading' && !reading.has(id));
    if (wanted.length) void readRecordings(wanted);
  }

  async function readRecordings(ids: string[]) {
    for (const id of ids) reading.add(id);
    const found = new Map<string, StoredTrace>();
    const failed = new Map<string, Exclude<RecordingLoad, 'loading'>>();
    const unreadable: UnreadableRecord[] = [];
    try {
      await db('readonly', (store) => {
        for (const id of ids) {
          const key = tracePrefix + id;
          const request = store.get(key);
          request.onsuccess = () => {
            const value: unknown = request.result;
            const trace = value === undefined ? null : readTraceRecord(value);
            if (trace === null) failed.set(id, 'missing');
            else if (typeof trace !== 'string') found.set(id, trace);
            else {
              failed.set(id, 'unreadable');
              unreadable.push({ key, what: 'recording', reason: trace, value });
            }
          };
        }
        return promisifyRequest(store.transaction);
      });
    } catch {
      for (const id of ids) failed.set(id, 'failed');
    } finally {
      for (const id of ids) reading.delete(id);
    }
    // Not in this browser: the team server may have them (recorded on another device).
    const missing = [...failed].flatMap(([id, why]) => (why === 'missing' ? [id] : []));
    if (elsewhere && missing.length) {
      for (const [id, trace] of await elsewhere(missing)) {
        found.set(id, trace);
        failed.delete(id);
      }
    }
    if (stopped()) return;
    if (found.size) fillRecordings(found);
    storage.getState().noteUnreadable(unreadable);
    stores.recordings.getState().settle(ids, failed);
  }

  function fillRecordings(found: Map<string, StoredTrace>) {
    const filled: Attempt[] = [];
    const filledIn: Conversation[] = [];
    for (const conversation of Object.values(conversationStore.getState().conversations)) {
      const next = withRecordings(
        conversation,
        new Map(
          attemptsOf(conversation)
            .filter((a) => found.has(a.id) && recordingKeptApart(a))
            .map((a) => [a.id, found.get(a.id)!]),
        ),
      );
      if (next === conversation) continue;
      filledIn.push(next);
      // The stored copy now holds the recording too: not a change of this tab's to write.
      const base = known.bases.get(next.id);
      if (base?.conversation === conversation) known.bases.set(next.id, { ...base, conversation: next });
      for (const attempt of attemptsOf(next)) if (found.has(attempt.id)) filled.push(attempt);
    }
    conversationStore.getState().takeStored(filledIn);
    for (const attempt of filled) known.traceStored(attempt, Date.now());
  }

  const stop = stores.recordings.subscribe(onRecordingLoads);
  onRecordingLoads(stores.recordings.getState());
  return stop;
}
