import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { Conversation } from '../domain/types.ts';
import {
  activeKey,
  conversationPrefix,
  deletedPrefix,
  readConversationRecord,
  readSettingsNoting,
  readSettingsRecord,
  recordRevision,
  requestPrefix,
  setAsidePrefix,
  settingsKey,
  type UnreadableRecord,
} from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import type { Settings } from '../stores/settingsStore.ts';
import { errorText, prefixRange } from './database.ts';
import { readJournal, restoreJournal } from './journal.ts';
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
  /** The active conversation as stored. */
  activeId: string | null;
}

/**
 * The records a load reads, in one transaction: conversations and their request bodies, tombstones,
 * records set aside, settings and the active conversation. Not the recordings (megabytes each: read when
 * the inspector asks) nor anything else kept in the database.
 */
function readLoadRecords(db: UseStore): Promise<[IDBValidKey, unknown][]> {
  return db('readonly', (store) => {
    const ranges = [conversationPrefix, requestPrefix, deletedPrefix, setAsidePrefix].map((prefix) => {
      const range = prefixRange(prefix);
      return { keys: store.getAllKeys(range), values: store.getAll(range) };
    });
    const singles = [settingsKey, activeKey].map((key) => ({ key, request: store.get(key) }));
    return promisifyRequest(store.transaction).then(() => [
      ...ranges.flatMap(({ keys, values }) =>
        keys.result.map((key, i): [IDBValidKey, unknown] => [key, values.result[i]]),
      ),
      ...singles.map(({ key, request }): [IDBValidKey, unknown] => [key, request.result]),
    ]);
  });
}

/** What a database's load records hold, each read and checked (`readLoadRecords`). */
interface StoredRecords {
  /** Readable conversations not deleted, with their request bodies, by id. */
  conversations: Map<string, Conversation>;
  bases: Map<string, Base>;
  bodies: Map<string, StoredBody>;
  unreadable: UnreadableRecord[];
  settingsValue: unknown;
  active: unknown;
}

async function readStoredRecords(db: UseStore): Promise<StoredRecords> {
  const all = await readLoadRecords(db);
  const unreadable: UnreadableRecord[] = [];
  const records: [string, unknown][] = [];
  const bodies = new Map<string, StoredBody>();
  const bases = new Map<string, Base>();
  let settingsValue: unknown;
  let active: unknown;
  for (const [key, value] of all) {
    if (typeof key !== 'string') continue;
    if (key.startsWith(conversationPrefix)) records.push([key, value]);
    else if (key.startsWith(requestPrefix)) noteRequestRecord(key, value, bodies, unreadable);
    else if (key.startsWith(deletedPrefix))
      bases.set(key.slice(deletedPrefix.length), { revision: recordRevision(value), conversation: null });
    else if (key === settingsKey) settingsValue = value;
    else if (key === activeKey) active = value;
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
  return { conversations, bases, bodies, unreadable, settingsValue, active };
}

/**
 * The conversations another database of this browser holds (the one kept before signing in to team mode),
 * read as a load reads them; unreadable ones left out (they stay where they are).
 */
export async function readStoredConversations(db: UseStore): Promise<Conversation[]> {
  return [...(await readStoredRecords(db)).conversations.values()];
}

/**
 * Loads what this browser stored into `stores`, recordings apart (`readLoadRecords`). Never throws: records
 * that cannot be read are left in the database and listed in `stores.storage` (`unreadable`); a database
 * that cannot be read at all is reported there (`loadError`), and a load that fails so starts empty and
 * never overwrites what is stored. Changes this tab had not committed before a reload are joined in.
 */
export async function loadState(db: UseStore, stores: AppStores): Promise<LoadedState> {
  const journal = readJournal();
  let read: StoredRecords = {
    conversations: new Map(),
    bases: new Map(),
    bodies: new Map(),
    unreadable: [],
    settingsValue: undefined,
    active: undefined,
  };
  let ok = true;
  try {
    read = await readStoredRecords(db);
  } catch (error) {
    ok = false;
    // The exception's own words: the UI says what failed around them (`storage.loadError`).
    stores.storage.getState().loadFailed(errorText(error));
  }
  const { conversations: loaded, bases, bodies, unreadable, settingsValue, active } = read;

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
    // After a failed load nothing is known, and nothing is overwritten until the person picks a conversation.
    activeId: ok ? storedActive : stores.conversations.getState().activeId,
  };
}
