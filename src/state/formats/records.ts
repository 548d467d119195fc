import * as v from 'valibot';
import type { AttemptTrace, Conversation, SentRequest, TraceItem } from '../domain/types.ts';
import type { Settings } from '../stores/settingsStore.ts';
import {
  conversationRecord,
  isTraceItem,
  packedTraceRecord,
  requestRecord,
  revision,
  tracePartsHead,
  traceRecord,
} from './recordSchemas.ts';
import { settingFields } from './settingsSchema.ts';
import { check, isPlain } from './validation.ts';

/**
 * What IndexedDB holds, read defensively: every record is checked by its schema (`recordSchemas.ts`,
 * `settingsSchema.ts`) before the app uses it, so one record of the wrong shape (written by an older
 * version, a bug, an extension, a person in DevTools) is set aside instead of breaking the whole load.
 */

export const conversationPrefix = 'conversation:';
export const tracePrefix = 'trace:';
/**
 * `trace-part:<attemptId>:<n>`: the n-th part (from 0) of a recording written as it grew, each holding the
 * items and stream received since the one before (`PackedTrace`); its `trace:<attemptId>` record then only
 * says how many there are (`TracePartsHead`).
 */
export const tracePartPrefix = 'trace-part:';
/**
 * `request:<attemptId>`: the body an attempt sent, written once with the first record that holds the
 * attempt (a conversation record keeps its requests without their bodies; records from before hold them).
 */
export const requestPrefix = 'request:';
/** `deleted:<id>`: a deleted conversation's tombstone, so that no other tab's older copy brings it back. */
export const deletedPrefix = 'deleted:';
export const settingsKey = 'settings';
/**
 * The ids of the conversations last worked on, newest first (`newestIds`): a long history's load reads
 * these first, and the rest once the first screen is up.
 */
export const recentKey = 'recent-conversations';
export const activeKey = 'active-conversation';
/** Records the app could not read and had to make room for: copied here byte for byte, never deleted. */
export const setAsidePrefix = 'set-aside:';

/** A conversation as its record stores it: the recordings' bulk lives in trace records. */
export type StoredConversation = Conversation & {
  /** Raised by one on every write: no tab overwrites a record newer than the one its copy came from. */
  revision?: number;
};

/** What a deleted conversation leaves under `deleted:<id>` (its record is removed). */
export interface Tombstone {
  id: string;
  deleted: true;
  revision: number;
  deletedAt: number;
}

export type StoredTrace = Pick<AttemptTrace, 'items' | 'raw'>;

/**
 * A recording, or one part of it, packed: the events and comments as one JSON line each, and the stream as
 * received. One string goes into the database in a moment, where 20,000 items as objects were cloned in a
 * long task each time. (Records of earlier versions hold `items` as a list, and are read as they are.)
 */
export interface PackedTrace {
  packed: string;
  raw: string;
}

/** Part `seq` of a recording that grows: what came since part `seq - 1`. */
export interface RecordingPart extends PackedTrace {
  seq: number;
}

/**
 * A `trace:<attemptId>` record of a recording written in parts as it grew (`tracePartPrefix`): each write
 * while it streams adds one part with what came since the last, instead of writing it again whole, so no
 * write costs more as the recording grows. A recording written at once is one `PackedTrace` record.
 */
export interface TracePartsHead {
  parts: number;
}

/** The key of part `seq` of `attemptId`'s recording. */
export function tracePartKey(attemptId: string, seq: number): string {
  return `${tracePartPrefix}${attemptId}:${seq}`;
}

/** The keys of the parts that the `trace:<attemptId>` record `head` names, in order (none: it is not a parts head). */
export function tracePartKeys(attemptId: string, head: unknown): string[] {
  const read = isPlain(head) && Object.hasOwn(head, 'parts') ? check(tracePartsHead, head) : null;
  return read?.ok ? Array.from({ length: read.value.parts }, (_, seq) => tracePartKey(attemptId, seq)) : [];
}

/**
 * The packed lines of `items` from `from` on (the lines of those before it are packed already), until they
 * hold `maxChars` or more (at least one line), and the index of the first item left out: each item's JSON,
 * its four fields written in order by hand, a third faster than `JSON.stringify` of the object (a recording
 * written as it streams packs thousands at a time).
 */
export function packedLines(
  items: readonly TraceItem[],
  from = 0,
  maxChars = Number.POSITIVE_INFINITY,
): { lines: string; end: number } {
  let lines = '';
  let i = from;
  for (; i < items.length && lines.length < maxChars; i++) {
    const { t, kind, event, data } = items[i]!;
    lines += `{"t":${JSON.stringify(t)},"kind":${JSON.stringify(kind)},"event":${JSON.stringify(event)},"data":${JSON.stringify(data)}}\n`;
  }
  return { lines, end: i };
}

/** A recording as its records are read into it. */
type Joined = { items: TraceItem[]; raw: string };

/** A packed recording or part (`PackedTrace`): its lines read and checked into `items`, appended to `raw`. */
function unpack(value: unknown, into: Joined): string | undefined {
  const read = check(packedTraceRecord, value, 'record');
  if (!read.ok) return read.reason;
  const { packed, raw } = read.value;
  const lines = packed.split('\n');
  for (const [n, line] of lines.entries()) {
    if (line === '' && n === lines.length - 1) break;
    let item: unknown;
    try {
      item = JSON.parse(line);
    } catch {
      return `packed: line ${n + 1} is not JSON`;
    }
    if (!isTraceItem(item)) return `packed: line ${n + 1} is not a recorded event or comment`;
    into.items.push(item);
  }
  into.raw += raw;
  return undefined;
}

/** What a `request:<attemptId>` record holds. */
export interface StoredRequest {
  body: SentRequest['body'];
}

export type ReadRecord =
  | { kind: 'conversation'; conversation: Conversation; revision: number }
  | { kind: 'unreadable'; reason: string; revision: number };

/** A record that could not be read, kept as it is in the database, and what was wrong with it. */
export interface UnreadableRecord {
  key: string;
  what: 'conversation' | 'recording' | 'request' | 'settings';
  reason: string;
  value: unknown;
}

/**
 * One `conversation:<id>` record: a conversation (the fields older records lack filled in, the ones they
 * named otherwise renamed), or unreadable with the reason why. Its id must be the one in its key, and a
 * message's parent one of its messages (records from before branches name none: one branch, in their order).
 */
export function readConversationRecord(key: string, value: unknown): ReadRecord {
  const revision = recordRevision(value);
  const unreadable = (reason: string): ReadRecord => ({ kind: 'unreadable', reason, revision });
  const read = check(conversationRecord, value, 'record');
  if (!read.ok) return unreadable(read.reason);
  const conversation: Conversation = read.value;
  if (conversationPrefix + conversation.id !== key)
    return unreadable(`id: expected the id in its key (${key.slice(conversationPrefix.length)})`);
  const ids = new Set(conversation.messages.map((m) => m.id));
  const unplaced = conversation.messages.findIndex((m) => m.parentId && !ids.has(m.parentId));
  if (unplaced >= 0)
    return unreadable(`messages[${unplaced}].parentId: expected the id of a message of this conversation`);
  return { kind: 'conversation', conversation, revision };
}

/** The revision a record or tombstone holds (0: none, as in records written before revisions). */
export function recordRevision(value: unknown): number {
  return isPlain(value) && v.is(revision, value.revision) ? value.revision : 0;
}

/** The recent-conversations record's ids, or null when it holds anything else. */
export function readRecentRecord(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((id) => typeof id === 'string') ? value : null;
}

/**
 * A recording as one record holds it (packed, or as a list of items from earlier versions), or why it
 * cannot be used. A backup's, the unload journal's and the team server's are always whole.
 */
export function readTraceRecord(value: unknown): StoredTrace | string {
  if (isPlain(value) && Object.hasOwn(value, 'packed')) {
    const trace: Joined = { items: [], raw: '' };
    return unpack(value, trace) ?? trace;
  }
  const read = check(traceRecord, value, 'record');
  return read.ok ? read.value : read.reason;
}

/**
 * A recording as the database holds it: its `trace:<attemptId>` record `head`, whole or written in parts,
 * and the values found under the keys `tracePartKeys` names for it, in that order (undefined: none there).
 * Every reader of a stored recording reads it through this (`readRecording` in the database).
 */
export function joinRecording(head: unknown, parts: readonly unknown[]): StoredTrace | string {
  if (!isPlain(head) || !Object.hasOwn(head, 'parts')) return readTraceRecord(head);
  const read = check(tracePartsHead, head, 'record');
  if (!read.ok) return read.reason;
  const trace: Joined = { items: [], raw: '' };
  for (let seq = 0; seq < read.value.parts; seq++) {
    if (parts[seq] === undefined) return `part ${seq}: missing`;
    const wrong = unpack(parts[seq], trace);
    if (wrong !== undefined) return `part ${seq}: ${wrong}`;
  }
  return trace;
}

/** One `request:<attemptId>` record, or why it cannot be used. */
export function readRequestRecord(value: unknown): StoredRequest | string {
  const read = check(requestRecord, value, 'record');
  return read.ok ? read.value : read.reason;
}

/**
 * The settings record, field by field (`settingsSchema.ts`): a field of the wrong type is left out (its
 * default applies, and the record keeps it until that setting is changed); fields this version does not
 * know pass through untouched. `null` when the record is not settings at all.
 */
export function readSettingsRecord(value: unknown): { settings: Partial<Settings>; wrong: string[] } | null {
  if (value === undefined) return { settings: {}, wrong: [] };
  if (!isPlain(value)) return null;
  const settings: [string, unknown][] = [];
  const wrong: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (!Object.hasOwn(settingFields, key)) {
      settings.push([key, field]);
      continue;
    }
    const read = v.safeParse(settingFields[key as keyof Settings], field);
    if (read.success) settings.push([key, read.output]);
    else wrong.push(key);
  }
  // Each key defined as it is: assigning `__proto__` would set the object's prototype instead.
  return { settings: Object.fromEntries(settings) as Partial<Settings>, wrong };
}

/** The stored settings record read (see readSettingsRecord); one that is not settings is noted in `unreadable`. */
export function readSettingsNoting(
  value: unknown,
  unreadable: UnreadableRecord[],
): ReturnType<typeof readSettingsRecord> {
  const read = readSettingsRecord(value);
  if (read === null)
    unreadable.push({ key: settingsKey, what: 'settings', reason: 'not a settings record', value });
  return read;
}

/**
 * The unreadable records as a file a person can keep, inspect or hand to support: JSON, with whatever
 * structured clone stored that JSON cannot say (dates, binary, big integers, undefined) spelled out.
 */
export function unreadableRecordsFile(records: readonly UnreadableRecord[], now = new Date()): string {
  const seen = new WeakSet<object>();
  const replacer = (_key: string, value: unknown): unknown => {
    if (value === undefined) return { $undefined: true };
    if (typeof value === 'bigint') return { $bigint: value.toString() };
    if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return { $circular: true };
    seen.add(value);
    if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? null : value.toISOString() };
    if (value instanceof Map) return { $map: [...value.entries()] };
    if (value instanceof Set) return { $set: [...value.values()] };
    if (value instanceof ArrayBuffer) return { $bytes: [...new Uint8Array(value)] };
    if (ArrayBuffer.isView(value))
      return { $bytes: [...new Uint8Array(value.buffer, value.byteOffset, value.byteLength)] };
    if (value instanceof Blob) return { $blob: { type: value.type, size: value.size } };
    return value;
  };
  const file = {
    app: 'hopbase-chat',
    exportedAt: now.toISOString(),
    note: 'Saved records this browser holds that HopBase Chat could not read. They are still stored, unchanged.',
    records: records.map(({ key, what, reason, value }) => ({ key, what, reason, value })),
  };
  return `${JSON.stringify(file, replacer, 2)}\n`;
}
