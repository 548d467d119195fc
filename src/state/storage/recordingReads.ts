import { promisifyRequest, type UseStore } from 'idb-keyval';
import { recordingKeptApart } from '../domain/recordings.ts';
import { joinRecording, type StoredTrace, tracePartKeys, tracePrefix } from '../formats/records.ts';
import type { PartKind, PartsElsewhere } from './partReads.ts';
import { withRecordings } from './storedConversation.ts';

/** Where recordings this browser lacks may be found (the team server), by attempt id; the ones found. */
export type RecordingsElsewhere = PartsElsewhere<StoredTrace>;

/**
 * Reads `attemptId`'s recording in `store`'s transaction, whole or written in parts (`joinRecording`), then
 * calls `done` with it (or why it cannot be used; undefined: not there) and the value of its
 * `trace:<attemptId>` record. Every reader of one stored recording goes through this.
 */
export function readRecording(
  store: IDBObjectStore,
  attemptId: string,
  done: (trace: StoredTrace | string | undefined, head: unknown) => void,
): void {
  const request = store.get(tracePrefix + attemptId);
  request.onsuccess = () => {
    const head: unknown = request.result;
    if (head === undefined) return done(undefined, head);
    const keys = tracePartKeys(attemptId, head);
    if (!keys.length) return done(joinRecording(head, []), head);
    const parts = keys.map((key) => store.get(key));
    // Requests of one transaction complete in order: when the last part is read, all are.
    parts.at(-1)!.onsuccess = () =>
      done(
        joinRecording(
          head,
          parts.map((part) => part.result),
        ),
        head,
      );
  };
}

/** One recording kept apart in IndexedDB, if it is there and readable. */
export async function storedRecording(db: UseStore, attemptId: string): Promise<StoredTrace | undefined> {
  let found: StoredTrace | undefined;
  await db('readonly', (store) => {
    readRecording(store, attemptId, (trace) => {
      if (typeof trace === 'object') found = trace;
    });
    return promisifyRequest(store.transaction);
  });
  return found;
}

/**
 * Recordings kept apart (this tab's from an earlier visit, another tab's, another device's), read when
 * the inspector or an export asks. One the server gave is read from it again the next time: recordings
 * are megabytes, and wanted rarely.
 */
export const recordingParts: PartKind<StoredTrace> = {
  loads: (stores) => stores.recordings,
  prefix: tracePrefix,
  what: 'recording',
  read: readRecording,
  apart: recordingKeptApart,
  fill: withRecordings,
  stored: (known, attempt) => known.traceStored(attempt, Date.now()),
  keptHere: false,
};
