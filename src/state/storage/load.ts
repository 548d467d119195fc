import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { Conversation } from '../domain/types.ts';
import {
  activeKey,
  conversationPrefix,
  deletedPrefix,
  readConversationRecord,
  readRecentRecord,
  readSettingsNoting,
  readSettingsRecord,
  recentKey,
  recordRevision,
  requestPrefix,
  setAsidePrefix,
  settingsKey,
  type UnreadableRecord,
} from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import type { Settings } from '../stores/settingsStore.ts';
import { errorText, prefixRange } from './database.ts';
import { type Journal, readJournal, restoreJournal } from './journal.ts';
import type { Base } from './knownState.ts';
import { settleInterrupted } from './storedConversation.ts';
import { noteRequestRecord, type StoredBody, withBodies } from './storedRequests.ts';
import { asStoredSettings, readSessionKey } from './storedSettings.ts';

/** What a load found, handed to `startPersisting` so that it writes only what differs from it. */
export interface LoadedState {
  /** False when the database could not be read at all. */
  ok: boolean;
  bases: Map<string, Base>;
  /** The settings as stored (defaults filled in), in stored form. */
  settingsBase: Settings;
  /** Recordings restored from the unload journal, not yet in the database. */
  unsavedTraces: Set<string>;
  /** The attempts whose body has a record of its own (readable or not): never written again. */
  storedBodies: Set<string>;
  /** Whether an unload journal was found (it is cleared once everything in it is stored). */
  journal: boolean;
  /** Whether this load read only the first screen's conversations, leaving the rest for `readRest`. */
  partial: boolean;
  /** The recent-conversations record as stored (null: none, or unreadable). */
  recent: string[] | null;
  /** The active conversation as stored. */
  activeId: string | null;
}

/** What a load read: every record it needs as [key, value], and whether it left conversations for later. */
interface LoadRecords {
  records: [IDBValidKey, unknown][];
  /** Only the first screen's conversations were read: the rest are read once it is up (`readRest`). */
  partial: boolean;
}

/**
 * The records a load reads, in one transaction: conversations, tombstones, records set aside, settings and
 * the active conversation. Not the recordings (megabytes each: read when the inspector asks), nor the
 * request bodies unless `includeBodies` (the inspector, a Retry and an export read the few they need),
 * nor anything else kept in the database. Where the database keeps a list of the conversations last
 * worked on, only the first screen's are read: those, the active one and those in `first`, each by its
 * key (a scan of every conversation's key alone takes a fifth of a second over 10,000); the rest are read
 * once the first screen is up, by key ranges.
 */
function readLoadRecords(
  db: UseStore,
  first: ReadonlySet<string> | 'all',
  includeBodies: boolean,
): Promise<LoadRecords> {
  return db('readonly', (store) => {
    const records: [IDBValidKey, unknown][] = [];
    let partial = false;
    const all = (prefix: string) => {
      const range = prefixRange(prefix);
      const keys = store.getAllKeys(range);
      const values = store.getAll(range);
      values.onsuccess = () => {
        for (const [i, key] of keys.result.entries()) records.push([key, values.result[i]]);
      };
    };
    const one = (key: string) => {
      const request = store.get(key);
      request.onsuccess = () => {
        if (request.result !== undefined) records.push([key, request.result]);
      };
    };
    all(deletedPrefix);
    all(setAsidePrefix);
    one(settingsKey);
    const active = store.get(activeKey);
    const recent = store.get(recentKey);
    recent.onsuccess = () => {
      records.push([activeKey, active.result], [recentKey, recent.result]);
      const recentIds = readRecentRecord(recent.result);
      if (first === 'all' || recentIds === null) {
        all(conversationPrefix);
        if (includeBodies) all(requestPrefix);
        return;
      }
      partial = true;
      const wanted = new Set([...recentIds, ...first]);
      if (typeof active.result === 'string') wanted.add(active.result);
      for (const id of wanted) one(conversationPrefix + id);
    };
    return promisifyRequest(store.transaction).then(() => ({ records, partial }));
  });
}

/** What a database's load records hold, each read and checked (`readLoadRecords`). */
interface StoredRecords {
  /** Readable conversations not deleted, with their request bodies if read, by id. */
  conversations: Map<string, Conversation>;
  bases: Map<string, Base>;
  bodies: Map<string, StoredBody>;
  unreadable: UnreadableRecord[];
  settingsValue: unknown;
  active: unknown;
  /** Only the first screen's conversations were read. */
  partial: boolean;
  recent: string[] | null;
}

async function readStoredRecords(
  db: UseStore,
  first: ReadonlySet<string> | 'all',
  includeBodies: boolean,
): Promise<StoredRecords> {
  const { records: all, partial } = await readLoadRecords(db, first, includeBodies);
  const unreadable: UnreadableRecord[] = [];
  const records: [string, unknown][] = [];
  const bodies = new Map<string, StoredBody>();
  const bases = new Map<string, Base>();
  let settingsValue: unknown;
  let active: unknown;
  let recent: string[] | null = null;
  for (const [key, value] of all) {
    if (typeof key !== 'string') continue;
    if (key.startsWith(conversationPrefix)) records.push([key, value]);
    else if (key.startsWith(requestPrefix)) noteRequestRecord(key, value, bodies, unreadable);
    else if (key.startsWith(deletedPrefix))
      bases.set(key.slice(deletedPrefix.length), { revision: recordRevision(value), conversation: null });
    else if (key === settingsKey) settingsValue = value;
    else if (key === activeKey) active = value;
    else if (key === recentKey) recent = readRecentRecord(value);
    else if (key.startsWith(setAsidePrefix)) {
      const what = key.includes(conversationPrefix) ? 'conversation' : 'settings';
      unreadable.push({ key, what, reason: 'set aside earlier: it could not be read', value });
    }
  }

  const conversations = new Map<string, Conversation>();
  for (const [key, value] of records) {
    const read = readConversationRecord(key, value);
    if (read.kind === 'unreadable') {
      unreadable.push({ key, what: 'conversation', reason: read.reason, value });
      continue;
    }
    const { id } = read.conversation;
    // A tombstone beside a record: the deletion wins.
    if (bases.get(id)?.conversation === null) continue;
    const conversation = settleInterrupted(withBodies(read.conversation, bodies));
    bases.set(id, { revision: read.revision, conversation });
    conversations.set(id, conversation);
  }
  return { conversations, bases, bodies, unreadable, settingsValue, active, partial, recent };
}

/**
 * The conversations another database of this browser holds (the one kept before signing in to team mode),
 * read whole, request bodies and all (they go to the account); unreadable ones left out (they stay where
 * they are).
 */
export async function readStoredConversations(db: UseStore): Promise<Conversation[]> {
  return [...(await readStoredRecords(db, 'all', true)).conversations.values()];
}

/**
 * The conversations a load reads besides the recent ones: those in `first`, and those the unload journal
 * holds (joined with their stored copies).
 */
function firstScreenIds(first: readonly string[], journal: Journal | null): Set<string> {
  const journalIds = journal
    ? [
        ...journal.deleted,
        ...journal.conversations.map((entry) => String((entry.record as { id?: unknown })?.id)),
      ]
    : [];
  return new Set([...first, ...journalIds]);
}

/** A load's reading of the database, started before the load (`readAheadOfLoad`). */
export interface ReadAhead {
  /** The conversations it reads besides the recent ones. */
  asked: ReadonlySet<string>;
  read: Promise<StoredRecords>;
  /** Whether the conversation the first screen opens holds an answer (false when unknown). */
  opensOnAnswer: Promise<boolean>;
}

/**
 * Whether the conversation a load of `read` opens holds an answer: the one the address names, else the
 * one active before the reload, else the newest. A hint, before the load, that the first screen will need
 * the markdown renderer.
 */
function opensOnAnswerIn(read: StoredRecords, first: readonly string[], journal: Journal | null): boolean {
  const active = journal?.activeId !== undefined ? journal.activeId : read.active;
  const named = [...first, active].find((id) => typeof id === 'string' && read.conversations.has(id));
  const opened =
    typeof named === 'string'
      ? read.conversations.get(named)
      : [...read.conversations.values()].reduce<Conversation | undefined>(
          (newest, c) => (!newest || c.updatedAt > newest.updatedAt ? c : newest),
          undefined,
        );
  return opened?.messages.some((message) => message.role === 'assistant') ?? false;
}

/**
 * Starts what `loadState` reads from `db` now, touching no store: single-person mode's first screen is
 * read while the server is asked who is here, and used only if nobody is (`loadState`'s `ahead`).
 */
export function readAheadOfLoad(db: UseStore, first: readonly string[]): ReadAhead {
  const journal = readJournal();
  const asked = firstScreenIds(first, journal);
  const read = readStoredRecords(db, asked, false);
  // A failure is the load's to report, if the load comes (team mode never takes this read).
  read.catch(() => {});
  const opensOnAnswer = read.then(
    (records) => opensOnAnswerIn(records, first, journal),
    () => false,
  );
  return { asked, read, opensOnAnswer };
}

/**
 * Loads what this browser stored into `stores`, recordings apart (`readLoadRecords`). Never throws: records
 * that cannot be read are left in the database and listed in `stores.storage` (`unreadable`); a database
 * that cannot be read at all is reported there (`loadError`), and a load that fails so starts empty and
 * never overwrites what is stored. Changes this tab had not committed before a reload are joined in.
 */
export async function loadState(
  db: UseStore,
  stores: AppStores,
  first: readonly string[] = [],
  ahead?: ReadAhead,
): Promise<LoadedState> {
  const journal = readJournal();
  let read: StoredRecords = {
    conversations: new Map(),
    bases: new Map(),
    bodies: new Map(),
    unreadable: [],
    settingsValue: undefined,
    active: undefined,
    partial: false,
    recent: null,
  };
  let ok = true;
  try {
    // What the unload journal holds is joined with its stored copy: read with the first screen. The
    // request bodies stay in the database: the inspector, a Retry and an export read the few they need.
    const wanted = firstScreenIds(first, journal);
    read =
      ahead && [...wanted].every((id) => ahead.asked.has(id))
        ? await ahead.read
        : await readStoredRecords(db, wanted, false);
  } catch (error) {
    ok = false;
    // The exception's own words: the UI says what failed around them (`storage.loadError`).
    stores.storage.getState().loadFailed(errorText(error));
  }
  const { conversations: loaded, bases, bodies, unreadable, settingsValue, active, partial, recent } = read;

  const unsavedTraces = new Set<string>();
  if (journal) restoreJournal(journal, bases, loaded, unsavedTraces, bodies);

  const storedActive = typeof active === 'string' ? active : null;
  const activeId = journal?.activeId !== undefined ? journal.activeId : storedActive;
  stores.conversations.getState().hydrate([...loaded.values()], activeId);

  const settings = readSettingsNoting(settingsValue, unreadable);
  const stored = settings?.settings ?? {};
  // The journal's settings come back from sessionStorage: read as the record's are.
  const local = { ...stored, ...readSettingsRecord(journal?.settings ?? undefined)?.settings };
  stores.settings.getState().hydrate(local.rememberKey ? local : { ...local, apiKey: readSessionKey() });
  stores.storage.getState().loaded(unreadable, settings?.wrong ?? []);
  return {
    ok,
    bases,
    settingsBase: asStoredSettings(stored),
    unsavedTraces,
    storedBodies: new Set(bodies.keys()),
    journal: journal !== null,
    partial,
    recent,
    // After a failed load nothing is known, and nothing is overwritten until the person picks a conversation.
    activeId: ok ? storedActive : stores.conversations.getState().activeId,
  };
}

/** How many conversation records are stored (a count over their keys: no value is read into the page). */
export function storedConversationCount(db: UseStore): Promise<number> {
  return db('readonly', (store) => promisifyRequest(store.count(prefixRange(conversationPrefix))));
}
