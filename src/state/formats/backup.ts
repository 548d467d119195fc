import type { UseStore } from 'idb-keyval';
import * as v from 'valibot';
import { version as appVersion } from '../../../package.json';
import { fromBase64, toBase64 } from '../domain/base64.ts';
import { mergeConversation } from '../domain/merge.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import {
  type AttachmentUse,
  attachmentUses,
  readAttachmentBlobs,
  writeMissingAttachments,
} from '../storage/attachmentBlobs.ts';
import {
  type RestoreOutcome,
  readEverything,
  type StoredEverything,
  writeRestored,
} from '../storage/backupRecords.ts';
import type { ChangeFeed } from '../storage/changeFeed.ts';
import { attemptsOf } from '../storage/storedConversation.ts';
import { defaultSettings, type Settings } from '../stores/settingsStore.ts';
import {
  attachmentEntry,
  attachmentList,
  backupFormat,
  backupHead,
  backupVersion,
  conversationEntry,
  madeBy,
} from './backupSchema.ts';
import { redactAttempt, withoutUserInfo } from './conversationExport.ts';
import {
  conversationPrefix,
  readConversationRecord,
  readSettingsRecord,
  readTraceRecord,
} from './records.ts';
import { scrub } from './traceExport.ts';
import { check, isPlain, type Plain } from './validation.ts';

/**
 * Everything this browser keeps, as one file a person can take to another browser: every conversation
 * with its answers and their recordings, and the settings without the API key. Restoring reads the file
 * whole and checks it before anything is written (a file of another kind or a newer version is refused;
 * a damaged entry is reported and the rest restored), then writes through the same revision and merge path
 * as two tabs (`writeRestored`): a conversation already here is joined, never duplicated, and restoring
 * the same file twice writes nothing the second time.
 */

/**
 * The files and images sent with messages: each one apart from its conversation (where its message holds
 * only a reference), its bytes in base64, so that conversations stay small to read. Named by where it was
 * first sent; an edited message shares its original's.
 */
interface BackupAttachment {
  id: string;
  conversationId: string;
  messageId: string;
  name: string;
  /** Media type, e.g. `image/png`. */
  type: string;
  size: number;
  data: string;
}

export interface BackupDocument {
  format: typeof backupFormat;
  version: typeof backupVersion;
  /** When the backup was made (ISO 8601). */
  createdAt: string;
  app: { name: 'hopbase-chat'; version: string };
  /** Every conversation, each attempt's recording (`trace.items`, `trace.raw`) inside it. */
  conversations: Conversation[];
  /** The bytes of every attachment the conversations refer to. */
  attachments: BackupAttachment[];
  /** Every setting but the secret ones (`secretSettings`), a gateway URL without user or password. */
  settings: Partial<Settings>;
}

/** Never in a backup, never taken from one: the key, and whether this browser keeps it. */
const secretSettings = new Set<string>(['apiKey', 'rememberKey']);

function hasRecording(attempt: Attempt): boolean {
  return attempt.trace.items.length > 0 || attempt.trace.raw !== '';
}

function countRecordings(conversations: readonly Conversation[]): number {
  return conversations.reduce((n, c) => n + attemptsOf(c).filter(hasRecording).length, 0);
}

// ---- Backing up ---------------------------------------------------------------------------------------

/** The settings a backup holds: every one this version knows (stored or default), none of the secret ones. */
function settingsForBackup(stored: Partial<Settings>): Partial<Settings> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(defaultSettings) as (keyof Settings)[]) {
    if (secretSettings.has(key)) continue;
    out[key] = stored[key] === undefined ? defaultSettings[key] : stored[key];
  }
  return { ...out, baseUrl: withoutUserInfo(String(out.baseUrl ?? '')) } as Partial<Settings>;
}

export interface BackupFile {
  name: string;
  text: string;
  conversations: number;
  recordings: number;
  attachments: number;
  /** Attachments a conversation refers to whose bytes this browser no longer holds, so are not in the file. */
  missingAttachments: number;
  /** Saved records that could not be read, so are not in the file (they stay in this browser). */
  leftOut: number;
}

/** `hopbase-chat-backup-2025-10-02.json`. */
export function backupFileName(now: number): string {
  return `${backupFormat}-${new Date(now).toISOString().slice(0, 10)}.json`;
}

/** The attachments to back up, as read: each one's bytes, or null when they are no longer stored. */
type StoredAttachments = Map<string, { use: AttachmentUse; bytes: Uint8Array | null }>;

/**
 * The backup of what was read: JSON, compact (recordings make it large). Credentials are redacted from
 * every request as in a conversation export, and the API key in use is scrubbed from every string but an
 * attachment's bytes, which are kept exactly.
 */
export function createBackup(
  stored: StoredEverything,
  apiKey: string,
  now: number,
  files: StoredAttachments = new Map(),
): BackupFile {
  const conversations = [...stored.conversations]
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .map((c) => ({
      ...c,
      messages: c.messages.map((m) =>
        m.role === 'assistant' ? { ...m, attempts: m.attempts.map(redactAttempt) } : m,
      ),
    }));
  const attachments: BackupAttachment[] = [];
  for (const [id, { use, bytes }] of files)
    if (bytes)
      attachments.push({
        id,
        conversationId: use.conversationId,
        messageId: use.messageId,
        name: use.ref.name,
        type: use.ref.mimeType,
        size: bytes.length,
        data: toBase64(bytes),
      });
  const document: BackupDocument = {
    format: backupFormat,
    version: backupVersion,
    createdAt: new Date(now).toISOString(),
    app: { name: 'hopbase-chat', version: appVersion },
    conversations,
    attachments,
    settings: settingsForBackup(stored.settings),
  };
  const exact = new Set<unknown>(attachments);
  const text = JSON.stringify(document, function (this: unknown, key, value: unknown) {
    if (typeof value !== 'string' || (key === 'data' && exact.has(this))) return value;
    return scrub(value, apiKey);
  });
  return {
    name: backupFileName(now),
    text: `${text}\n`,
    conversations: conversations.length,
    recordings: countRecordings(conversations),
    attachments: attachments.length,
    missingAttachments: files.size - attachments.length,
    leftOut: stored.unreadable.length,
  };
}

/** The bytes of every attachment the conversations refer to, read from the database. */
async function readAttachments(
  db: UseStore,
  conversations: readonly Conversation[],
): Promise<StoredAttachments> {
  const uses = attachmentUses(conversations);
  const blobs = await readAttachmentBlobs(db, [...uses.keys()]);
  const out: StoredAttachments = new Map();
  for (const [id, use] of uses) {
    const blob = blobs.get(id);
    out.set(id, { use, bytes: blob ? new Uint8Array(await blob.arrayBuffer()) : null });
  }
  return out;
}

/** Reads everything this browser stores and makes the backup of it. Throws if the database cannot be read. */
export async function backUp(db: UseStore, apiKey: string, now = Date.now()): Promise<BackupFile> {
  const stored = await readEverything(db);
  return createBackup(stored, apiKey, now, await readAttachments(db, stored.conversations));
}

// ---- Reading a backup ---------------------------------------------------------------------------------

/** An entry of the file, as a person finds it there: by its number (from 1) and its title or name. */
export type BackupEntry =
  | { kind: 'conversation'; number: number; title: string }
  | { kind: 'recording'; number: number; title: string; attemptId: string }
  | { kind: 'attachment'; number: number; name: string }
  | { kind: 'attachments' }
  | { kind: 'settings' }
  | { kind: 'setting'; key: string };

/** An entry of the file that could not be read: which, and why (the field and what it lacks, as a detail). */
export interface BackupProblem {
  entry: BackupEntry;
  reason: string;
}

/** Why a file is refused whole, by code: the UI says it in words. Nothing is written then. */
export type BackupRefusal =
  | {
      code:
        | 'not_json'
        | 'not_backup'
        | 'conversation_file'
        | 'trace_file'
        | 'no_version'
        | 'no_conversations';
    }
  | { code: 'newer_version'; version: number; app: string | null; reads: number };

export type BackupRead =
  | { ok: false; refusal: BackupRefusal }
  | {
      ok: true;
      createdAt: string | null;
      appVersion: string | null;
      /** Checked as records are on load, duplicates in the file joined; recordings inside. */
      conversations: Conversation[];
      recordings: number;
      /** The attachments the conversations refer to, their bytes checked against their stated size. */
      attachments: RestoredAttachment[];
      /** Settings to apply (never the secret ones); null when the file has none. */
      settings: Partial<Settings> | null;
      problems: BackupProblem[];
    };

/** An attachment read from a backup: what the app database stores under its id. */
interface RestoredAttachment {
  id: string;
  blob: Blob;
}

function refuse(refusal: BackupRefusal): BackupRead {
  return { ok: false, refusal };
}

/** What a file that is not a backup is, when it is another file of this app's. */
function otherFormat(format: unknown): BackupRefusal {
  if (format === 'hopbase-chat-conversation') return { code: 'conversation_file' };
  if (format === 'hopbase-chat-trace') return { code: 'trace_file' };
  return { code: 'not_backup' };
}

/** Why the file's head is refused: its first issue's message is the code (`backupSchema.ts`). */
function refusalOf(document: unknown, issue: v.BaseIssue<unknown>): BackupRefusal {
  const code = issue.message as Exclude<BackupRefusal['code'], 'not_json'>;
  if (code === 'not_backup') return otherFormat(isPlain(document) ? document.format : undefined);
  if (code !== 'newer_version') return { code };
  const app = v.safeParse(madeBy, isPlain(document) ? document.app : undefined);
  return { code, version: issue.input as number, app: app.success ? app.output : null, reads: backupVersion };
}

/** Conversation 3, "Holiday plans": the entry as a person can find it in the file (a long title shortened). */
function conversationLabel(entry: unknown, index: number): Extract<BackupEntry, { kind: 'conversation' }> {
  const title = isPlain(entry) && typeof entry.title === 'string' ? entry.title.trim() : '';
  return {
    kind: 'conversation',
    number: index + 1,
    title: title.length > 40 ? `${title.slice(0, 39)}…` : title,
  };
}

/** The entry with every recording taken out: what is left is checked on its own. */
function withoutRecordingFields(entry: Plain): Plain {
  if (!Array.isArray(entry.messages)) return entry;
  return {
    ...entry,
    messages: entry.messages.map((m) =>
      isPlain(m) && Array.isArray(m.attempts)
        ? {
            ...m,
            attempts: m.attempts.map((a) => {
              if (!isPlain(a) || !isPlain(a.trace)) return a;
              const { items: _items, raw: _raw, ...trace } = a.trace;
              return { ...a, trace };
            }),
          }
        : m,
    ),
  };
}

/** The raw `trace` of each attempt in an entry, by attempt id. */
function rawTraces(entry: Plain): Map<string, Plain> {
  const out = new Map<string, Plain>();
  for (const m of Array.isArray(entry.messages) ? entry.messages : [])
    for (const a of isPlain(m) && Array.isArray(m.attempts) ? m.attempts : [])
      if (isPlain(a) && typeof a.id === 'string' && isPlain(a.trace)) out.set(a.id, a.trace);
  return out;
}

/**
 * One conversation of the file, checked as a stored record is. A damaged recording costs only itself:
 * the conversation is read without recordings, and each recording is then read on its own.
 */
function readEntry(entry: unknown, index: number, problems: BackupProblem[]): Conversation | null {
  const label = conversationLabel(entry, index);
  const head = check(conversationEntry, entry);
  if (!head.ok) {
    problems.push({ entry: label, reason: head.reason });
    return null;
  }
  const { id } = head.value;
  const read = readConversationRecord(conversationPrefix + id, head.value);
  if (read.kind === 'conversation') return read.conversation;
  const bare = readConversationRecord(conversationPrefix + id, withoutRecordingFields(head.value));
  if (bare.kind === 'unreadable') {
    problems.push({ entry: label, reason: read.reason });
    return null;
  }
  const traces = rawTraces(head.value);
  const attempt = (a: Attempt): Attempt => {
    const raw = traces.get(a.id);
    if (!raw || (raw.items === undefined && raw.raw === undefined)) return a;
    const trace = readTraceRecord({ items: raw.items ?? [], raw: raw.raw ?? '' });
    if (typeof trace !== 'string') return { ...a, trace: { ...a.trace, ...trace } };
    problems.push({ entry: { ...label, kind: 'recording', attemptId: a.id }, reason: trace });
    return a;
  };
  return {
    ...bare.conversation,
    messages: bare.conversation.messages.map((m) =>
      m.role === 'assistant' ? { ...m, attempts: m.attempts.map(attempt) } : m,
    ),
  };
}

/**
 * One attachment of the file, as the blob to store: its bytes must be the base64 of its stated size, and a
 * conversation of the file must refer to it (one nobody refers to would be stored for nothing).
 */
function readAttachmentEntry(
  entry: unknown,
  index: number,
  used: ReadonlySet<string>,
  problems: BackupProblem[],
): RestoredAttachment | null {
  const name = isPlain(entry) && typeof entry.name === 'string' ? entry.name : '';
  const refuse = (reason: string) => {
    problems.push({ entry: { kind: 'attachment', number: index + 1, name }, reason });
    return null;
  };
  const read = check(attachmentEntry, entry);
  if (!read.ok) return refuse(read.reason);
  const { id, type, size, data } = read.value;
  const bytes = typeof data === 'string' ? fromBase64(data) : null;
  if (bytes?.length !== size) return refuse(`data: expected the base64 of ${size} bytes`);
  if (!used.has(id)) return refuse('no conversation in this backup refers to it');
  return { id, blob: new Blob([bytes], { type }) };
}

/** The settings of the file this version knows and may apply: the secret ones never. */
function readSettings(value: unknown, problems: BackupProblem[]): Partial<Settings> | null {
  if (value === undefined) return null;
  const read = readSettingsRecord(value);
  if (read === null) {
    problems.push({ entry: { kind: 'settings' }, reason: 'not a settings record' });
    return null;
  }
  for (const key of read.wrong)
    problems.push({ entry: { kind: 'setting', key }, reason: 'of the wrong type' });
  const out: Plain = {};
  for (const [key, field] of Object.entries(read.settings))
    if (Object.hasOwn(defaultSettings, key) && !secretSettings.has(key)) out[key] = field;
  return out as Partial<Settings>;
}

/**
 * Reads a backup file. Refused whole (nothing to write) when it is not a backup, is of a newer version, or
 * has no list of conversations; otherwise every entry is checked as a stored record is (`records.ts`), and
 * the ones that cannot be read are listed while the rest go on to be restored.
 */
export function readBackup(text: string): BackupRead {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return refuse({ code: 'not_json' });
  }
  const head = v.safeParse(backupHead, document, { abortEarly: true });
  if (!head.success) return refuse(refusalOf(document, head.issues[0]));
  const file = head.output;

  const problems: BackupProblem[] = [];
  const byId = new Map<string, Conversation>();
  file.conversations.forEach((entry, index) => {
    const conversation = readEntry(entry, index, problems);
    if (!conversation) return;
    const twin = byId.get(conversation.id);
    // The same conversation twice in one file (edited by hand, or joined from two): both copies joined.
    byId.set(conversation.id, twin ? mergeConversation(twin, conversation) : conversation);
  });
  const conversations = [...byId.values()];
  const used = new Set(attachmentUses(conversations).keys());
  const attachments: RestoredAttachment[] = [];
  const entries = check(attachmentList, file.attachments ?? []);
  if (!entries.ok) problems.push({ entry: { kind: 'attachments' }, reason: entries.reason });
  else
    entries.value.forEach((entry, index) => {
      const read = readAttachmentEntry(entry, index, used, problems);
      if (read) attachments.push(read);
    });
  const settings = readSettings(file.settings, problems);
  return {
    ok: true,
    createdAt: file.createdAt,
    appVersion: file.app,
    conversations,
    recordings: countRecordings(conversations),
    attachments,
    settings,
    problems,
  };
}

// ---- Restoring ----------------------------------------------------------------------------------------

/** Attachments a restore wrote, and those this database held already. */
export interface RestoredFiles {
  written: number;
  kept: number;
}

/** What a restore read from the file: the UI sums it up with the outcome (`backupWords.ts`). */
export interface RestoredCounts {
  conversations: number;
  recordings: number;
  attachments: number;
  /** Entries that could not be read. */
  problems: number;
}

export type RestoreResult =
  | { ok: false; refusal: BackupRefusal }
  | {
      ok: true;
      counts: RestoredCounts;
      outcome: RestoreOutcome;
      files: RestoredFiles;
      problems: BackupProblem[];
    };

/**
 * Restores a backup file's text: checked whole first (a refusal writes nothing), then written in one
 * transaction and announced on `feed`. Throws when the database cannot be written (then nothing was).
 */
export async function restoreBackup(
  db: UseStore,
  text: string,
  feed: ChangeFeed | null,
  now = Date.now(),
): Promise<RestoreResult> {
  const read = readBackup(text);
  if (!read.ok) return read;
  // The bytes first: a conversation that shows its attachments finds them stored.
  const files = await writeMissingAttachments(db, read.attachments);
  const outcome = await writeRestored(
    db,
    { conversations: read.conversations, settings: read.settings },
    feed,
    now,
  );
  return {
    ok: true,
    counts: {
      conversations: read.conversations.length,
      recordings: read.recordings,
      attachments: read.attachments.length,
      problems: read.problems.length,
    },
    outcome,
    files,
    problems: read.problems,
  };
}
