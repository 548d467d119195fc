import { emptyTurn, type Turn } from '../core/index.ts';
import { storedTitle } from './conversationTitle.ts';
import { emptyRecording } from './recordings.ts';
import { defaultSettings, type Settings } from './settingsStore.ts';
import type {
  AnswerSource,
  Attempt,
  AttemptTrace,
  ChatMessage,
  Conversation,
  SentRequest,
  TraceItem,
} from './types.ts';

/**
 * What IndexedDB holds, read defensively: every record is checked before the app uses it, so one record of
 * the wrong shape (written by an older version, a bug, an extension, a person in DevTools) is set aside
 * instead of breaking the whole load. Checks are strict where the UI depends on a field and lenient where
 * a field was added later (filled with its default), so every record an earlier version wrote still loads.
 */

export const conversationPrefix = 'conversation:';
export const tracePrefix = 'trace:';
/**
 * `request:<attemptId>`: the body an attempt sent, written once with the first record that holds the
 * attempt (a conversation record keeps its requests without their bodies; records from before hold them).
 */
export const requestPrefix = 'request:';
/** `deleted:<id>`: a deleted conversation's tombstone, so that no other tab's older copy brings it back. */
export const deletedPrefix = 'deleted:';
export const settingsKey = 'settings';
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

class Unreadable extends Error {}

function fail(path: string, expected: string): never {
  throw new Unreadable(`${path}: expected ${expected}`);
}

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, path: string): Plain {
  return isPlain(value) ? value : fail(path, 'an object');
}

function string(value: unknown, path: string): string {
  return typeof value === 'string' ? value : fail(path, 'a string');
}

function number(value: unknown, path: string): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fail(path, 'a number');
}

function numberOrNull(value: unknown, path: string): number | null {
  return value === null ? null : number(value, path);
}

function stringOrNull(value: unknown, path: string): string | null {
  return value === null ? null : string(value, path);
}

function array(value: unknown, path: string): unknown[] {
  return Array.isArray(value) ? value : fail(path, 'a list');
}

/** A field added after the first records were written: missing means its default, present must be right. */
function optional<T>(
  record: Plain,
  key: string,
  fallback: T,
  read: (value: unknown, path: string) => T,
  path: string,
): T {
  return record[key] === undefined ? fallback : read(record[key], `${path}.${key}`);
}

const protocols = new Set(['chat', 'responses', 'messages']);
const statuses = new Set(['streaming', 'complete', 'error', 'interrupted', 'aborted']);

function readTurn(value: unknown, path: string): Turn {
  const turn = object(value, path);
  const status = string(turn.status, `${path}.status`);
  if (!statuses.has(status)) fail(`${path}.status`, 'a turn status');
  const toolCalls = optional(turn, 'toolCalls', [], array, path).map((call, i) => {
    const c = object(call, `${path}.toolCalls[${i}]`);
    string(c.id, `${path}.toolCalls[${i}].id`);
    string(c.name, `${path}.toolCalls[${i}].name`);
    string(c.arguments, `${path}.toolCalls[${i}].arguments`);
    return c;
  });
  const parts = optional(turn, 'parts', [], array, path).map((part, i) => {
    const p = object(part, `${path}.parts[${i}]`);
    string(p.key, `${path}.parts[${i}].key`);
    if (p.kind === 'tool_call') {
      const call = object(p.call, `${path}.parts[${i}].call`);
      string(call.id, `${path}.parts[${i}].call.id`);
      string(call.name, `${path}.parts[${i}].call.name`);
      string(call.arguments, `${path}.parts[${i}].call.arguments`);
    } else if (p.kind === 'text' || p.kind === 'reasoning' || p.kind === 'refusal') {
      string(p.text, `${path}.parts[${i}].text`);
    } else fail(`${path}.parts[${i}].kind`, 'text, reasoning, refusal or tool_call');
    return p;
  });
  const usage = turn.usage === undefined || turn.usage === null ? null : object(turn.usage, `${path}.usage`);
  if (usage) {
    for (const key of ['inputTokens', 'outputTokens', 'totalTokens'])
      number(usage[key], `${path}.usage.${key}`);
    for (const key of ['reasoningTokens', 'cachedTokens', 'cacheWriteTokens'])
      if (usage[key] !== undefined) number(usage[key], `${path}.usage.${key}`);
  }
  const error = turn.error === undefined || turn.error === null ? null : object(turn.error, `${path}.error`);
  if (error) {
    string(error.code, `${path}.error.code`);
    string(error.message, `${path}.error.message`);
  }
  return {
    ...emptyTurn,
    ...turn,
    status: status as Turn['status'],
    text: optional(turn, 'text', '', string, path),
    reasoning: optional(turn, 'reasoning', '', string, path),
    refusal: optional(turn, 'refusal', '', string, path),
    toolCalls: toolCalls as unknown as Turn['toolCalls'],
    parts: parts as unknown as Turn['parts'],
    usage: usage as Turn['usage'],
    finishReason: optional(turn, 'finishReason', null, stringOrNull, path) as Turn['finishReason'],
    rawFinishReason: optional(turn, 'rawFinishReason', null, stringOrNull, path),
    error: error as Turn['error'],
    responseId: optional(turn, 'responseId', null, stringOrNull, path),
    model: optional(turn, 'model', null, stringOrNull, path),
  };
}

function readTraceMeta(value: unknown, path: string): AttemptTrace {
  const empty = emptyRecording();
  if (value === undefined) return empty;
  const trace = object(value, path) as Plain & { deltaEvents?: unknown };
  // Older records counted "delta events"; the field is now output events.
  const { deltaEvents, ...rest } = trace;
  const outputEvents =
    rest.outputEvents === undefined
      ? deltaEvents === undefined
        ? 0
        : number(deltaEvents, `${path}.deltaEvents`)
      : number(rest.outputEvents, `${path}.outputEvents`);
  return {
    ...rest,
    headersAt: optional(rest, 'headersAt', null, numberOrNull, path),
    firstOutputAt: optional(rest, 'firstOutputAt', null, numberOrNull, path),
    endedAt: optional(rest, 'endedAt', null, numberOrNull, path),
    bytes: optional(rest, 'bytes', 0, number, path),
    outputEvents,
    items: rest.items === undefined ? empty.items : readTraceItems(rest.items, `${path}.items`),
    raw: optional(rest, 'raw', '', string, path),
    truncated: optional(
      rest,
      'truncated',
      false,
      (v, p) => (typeof v === 'boolean' ? v : fail(p, 'true or false')),
      path,
    ),
  };
}

function readTraceItems(value: unknown, path: string): TraceItem[] {
  const items = array(value, path);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // The one hot loop here (up to 20,000 items): checked without building paths unless one is wrong.
    if (
      !isPlain(item) ||
      typeof item.t !== 'number' ||
      (item.kind !== 'event' && item.kind !== 'comment') ||
      typeof item.event !== 'string' ||
      typeof item.data !== 'string'
    )
      fail(`${path}[${i}]`, 'a recorded event or comment');
  }
  return items as TraceItem[];
}

function readHeaders(value: unknown, path: string): Record<string, string> {
  const headers = object(value, path);
  for (const [name, v] of Object.entries(headers)) string(v, `${path}.${name}`);
  return headers as Record<string, string>;
}

/**
 * A request's body: inline, or (absent) in its own record, to be joined in by whoever reads that record;
 * until then it is empty and marked missing. An inline body keeps the mark a backup or export gave it.
 */
function readBody(request: Plain, path: string): Pick<SentRequest, 'body' | 'bodyMissing'> {
  if (request.body === undefined) return { body: {}, bodyMissing: 'missing' };
  const body = object(request.body, `${path}.body`);
  const missing = request.bodyMissing;
  return missing === 'missing' || missing === 'unreadable' ? { body, bodyMissing: missing } : { body };
}

function readAttempt(value: unknown, path: string): Attempt {
  const attempt = object(value, path);
  const request = object(attempt.request, `${path}.request`);
  const { body: _body, bodyMissing: _missing, ...fields } = request;
  const httpError =
    attempt.httpError === undefined || attempt.httpError === null
      ? null
      : object(attempt.httpError, `${path}.httpError`);
  if (httpError) {
    number(httpError.status, `${path}.httpError.status`);
    string(httpError.code, `${path}.httpError.code`);
    string(httpError.message, `${path}.httpError.message`);
  }
  return {
    ...attempt,
    id: string(attempt.id, `${path}.id`),
    startedAt: number(attempt.startedAt, `${path}.startedAt`),
    request: {
      ...fields,
      url: string(request.url, `${path}.request.url`),
      path: string(request.path, `${path}.request.path`),
      headers: optional(request, 'headers', {}, readHeaders, `${path}.request`),
      ...readBody(request, `${path}.request`),
    },
    sentHeaders: optional(attempt, 'sentHeaders', {}, readHeaders, path),
    turn: readTurn(attempt.turn, `${path}.turn`),
    httpError: httpError as Attempt['httpError'],
    trace: readTraceMeta(attempt.trace, `${path}.trace`),
  };
}

function readSource(value: unknown, attempts: Attempt[], path: string): AnswerSource {
  if (value === undefined) {
    // Records from before answers named their source: a replay's request URL said so.
    const first = attempts[0]?.request.url ?? '';
    return first.startsWith('replay:') ? { kind: 'replay', file: first.slice(7) } : { kind: 'gateway' };
  }
  const source = object(value, path);
  if (source.kind === 'gateway') return { kind: 'gateway' };
  if (source.kind === 'replay') return { kind: 'replay', file: string(source.file, `${path}.file`) };
  return fail(`${path}.kind`, 'gateway or replay');
}

/** A user message's attachments: references to blobs stored apart (`attachmentBlobs.ts`). */
function readAttachmentRefs(value: unknown, path: string): void {
  array(value, path).forEach((item, i) => {
    const ref = object(item, `${path}[${i}]`);
    for (const key of ['id', 'name', 'mimeType']) string(ref[key], `${path}[${i}].${key}`);
    number(ref.size, `${path}[${i}].size`);
    if (ref.kind !== 'image' && ref.kind !== 'text') fail(`${path}[${i}].kind`, 'image or text');
  });
}

function readMessage(value: unknown, path: string): ChatMessage {
  const message = object(value, path);
  const id = string(message.id, `${path}.id`);
  const createdAt = optional(message, 'createdAt', 0, number, path);
  // Absent in records from before branches.
  if (message.parentId !== undefined) stringOrNull(message.parentId, `${path}.parentId`);
  switch (message.role) {
    case 'user':
      if (message.attachments !== undefined) readAttachmentRefs(message.attachments, `${path}.attachments`);
      return { ...message, id, role: 'user', text: string(message.text, `${path}.text`), createdAt };
    case 'tool':
      return {
        ...message,
        id,
        role: 'tool',
        toolCallId: string(message.toolCallId, `${path}.toolCallId`),
        name: string(message.name, `${path}.name`),
        content: string(message.content, `${path}.content`),
        createdAt,
      };
    case 'assistant': {
      const protocol = string(message.protocol, `${path}.protocol`);
      if (!protocols.has(protocol)) fail(`${path}.protocol`, 'chat, responses or messages');
      const attempts = array(message.attempts, `${path}.attempts`).map((a, i) =>
        readAttempt(a, `${path}.attempts[${i}]`),
      );
      return {
        ...message,
        id,
        role: 'assistant',
        protocol: protocol as 'chat',
        model: string(message.model, `${path}.model`),
        source: readSource(message.source, attempts, `${path}.source`),
        createdAt,
        attempts,
      };
    }
    default:
      return fail(`${path}.role`, 'user, assistant or tool');
  }
}

/**
 * The messages, each placed in the conversation's tree: a parent must be one of them. Records from before
 * branches name none, and load as they are: one branch, in their order (see `branches.ts`).
 */
function readMessages(value: unknown): ChatMessage[] {
  const messages = array(value, 'messages').map((m, i) => readMessage(m, `messages[${i}]`));
  const ids = new Set(messages.map((m) => m.id));
  messages.forEach((m, i) => {
    if (m.parentId && !ids.has(m.parentId))
      fail(`messages[${i}].parentId`, 'the id of a message of this conversation');
  });
  return messages;
}

/** The version chosen at each fork: message ids by fork. */
function readSelected(value: unknown, path: string): Record<string, string> {
  const selected = object(value, path);
  for (const [fork, id] of Object.entries(selected)) string(id, `${path}[${JSON.stringify(fork)}]`);
  return selected as Record<string, string>;
}

function readRevision(record: Plain): number {
  const revision = record.revision;
  return typeof revision === 'number' && Number.isSafeInteger(revision) && revision >= 0 ? revision : 0;
}

/**
 * One `conversation:<id>` record: a conversation (the fields older records lack filled in, the ones they
 * named otherwise renamed), or unreadable with the reason why.
 */
export function readConversationRecord(key: string, value: unknown): ReadRecord {
  const revision = isPlain(value) ? readRevision(value) : 0;
  try {
    const record = object(value, 'record');
    const id = string(record.id, 'id');
    if (conversationPrefix + id !== key)
      fail('id', `the id in its key (${key.slice(conversationPrefix.length)})`);
    const { revision: _revision, ...rest } = record;
    const conversation: Conversation = {
      ...rest,
      id,
      title: storedTitle(string(rest.title, 'title')),
      createdAt: number(rest.createdAt, 'createdAt'),
      updatedAt: optional(rest, 'updatedAt', number(rest.createdAt, 'createdAt'), number, ''),
      messages: readMessages(rest.messages),
    };
    if (rest.selected !== undefined) conversation.selected = readSelected(rest.selected, 'selected');
    if (rest.systemPrompt !== undefined)
      conversation.systemPrompt = string(rest.systemPrompt, 'systemPrompt');
    return { kind: 'conversation', conversation, revision };
  } catch (error) {
    if (error instanceof Unreadable) return { kind: 'unreadable', reason: error.message, revision };
    throw error;
  }
}

/** The revision a record or tombstone holds (0: none, as in records written before revisions). */
export function recordRevision(value: unknown): number {
  return isPlain(value) ? readRevision(value) : 0;
}

/** One `trace:<attemptId>` record, or why it cannot be used. */
export function readTraceRecord(value: unknown): StoredTrace | string {
  try {
    const record = object(value, 'record');
    return { items: readTraceItems(record.items, 'items'), raw: string(record.raw, 'raw') };
  } catch (error) {
    if (error instanceof Unreadable) return error.message;
    throw error;
  }
}

/** One `request:<attemptId>` record, or why it cannot be used. */
export function readRequestRecord(value: unknown): StoredRequest | string {
  try {
    return { body: object(object(value, 'record').body, 'body') };
  } catch (error) {
    if (error instanceof Unreadable) return error.message;
    throw error;
  }
}

function settingOk(key: keyof Settings, value: unknown): boolean {
  const fallback = defaultSettings[key];
  switch (key) {
    case 'protocol':
      return typeof value === 'string' && protocols.has(value);
    case 'maxOutputTokens':
    case 'temperature':
      return value === null || (typeof value === 'number' && Number.isFinite(value));
    case 'tools':
      return (
        Array.isArray(value) &&
        value.every(
          (t) =>
            isPlain(t) && typeof t.name === 'string' && (t.parameters === undefined || isPlain(t.parameters)),
        )
      );
    default:
      // Settings added later are checked against their default's kind (a nullable one takes any value).
      if (fallback === null) return true;
      if (Array.isArray(fallback)) return Array.isArray(value);
      if (typeof fallback === 'object') return isPlain(value);
      if (typeof fallback === 'number') return typeof value === 'number' && Number.isFinite(value);
      return typeof value === typeof fallback;
  }
}

/**
 * The settings record, field by field: a field of the wrong type is left out (its default applies, and the
 * record keeps it until that setting is changed); fields this version does not know pass through untouched.
 * `null` when the record is not settings at all.
 */
export function readSettingsRecord(value: unknown): { settings: Partial<Settings>; wrong: string[] } | null {
  if (value === undefined) return { settings: {}, wrong: [] };
  if (!isPlain(value)) return null;
  const settings: Plain = {};
  const wrong: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (key in defaultSettings && !settingOk(key as keyof Settings, field)) wrong.push(key);
    else settings[key] = field;
  }
  return { settings: settings as Partial<Settings>, wrong };
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
