import { get, type UseStore } from 'idb-keyval';
import { recordingKeptApart } from '../domain/recordings.ts';
import { readTraceRecord, type StoredTrace, tracePrefix } from '../formats/records.ts';
import type { PartKind, PartsElsewhere } from './partReads.ts';
import { withRecordings } from './storedConversation.ts';

/** Where recordings this browser lacks may be found (the team server), by attempt id; the ones found. */
export type RecordingsElsewhere = PartsElsewhere<StoredTrace>;

/** One recording kept apart in IndexedDB, if it is there and readable. */
export async function storedRecording(db: UseStore, attemptId: string): Promise<StoredTrace | undefined> {
  const value = await get(tracePrefix + attemptId, db);
  const trace = value === undefined ? undefined : readTraceRecord(value);
  return typeof trace === 'object' ? trace : undefined;
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
  read: readTraceRecord,
  apart: recordingKeptApart,
  fill: withRecordings,
  stored: (known, attempt) => known.traceStored(attempt, Date.now()),
  keptHere: false,
};
