import { createStore, type UseStore } from 'idb-keyval';
import {
  conversationPrefix,
  deletedPrefix,
  type PackedTrace,
  packedLines,
  type RecordingPart,
  recordRevision,
  requestPrefix,
  type StoredRequest,
  type StoredTrace,
  setAsidePrefix,
  type TracePartsHead,
  tracePartKey,
  tracePartKeys,
  tracePrefix,
  type UnreadableRecord,
} from '../formats/records.ts';

const singlePersonName = 'hopbase-chat';

/**
 * The app's one IndexedDB store, through idb-keyval; the records' keys and shapes are in `records.ts`.
 * Single-person mode's by default; in team mode each person signed in here has their own (`personalDatabaseName`).
 */
export function openDatabase(name = singlePersonName): UseStore {
  return createStore(name, 'state');
}

/** A signed-in person's database in team mode: their cache of the server's copy, apart from anyone else's. */
export function personalDatabaseName(email: string): string {
  return `${singlePersonName}:${email}`;
}

/** Every key that starts with `prefix`. */
export function prefixRange(prefix: string): IDBKeyRange {
  return IDBKeyRange.bound(prefix, `${prefix}\uffff`);
}

/** The keys that start with `prefix` and come after `after` (null: all of them). */
function rangeAfter(prefix: string, after: string | null): IDBKeyRange {
  return after === null ? prefixRange(prefix) : IDBKeyRange.bound(after, `${prefix}\uffff`, true);
}

/**
 * Reads, in `store`'s transaction, up to `count` records whose keys start with `prefix` and come after
 * `after` (null: from the first), in key order: their keys in one request, then a `get` each, all asked
 * for at once. (A `getAll` per range of keys was slower in Chromium than as many `get`s: the long
 * history's rest took 17 s instead of 11.5 s, and a micro-benchmark of 10,000 records of 30 kB agreed.)
 * `each` is called with every `chunk` records' [key, value] pairs once they are all read, in the task of
 * the last one's answer (no task takes the values of the whole batch); then `done` with the key to go on
 * after, or null when the range held no more. The `get`s are asked for a chunk at a time, two chunks ahead
 * (asking for 500 at once took 15–22 ms of one task in Chromium under load).
 */
export function readRange(
  store: IDBObjectStore,
  { prefix, after, count, chunk }: { prefix: string; after: string | null; count: number; chunk: number },
  each: (records: [string, unknown][]) => void,
  done: (goOnAfter: string | null) => void,
): void {
  const keys = store.getAllKeys(rangeAfter(prefix, after), count);
  keys.onsuccess = () => {
    const found = keys.result.map(String);
    // Fewer than asked for: the range is read to its end.
    const goOnAfter = found.length < count ? null : (found.at(-1) ?? null);
    if (!found.length) return done(goOnAfter);
    const ask = (start: number) => {
      if (start >= found.length) return;
      const part = found.slice(start, start + chunk);
      const values: unknown[] = new Array(part.length);
      let left = part.length;
      part.forEach((key, i) => {
        const value = store.get(key);
        value.onsuccess = () => {
          values[i] = value.result;
          if (--left > 0) return;
          // Asked for in this answer's task, while the transaction is active.
          ask(start + 2 * chunk);
          each(part.map((k, j) => [k, values[j]]));
          if (start + chunk >= found.length) done(goOnAfter);
        };
      });
    };
    ask(0);
    ask(chunk);
  };
}

/**
 * Reads the record and the tombstone of conversation `id` in `store`'s transaction, then calls `decide`
 * with both (undefined: none) and the higher of their revisions.
 */
export function withStored(
  store: IDBObjectStore,
  id: string,
  decide: (record: unknown, tombstone: unknown, revision: number) => void,
): void {
  const record = store.get(conversationPrefix + id);
  const tombstone = store.get(deletedPrefix + id);
  tombstone.onsuccess = () => {
    const revision = Math.max(recordRevision(record.result), recordRevision(tombstone.result));
    decide(record.result, tombstone.result, revision);
  };
}

/** Deletes, once `attemptId`'s recording record is read, the parts it names from `from` on. */
function dropParts(store: IDBObjectStore, attemptId: string, from: number): void {
  const head = store.get(tracePrefix + attemptId);
  head.onsuccess = () => {
    for (const key of tracePartKeys(attemptId, head.result).slice(from)) store.delete(key);
  };
}

/** A recording written whole, as one record (`PackedTrace`); the parts it was written in before go. */
export function putRecording(store: IDBObjectStore, attemptId: string, trace: StoredTrace): void {
  dropParts(store, attemptId, 0);
  store.put(
    { packed: packedLines(trace.items).lines, raw: trace.raw } satisfies PackedTrace,
    tracePrefix + attemptId,
  );
}

/**
 * One part of a recording that grows (`tracePartPrefix`): what came since part `seq - 1`, and the head
 * that now names `seq + 1` parts. Part 0 starts it again: the parts it was written in before go.
 */
export function putRecordingPart(store: IDBObjectStore, attemptId: string, part: RecordingPart): void {
  const { seq, packed, raw } = part;
  // Part 0 starts it again: the parts from 1 on that the stored head names go (it is read before this
  // call's puts, as requests run in order), and part 0 itself is overwritten.
  if (seq === 0) dropParts(store, attemptId, 1);
  store.put({ packed, raw } satisfies PackedTrace, tracePartKey(attemptId, seq));
  store.put({ parts: seq + 1 } satisfies TracePartsHead, tracePrefix + attemptId);
}

/** Deletes `attemptId`'s recording, its parts included. */
export function deleteRecording(store: IDBObjectStore, attemptId: string): void {
  dropParts(store, attemptId, 0);
  store.delete(tracePrefix + attemptId);
}

/** An attempt's request body, in a record of its own: written once, as it never changes. */
export function putRequest(store: IDBObjectStore, attemptId: string, body: StoredRequest['body']): void {
  store.put({ body } satisfies StoredRequest, requestPrefix + attemptId);
}

/** Copies an unreadable record that stands where a write goes to `set-aside:`, so that it is never lost. */
export function setAside(
  store: IDBObjectStore,
  key: string,
  value: unknown,
  what: UnreadableRecord['what'],
  reason: string,
  now: number,
): UnreadableRecord {
  const copy = `${setAsidePrefix}${key}:${now}`;
  store.put(value, copy);
  return { key: copy, what, reason, value };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
