import { createStore, entries, promisifyRequest, type UseStore } from 'idb-keyval';
import type { AppStores } from './appStores.ts';
import { withoutUserInfo } from './conversationExport.ts';
import { clearJournal, type Journal, readJournal, writeJournal } from './journal.ts';
import { mergeConversation, sameContent } from './merge.ts';
import {
  type RecordingLoad,
  type RecordingLoads,
  recordingKeptApart,
  withFiguresKept,
} from './recordings.ts';
import {
  activeKey,
  conversationPrefix,
  deletedPrefix,
  readConversationRecord,
  readSettingsRecord,
  readTraceRecord,
  recordRevision,
  type StoredTrace,
  setAsidePrefix,
  settingsKey,
  type Tombstone,
  tracePrefix,
  type UnreadableRecord,
} from './records.ts';
import { defaultSettings, type Settings } from './settingsStore.ts';
import { readChangeMessage, type TabChannel } from './tabSync.ts';
import type { Attempt, AttemptTrace, Conversation } from './types.ts';

/**
 * Conversations and settings survive a reload in IndexedDB (through idb-keyval), and stay coherent
 * across tabs.
 *
 * - **Records**: each conversation is its own record, written only when changed; the recordings of
 *   attempts (up to megabytes each) are records of their own, written when they change and, while they
 *   still grow, at most every `traceDelayMs`. A load reads the conversation records only: a recording is
 *   read when the inspector asks for it (`stores.recordings`), its figures being in its conversation's
 *   record. Every record is validated when read (`records.ts`): an unreadable one is left exactly as it
 *   is, reported, and offered for download; the others load.
 * - **When**: a change that adds or removes something (a sent message, a new, renamed or deleted
 *   conversation, an answer that ends, a setting) is written at once; a streaming answer at most every
 *   `delayMs`. On `pagehide` what is not yet committed is also kept synchronously in `sessionStorage`
 *   (`journal.ts`), because IndexedDB writes started while a page unloads may never commit; the next
 *   load joins it with the database.
 * - **Tabs**: every conversation record carries a revision. A write reads the record in the same
 *   transaction and, if another tab stored a newer revision meanwhile, joins both copies (`merge.ts`)
 *   instead of overwriting; a deleted conversation leaves a tombstone, and a deletion always wins (only
 *   a restored backup brings one back, on purpose: `writeRestored`). After each committed write a tab
 *   posts what it stored on a BroadcastChannel (`tabSync.ts`); the others read those records and update.
 *   Settings are written as the fields this tab changed, on top of what is stored, so neither tab undoes
 *   the other's changes.
 * - **Failures**: a failed write is reported and retried, settings included; a load that fails
 *   altogether starts empty and never overwrites what is stored.
 */

const sessionKeyName = 'hopbase-chat.api-key';

export function openDatabase(): UseStore {
  return createStore('hopbase-chat', 'state');
}

const interruptedByReload = {
  code: 'page_reloaded',
  message: 'The page was closed or reloaded while this answer was streaming.',
};

/** An answer still streaming when the page went away can never finish: it is interrupted, not lost. */
export function settleInterrupted(conversation: Conversation): Conversation {
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.role !== 'assistant' || !m.attempts.some((a) => a.turn.status === 'streaming')) return m;
    changed = true;
    return {
      ...m,
      attempts: m.attempts.map((a) =>
        a.turn.status === 'streaming'
          ? { ...a, turn: { ...a.turn, status: 'interrupted' as const, error: interruptedByReload } }
          : a,
      ),
    };
  });
  return changed ? { ...conversation, messages } : conversation;
}

/** Everything that persists, minus the API key unless the person chose to keep it here. */
function storableSettings(settings: Settings): Settings {
  return settings.rememberKey ? settings : { ...settings, apiKey: '' };
}

/** The settings fields where `settings` differs from `base`. */
function changedSettings(settings: Settings, base: Settings): Partial<Settings> {
  const changed: Record<string, unknown> = {};
  const mine = storableSettings(settings) as unknown as Record<string, unknown>;
  const theirs = base as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)]))
    if (!sameContent(mine[key], theirs[key])) changed[key] = mine[key];
  return changed as Partial<Settings>;
}

/** A conversation as its record stores it: the recordings' bulk lives in trace records. */
function withoutRecordings(conversation: Conversation): Conversation {
  return {
    ...conversation,
    messages: conversation.messages.map((m) =>
      m.role === 'assistant'
        ? { ...m, attempts: m.attempts.map((a) => ({ ...a, trace: withFiguresKept(a) })) }
        : m,
    ),
  };
}

function withRecordings(conversation: Conversation, traces: Map<string, StoredTrace>): Conversation {
  if (traces.size === 0) return conversation;
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.role !== 'assistant' || !m.attempts.some((a) => traces.has(a.id))) return m;
    changed = true;
    return {
      ...m,
      attempts: m.attempts.map((a) => {
        const stored = traces.get(a.id);
        return stored ? { ...a, trace: { ...a.trace, items: stored.items, raw: stored.raw } } : a;
      }),
    };
  });
  return changed ? { ...conversation, messages } : conversation;
}

function attemptsOf(conversation: Conversation): Attempt[] {
  return conversation.messages.flatMap((m) => (m.role === 'assistant' ? m.attempts : []));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the database holds for one conversation: its revision (null: unknown) and the content it came from (null: deleted). */
interface Base {
  revision: number | null;
  conversation: Conversation | null;
}

/** What a load found, handed to `startPersisting` so that it writes only what differs from it. */
export interface LoadedState {
  /** False when the database could not be read at all. */
  ok: boolean;
  bases: Map<string, Base>;
  /** The settings as stored (defaults filled in), in stored form. */
  settingsBase: Settings;
  /** Recordings restored from the unload journal, not yet in the database. */
  unsavedTraces: Set<string>;
  /** Whether an unload journal was found (it is cleared once everything in it is stored). */
  journal: boolean;
  /** The active conversation as stored. */
  activeId: string | null;
}

function readSessionKey(): string {
  try {
    return globalThis.sessionStorage?.getItem(sessionKeyName) ?? '';
  } catch {
    return '';
  }
}

/**
 * The records a load reads, in one transaction: conversations, tombstones, records set aside, settings and
 * the active conversation. Not the recordings (megabytes each: read when the inspector asks) nor anything
 * else kept in the database.
 */
function readLoadRecords(db: UseStore): Promise<[IDBValidKey, unknown][]> {
  return db('readonly', (store) => {
    const ranges = [conversationPrefix, deletedPrefix, setAsidePrefix].map((prefix) => {
      const range = IDBKeyRange.bound(prefix, `${prefix}\uffff`);
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

/**
 * Loads what this browser stored into `stores`, recordings apart (`readLoadRecords`). Never throws: records
 * that cannot be read are left in the database and listed in `stores.storage` (`unreadable`); a database
 * that cannot be read at all is reported there (`loadError`). Changes this tab had not committed before a
 * reload are joined in.
 */
export async function loadState(db: UseStore, stores: AppStores): Promise<LoadedState> {
  const journal = readJournal();
  let all: [IDBValidKey, unknown][] = [];
  let ok = true;
  try {
    all = await readLoadRecords(db);
  } catch (error) {
    ok = false;
    // The exception's own words: the UI says what failed around them (`storage.loadError`).
    stores.storage.setState({ loadError: errorText(error) });
  }

  const unreadable: UnreadableRecord[] = [];
  const records: [string, unknown][] = [];
  const bases = new Map<string, Base>();
  let settingsValue: unknown;
  let active: unknown;
  for (const [key, value] of all) {
    if (typeof key !== 'string') continue;
    if (key.startsWith(conversationPrefix)) records.push([key, value]);
    else if (key.startsWith(deletedPrefix))
      bases.set(key.slice(deletedPrefix.length), { revision: recordRevision(value), conversation: null });
    else if (key === settingsKey) settingsValue = value;
    else if (key === activeKey) active = value;
    else if (key.startsWith(setAsidePrefix)) {
      const what = key.includes(conversationPrefix) ? 'conversation' : 'settings';
      unreadable.push({ key, what, reason: 'set aside earlier: it could not be read', value });
    }
  }

  const loaded = new Map<string, Conversation>();
  for (const [key, value] of records) {
    const read = readConversationRecord(key, value);
    if (read.kind === 'unreadable') {
      unreadable.push({ key, what: 'conversation', reason: read.reason, value });
      continue;
    }
    const { id } = read.conversation;
    // A tombstone beside a record: the deletion wins.
    if (bases.get(id)?.conversation === null) continue;
    const conversation = settleInterrupted(read.conversation);
    bases.set(id, { revision: read.revision, conversation });
    loaded.set(id, conversation);
  }

  const unsavedTraces = new Set<string>();
  if (journal) restoreJournal(journal, bases, loaded, unsavedTraces);

  const storedActive = typeof active === 'string' ? active : null;
  const activeId = journal?.activeId !== undefined ? journal.activeId : storedActive;
  stores.conversations.getState().hydrate([...loaded.values()], activeId);

  const settings = readSettingsRecord(settingsValue);
  if (settings === null)
    unreadable.push({
      key: settingsKey,
      what: 'settings',
      reason: 'not a settings record',
      value: settingsValue,
    });
  const stored = settings?.settings ?? {};
  const local = { ...stored, ...(journal?.settings ?? {}) };
  stores.settings.getState().hydrate(local.rememberKey ? local : { ...local, apiKey: readSessionKey() });
  stores.storage.setState({ unreadable, resetSettings: settings?.wrong ?? [] });
  return {
    ok,
    bases,
    settingsBase: storableSettings({ ...defaultSettings, ...stored }),
    unsavedTraces,
    journal: journal !== null,
    // After a failed load nothing is known, and nothing is overwritten until the person picks a conversation.
    activeId: ok ? storedActive : stores.conversations.getState().activeId,
  };
}

/** Joins what the unload journal kept with what the database holds; a deletion on either side wins. */
function restoreJournal(
  journal: Journal,
  bases: Map<string, Base>,
  loaded: Map<string, Conversation>,
  unsavedTraces: Set<string>,
) {
  const journalTraces = new Map<string, StoredTrace>();
  for (const [id, value] of Object.entries(journal.traces)) {
    const trace = readTraceRecord(value);
    if (typeof trace !== 'string') journalTraces.set(id, trace);
  }
  const deleted = new Set(journal.deleted);
  for (const id of deleted) loaded.delete(id);
  for (const entry of journal.conversations) {
    const id = (entry.record as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || deleted.has(id)) continue;
    const read = readConversationRecord(conversationPrefix + id, entry.record);
    if (read.kind !== 'conversation') continue;
    const base = bases.get(id);
    if (base?.conversation === null) continue;
    let restored = withRecordings(read.conversation, journalTraces);
    const current = loaded.get(id);
    if (current && base?.revision !== entry.baseRevision)
      restored = mergeConversation(restored, current, { title: entry.baseTitle ?? current.title });
    restored = settleInterrupted(restored);
    if (current && sameContent(restored, current)) continue;
    loaded.set(id, restored);
    for (const attempt of attemptsOf(restored))
      if (journalTraces.has(attempt.id)) unsavedTraces.add(attempt.id);
  }
}

export interface PersistOptions {
  /** What `loadState` found; without it, the stores' content at start is taken as what is stored. */
  loaded?: LoadedState;
  /** The channel to other tabs (`openTabChannel()`); it is closed when persisting stops. */
  channel?: TabChannel | null;
  /** How long a failed write waits before it is tried again. */
  retryDelayMs?: number;
}

interface Outcome {
  id: string;
  revision: number;
  /** What the record holds now: the conversation written (null: deleted). */
  stored: Conversation | null;
  /** The local copy the write started from. */
  local: Conversation | null;
}

/**
 * Starts writing changes back and listening to other tabs; returns a function that flushes pending writes
 * and stops.
 */
export function startPersisting(
  db: UseStore,
  stores: AppStores,
  delayMs = 400,
  traceDelayMs = 2000,
  options: PersistOptions = {},
): () => Promise<void> {
  const { conversations: conversationStore, settings: settingsStore, storage } = stores;
  const { loaded, channel = null, retryDelayMs = 2000 } = options;
  const tabId = Math.random().toString(36).slice(2);
  const initial = conversationStore.getState().conversations;

  /** Per conversation, what the database holds as far as this tab knows: updated only on commit. */
  const bases = new Map<string, Base>(loaded?.bases);
  if (!loaded)
    for (const [id, conversation] of Object.entries(initial)) bases.set(id, { revision: null, conversation });
  let settingsBase = loaded?.settingsBase ?? storableSettings(settingsStore.getState().settings);
  let sentActive = loaded ? loaded.activeId : conversationStore.getState().activeId;

  // Recordings: the one last sent (with when, for the throttle) and the one last committed.
  const sentTraces = new Map<string, { trace: AttemptTrace; at: number }>();
  const committedTraces = new Map<string, AttemptTrace>();
  for (const conversation of Object.values(initial))
    for (const attempt of attemptsOf(conversation)) {
      if (loaded?.unsavedTraces.has(attempt.id)) continue;
      sentTraces.set(attempt.id, { trace: attempt.trace, at: 0 });
      committedTraces.set(attempt.id, attempt.trace);
    }
  /** Recordings being read for `stores.recordings` now. */
  const reading = new Set<string>();

  let journalKept = loaded?.journal ?? false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let soon = false;
  let running: Promise<void> | null = null;
  let again = false;
  let againForce = false;
  /** What other tabs said they stored, not yet read. */
  const remote = new Map<string, number>();
  let remoteSettings = false;
  let resync = false;

  function run(force = false): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (running) {
      again = true;
      againForce ||= force;
      return running;
    }
    running = (async () => {
      let f = force;
      do {
        again = false;
        againForce = false;
        await step(f);
        f = againForce;
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const schedule = () => {
    if (!stopped) timer ??= setTimeout(run, delayMs);
  };
  const runSoon = () => {
    if (soon || stopped) return;
    soon = true;
    queueMicrotask(() => {
      soon = false;
      void run();
    });
  };

  async function step(force: boolean) {
    if (remote.size || remoteSettings || resync) {
      try {
        await readRemote();
      } catch (error) {
        console.warn('Could not read what another tab stored', error);
      }
    }
    await write(force);
  }

  // ---- Writing ----------------------------------------------------------------------------------

  function tracesToWrite(conversation: Conversation, force: boolean, now: number) {
    const out: { attempt: Attempt; entry: { trace: AttemptTrace; at: number } }[] = [];
    for (const attempt of attemptsOf(conversation)) {
      const previous = sentTraces.get(attempt.id);
      // Not in memory: the database holds it, and an empty copy must never replace it there.
      if (previous?.trace === attempt.trace || recordingKeptApart(attempt)) continue;
      // A recording that still grows is written now and then; the final one always.
      if (!force && previous && attempt.turn.status === 'streaming' && now - previous.at < traceDelayMs)
        continue;
      out.push({ attempt, entry: { trace: attempt.trace, at: now } });
    }
    return out;
  }

  function pendingDeletions(conversations: Record<string, Conversation>): [string, Base][] {
    return [...bases].filter(([id, base]) => base.conversation !== null && !conversations[id]);
  }

  async function write(force: boolean) {
    const { conversations, activeId } = conversationStore.getState();
    const localSettings = settingsStore.getState().settings;
    const now = Date.now();
    const changed = Object.values(conversations).filter((c) => bases.get(c.id)?.conversation !== c);
    const deletions = pendingDeletions(conversations);
    const traces = new Map<string, ReturnType<typeof tracesToWrite>>();
    for (const conversation of force ? Object.values(conversations) : changed) {
      const list = tracesToWrite(conversation, force, now);
      if (list.length) traces.set(conversation.id, list);
    }
    const settingsPatch = changedSettings(localSettings, settingsBase);
    const settingsChanged = Object.keys(settingsPatch).length > 0;
    const activeChanged = activeId !== sentActive;
    if (!changed.length && !deletions.length && !traces.size && !settingsChanged && !activeChanged) {
      if (journalKept) {
        clearJournal();
        journalKept = false;
      }
      return;
    }
    for (const list of traces.values())
      for (const { attempt, entry } of list) sentTraces.set(attempt.id, entry);

    const outcomes: Outcome[] = [];
    const setAside: UnreadableRecord[] = [];
    let storedSettings: Settings | null = null;
    try {
      await db('readwrite', (store) => {
        const keep = (key: string, value: unknown, what: UnreadableRecord['what'], reason: string) => {
          const copy = `${setAsidePrefix}${key}:${now}`;
          store.put(value, copy);
          setAside.push({ key: copy, what, reason, value });
        };
        const putTraces = (list: ReturnType<typeof tracesToWrite> | undefined) => {
          for (const { attempt } of list ?? [])
            store.put(
              { items: attempt.trace.items, raw: attempt.trace.raw } satisfies StoredTrace,
              tracePrefix + attempt.id,
            );
        };
        const deleteTraces = (...copies: (Conversation | null | undefined)[]) => {
          for (const copy of copies)
            for (const attempt of copy ? attemptsOf(copy) : []) store.delete(tracePrefix + attempt.id);
        };
        /** Reads the record and the tombstone of `id`, then decides. */
        const withStored = (
          id: string,
          decide: (record: unknown, tombstone: unknown, revision: number) => void,
        ) => {
          const record = store.get(conversationPrefix + id);
          const tombstone = store.get(deletedPrefix + id);
          tombstone.onsuccess = () => {
            const revision = Math.max(recordRevision(record.result), recordRevision(tombstone.result));
            decide(record.result, tombstone.result, revision);
          };
        };

        for (const local of changed) {
          const base = bases.get(local.id);
          withStored(local.id, (value, tombstone, storedRevision) => {
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
            putTraces(traces.get(local.id));
            outcomes.push({ id: local.id, revision: next, stored: content, local });
          });
        }
        for (const [id, base] of deletions) {
          withStored(id, (value, tombstone, storedRevision) => {
            if (tombstone === undefined) {
              const next = Math.max(storedRevision, base.revision ?? 0) + 1;
              let other: Conversation | null = null;
              if (value !== undefined) {
                const read = readConversationRecord(conversationPrefix + id, value);
                if (read.kind === 'unreadable')
                  keep(conversationPrefix + id, value, 'conversation', read.reason);
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
        for (const [id, list] of traces) if (!changed.some((c) => c.id === id)) putTraces(list);
        if (settingsChanged) {
          const request = store.get(settingsKey);
          request.onsuccess = () => {
            const read = readSettingsRecord(request.result);
            if (read === null) keep(settingsKey, request.result, 'settings', 'not a settings record');
            // The fields this tab changed, on top of what is stored: other tabs' changes stay.
            const merged = { ...(read === null ? {} : (request.result as object)), ...settingsPatch };
            store.put(merged, settingsKey);
            storedSettings = storableSettings({
              ...defaultSettings,
              ...(readSettingsRecord(merged)?.settings ?? {}),
            });
          };
        }
        if (activeChanged) store.put(activeId, activeKey);
        return promisifyRequest(store.transaction);
      });
    } catch (error) {
      // Nothing of it was stored: the next flush writes it all again.
      for (const list of traces.values())
        for (const { attempt, entry } of list)
          if (sentTraces.get(attempt.id) === entry) sentTraces.delete(attempt.id);
      storage.setState({ error: errorText(error) });
      if (!stopped) timer ??= setTimeout(run, retryDelayMs);
      return;
    }

    if (storage.getState().error) storage.setState({ error: null });
    if (activeChanged) sentActive = activeId;
    for (const list of traces.values())
      for (const { attempt } of list) committedTraces.set(attempt.id, attempt.trace);
    if (setAside.length) storage.setState((s) => ({ unreadable: [...s.unreadable, ...setAside] }));
    const upserts: Conversation[] = [];
    const removals: string[] = [];
    for (const { id, revision, stored, local } of outcomes) {
      bases.set(id, { revision, conversation: stored });
      if (stored === null) {
        if (local) removals.push(id);
        continue;
      }
      if (stored !== local) upserts.push(stored);
    }
    applyToStore(upserts, removals, new Map(changed.map((c) => [c.id, c])));
    if (storedSettings) applySettings(storedSettings, settingsPatch);
    post(
      outcomes.map(({ id, revision }) => ({ id, revision })),
      settingsChanged,
    );
    if (journalKept && !isDirty()) {
      clearJournal();
      journalKept = false;
    }
  }

  function isDirty(): boolean {
    const { conversations } = conversationStore.getState();
    return (
      Object.values(conversations).some((c) => bases.get(c.id)?.conversation !== c) ||
      pendingDeletions(conversations).length > 0 ||
      [...(loaded?.unsavedTraces ?? [])].some((id) => !committedTraces.has(id))
    );
  }

  // ---- Applying what the database holds ---------------------------------------------------------

  /**
   * Puts stored copies into the store. Where this tab changed a conversation since `from` (the copy the
   * stored one was made from), the change is joined in and written by the next flush.
   */
  function applyToStore(upserts: Conversation[], removals: string[], from: Map<string, Conversation | null>) {
    if (!upserts.length && !removals.length) return;
    /** Recordings that came from the database: not this tab's to write again. */
    const fromDatabase: Attempt[] = [];
    conversationStore.setState((state) => {
      const conversations = { ...state.conversations };
      let order = state.order;
      for (const stored of upserts) {
        const current = conversations[stored.id];
        const previous = from.get(stored.id) ?? null;
        // Deleted here meanwhile: the deletion is written next.
        if (!current && previous) continue;
        const own = new Set(current ? attemptsOf(current).map((a) => a.trace) : []);
        for (const attempt of attemptsOf(stored)) if (!own.has(attempt.trace)) fromDatabase.push(attempt);
        if (!current) order = [stored.id, ...order];
        conversations[stored.id] =
          !current || current === previous ? stored : mergeConversation(current, stored, previous);
      }
      for (const id of removals) delete conversations[id];
      if (removals.length) order = order.filter((id) => conversations[id]);
      const activeId =
        state.activeId !== null && !conversations[state.activeId] ? (order[0] ?? null) : state.activeId;
      return { conversations, order, activeId };
    });
    const now = Date.now();
    for (const attempt of fromDatabase) {
      sentTraces.set(attempt.id, { trace: attempt.trace, at: now });
      committedTraces.set(attempt.id, attempt.trace);
    }
  }

  // ---- Recordings, when asked for ---------------------------------------------------------------

  function onRecordingLoads({ loads }: RecordingLoads) {
    const wanted = Object.keys(loads).filter((id) => loads[id] === 'loading' && !reading.has(id));
    if (wanted.length) void readRecordings(wanted);
  }

  /**
   * Reads the events of recordings kept apart (this tab's from an earlier visit, or another tab's), for
   * the inspector and exports, and puts them into their attempts; `stores.recordings` then says what
   * became of each: gone from it once in memory, else why not.
   */
  async function readRecordings(ids: string[]) {
    for (const id of ids) reading.add(id);
    const found = new Map<string, StoredTrace>();
    const failed = new Map<string, RecordingLoad>();
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
    if (stopped) return;
    if (found.size) fillRecordings(found);
    const listed = new Set(storage.getState().unreadable.map((r) => r.key));
    const fresh = unreadable.filter((r) => !listed.has(r.key));
    if (fresh.length) storage.setState((s) => ({ unreadable: [...s.unreadable, ...fresh] }));
    stores.recordings.setState((s) => {
      const loads = { ...s.loads };
      for (const id of ids) {
        const problem = failed.get(id);
        if (problem) loads[id] = problem;
        else delete loads[id];
      }
      return { loads };
    });
  }

  function fillRecordings(found: Map<string, StoredTrace>) {
    const filled: Attempt[] = [];
    conversationStore.setState((state) => {
      let conversations = state.conversations;
      for (const conversation of Object.values(state.conversations)) {
        const next = withRecordings(
          conversation,
          new Map(
            attemptsOf(conversation)
              .filter((a) => found.has(a.id) && recordingKeptApart(a))
              .map((a) => [a.id, found.get(a.id)!]),
          ),
        );
        if (next === conversation) continue;
        conversations = { ...conversations, [next.id]: next };
        // The stored copy now holds the recording too: not a change of this tab's to write.
        const base = bases.get(next.id);
        if (base?.conversation === conversation) bases.set(next.id, { ...base, conversation: next });
        for (const attempt of attemptsOf(next)) if (found.has(attempt.id)) filled.push(attempt);
      }
      return conversations === state.conversations ? state : { conversations };
    });
    for (const attempt of filled) {
      sentTraces.set(attempt.id, { trace: attempt.trace, at: Date.now() });
      committedTraces.set(attempt.id, attempt.trace);
    }
  }

  /**
   * Takes in stored settings (`written`: the fields this tab just wrote): every field this tab has not
   * changed since follows the stored one. The API key stays this tab's own unless it is remembered.
   */
  function applySettings(stored: Settings, written: Partial<Settings>) {
    const before = settingsBase as unknown as Record<string, unknown>;
    settingsBase = stored;
    const current = settingsStore.getState().settings;
    const mine = storableSettings(current) as unknown as Record<string, unknown>;
    const theirs = stored as unknown as Record<string, unknown>;
    const ours = written as Record<string, unknown>;
    const next: Record<string, unknown> = { ...current };
    let differs = false;
    for (const key of new Set([...Object.keys(theirs), ...Object.keys(before)])) {
      if (theirs[key] === undefined || (key === 'apiKey' && !stored.rememberKey)) continue;
      const untouched =
        sameContent(mine[key], before[key]) || (key in ours && sameContent(mine[key], ours[key]));
      if (untouched && !sameContent(next[key], theirs[key])) {
        next[key] = theirs[key];
        differs = true;
      }
    }
    if (differs) settingsStore.setState({ settings: next as unknown as Settings });
  }

  async function readRemote() {
    const wanted = [...remote].filter(([id, revision]) => {
      const known = bases.get(id)?.revision;
      return known === null || known === undefined || revision > known;
    });
    remote.clear();
    const wantSettings = remoteSettings;
    remoteSettings = false;
    const everything = resync;
    resync = false;
    if (!wanted.length && !wantSettings && !everything) return;

    const conversationsRead: { id: string; value: unknown; tombstone: unknown }[] = [];
    let settingsValue: unknown;
    await db('readonly', (store) => {
      if (everything) {
        const range = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);
        const keys = store.getAllKeys(range(conversationPrefix));
        const values = store.getAll(range(conversationPrefix));
        const deadKeys = store.getAllKeys(range(deletedPrefix));
        const dead = store.getAll(range(deletedPrefix));
        dead.onsuccess = () => {
          const tombstones = new Map(
            (deadKeys.result as string[]).map((k, i) => [k.slice(deletedPrefix.length), dead.result[i]]),
          );
          (keys.result as string[]).forEach((k, i) => {
            const id = k.slice(conversationPrefix.length);
            conversationsRead.push({ id, value: values.result[i], tombstone: tombstones.get(id) });
            tombstones.delete(id);
          });
          for (const [id, tombstone] of tombstones)
            conversationsRead.push({ id, value: undefined, tombstone });
        };
      } else
        for (const [id] of wanted) {
          const value = store.get(conversationPrefix + id);
          const tombstone = store.get(deletedPrefix + id);
          tombstone.onsuccess = () =>
            conversationsRead.push({ id, value: value.result, tombstone: tombstone.result });
        }
      if (wantSettings || everything) {
        const request = store.get(settingsKey);
        request.onsuccess = () => {
          settingsValue = request.result;
        };
      }
      return promisifyRequest(store.transaction);
    });

    const upserts: Conversation[] = [];
    const removals: string[] = [];
    const from = new Map<string, Conversation | null>();
    for (const { id, value, tombstone } of conversationsRead) {
      const base = bases.get(id);
      const known = base?.revision ?? null;
      if (tombstone !== undefined) {
        const revision = recordRevision(tombstone);
        if (base?.conversation === null && known !== null && revision <= known) continue;
        bases.set(id, { revision, conversation: null });
        if (conversationStore.getState().conversations[id]) removals.push(id);
        continue;
      }
      if (value === undefined) continue;
      const read = readConversationRecord(conversationPrefix + id, value);
      if (read.kind === 'unreadable') continue;
      if (known !== null && read.revision <= known) continue;
      // A record newer than the tombstone this tab knew, with the tombstone gone: a restored backup
      // brought it back (`writeRestored`); no other write ever stores a record past a tombstone.
      const stored = keepLocalRecordings(read.conversation);
      from.set(id, base?.conversation ?? null);
      bases.set(id, { revision: read.revision, conversation: stored });
      upserts.push(stored);
    }
    applyToStore(upserts, removals, from);
    if (settingsValue !== undefined) {
      const read = readSettingsRecord(settingsValue);
      if (read) applySettings(storableSettings({ ...defaultSettings, ...read.settings }), {});
    }
  }

  /** A stored copy with this tab's recordings where they are the same ones (the record holds only their figures). */
  function keepLocalRecordings(stored: Conversation): Conversation {
    const local = conversationStore.getState().conversations[stored.id];
    if (!local) return stored;
    const mine = new Map(attemptsOf(local).map((a) => [a.id, a]));
    let changed = false;
    const messages = stored.messages.map((m) => {
      if (m.role !== 'assistant') return m;
      const attempts = m.attempts.map((a) => {
        const own = mine.get(a.id);
        if (!own || own.trace.bytes !== a.trace.bytes || own.trace.endedAt !== a.trace.endedAt) return a;
        if (sameContent(own, { ...a, trace: own.trace })) return own;
        changed = true;
        return { ...a, trace: own.trace };
      });
      if (attempts.every((a, i) => a === m.attempts[i])) return m;
      changed = true;
      return { ...m, attempts };
    });
    return changed ? { ...stored, messages } : stored;
  }

  function post(conversations: { id: string; revision: number }[], settings: boolean) {
    if (!channel || (!conversations.length && !settings)) return;
    try {
      channel.postMessage({ type: 'stored', from: tabId, conversations, settings });
    } catch {
      // A closed channel (the page is going away): the other tabs read the records when they next write.
    }
  }

  // ---- Listening ------------------------------------------------------------------------------

  /** Whether a change adds or removes something (written at once) rather than a streaming frame. */
  function isStructural(next: Record<string, Conversation>, previous: Record<string, Conversation>): boolean {
    const nextIds = Object.keys(next);
    if (nextIds.length !== Object.keys(previous).length) return true;
    for (const id of nextIds) {
      const a = next[id]!;
      const b = previous[id];
      if (a === b) continue;
      if (!b || a.messages.length !== b.messages.length || a.title !== b.title) return true;
      const last = a.messages.at(-1);
      const before = b.messages.at(-1);
      if (last?.role === 'assistant' && before?.role === 'assistant') {
        if (last.attempts.length !== before.attempts.length) return true;
        if (last.attempts.at(-1)?.turn.status !== before.attempts.at(-1)?.turn.status) return true;
      }
    }
    return false;
  }

  const stopConversations = conversationStore.subscribe((state, previous) => {
    if (state.conversations === previous.conversations && state.activeId === previous.activeId) return;
    if (isStructural(state.conversations, previous.conversations)) runSoon();
    else schedule();
  });
  const stopSettings = settingsStore.subscribe((state, previous) => {
    if (state.settings === previous.settings) return;
    runSoon();
    try {
      const session = globalThis.sessionStorage;
      if (state.settings.rememberKey || !state.settings.apiKey) session?.removeItem(sessionKeyName);
      else session?.setItem(sessionKeyName, state.settings.apiKey);
    } catch {
      // sessionStorage disabled: the key lives in memory for this page only.
    }
  });

  /** Keeps what is not yet committed in sessionStorage, synchronously: IndexedDB may not finish in time. */
  function keepJournal() {
    const { conversations, activeId } = conversationStore.getState();
    const journalTraces: Record<string, StoredTrace> = {};
    const entries = Object.values(conversations)
      .filter((c) => bases.get(c.id)?.conversation !== c)
      .map((record) => {
        const base = bases.get(record.id);
        for (const attempt of attemptsOf(record))
          if (committedTraces.get(attempt.id) !== attempt.trace && attempt.trace.items.length)
            journalTraces[attempt.id] = { items: attempt.trace.items, raw: attempt.trace.raw };
        return {
          record: withoutRecordings(record),
          baseRevision: base?.revision ?? 0,
          baseTitle: base?.conversation?.title ?? null,
        };
      });
    const deleted = pendingDeletions(conversations).map(([id]) => id);
    const settingsPatch = changedSettings(settingsStore.getState().settings, settingsBase);
    const settings = Object.keys(settingsPatch).length ? settingsPatch : null;
    if (!entries.length && !deleted.length && !settings && activeId === sentActive) {
      if (journalKept) clearJournal();
      journalKept = false;
      return;
    }
    journalKept = writeJournal({
      v: 1,
      at: Date.now(),
      conversations: entries,
      deleted,
      traces: journalTraces,
      settings,
      activeId,
    });
  }

  const onHide = () => {
    keepJournal();
    void run(true);
  };
  const onVisibility = () => {
    if (globalThis.document?.visibilityState === 'hidden') void run(true);
  };
  const onShow = (event: Event) => {
    // Back from the back/forward cache: what other tabs said meanwhile may have been missed.
    if ((event as PageTransitionEvent).persisted) {
      resync = true;
      void run();
    }
  };
  const onMessage = (event: MessageEvent) => {
    const message = readChangeMessage(event.data);
    if (!message || message.from === tabId || stopped) return;
    for (const { id, revision } of message.conversations)
      remote.set(id, Math.max(revision, remote.get(id) ?? 0));
    remoteSettings ||= message.settings;
    void run();
  };
  globalThis.addEventListener?.('pagehide', onHide);
  globalThis.addEventListener?.('pageshow', onShow);
  globalThis.document?.addEventListener('visibilitychange', onVisibility);
  channel?.addEventListener('message', onMessage);
  const stopRecordings = stores.recordings.subscribe(onRecordingLoads);
  onRecordingLoads(stores.recordings.getState());
  // Changes made before persisting started (restored from a reload's journal) are written at once.
  if (isDirty()) runSoon();

  return async () => {
    stopConversations();
    stopSettings();
    stopRecordings();
    globalThis.removeEventListener?.('pagehide', onHide);
    globalThis.removeEventListener?.('pageshow', onShow);
    globalThis.document?.removeEventListener('visibilitychange', onVisibility);
    channel?.removeEventListener('message', onMessage);
    await run(true);
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    channel?.close();
  };
}

// ---- Backup and restore -----------------------------------------------------------------------------

/** Everything this browser stores that the app can read: what a backup is made of. */
export interface StoredEverything {
  /** Every conversation not deleted, its recordings joined in, exactly as stored. */
  conversations: Conversation[];
  /** The settings record's readable fields (nothing filled in; the API key among them when remembered). */
  settings: Partial<Settings>;
  /** Records that could not be read: a backup leaves them out (they stay in the database, unchanged). */
  unreadable: UnreadableRecord[];
}

/**
 * Reads every record, as `loadState` does but without touching any store or the unload journal. Throws
 * when the database cannot be read at all.
 */
export async function readEverything(db: UseStore): Promise<StoredEverything> {
  const all = await entries<IDBValidKey, unknown>(db);
  const unreadable: UnreadableRecord[] = [];
  const traces = new Map<string, StoredTrace>();
  const deleted = new Set<string>();
  const records: [string, unknown][] = [];
  let settingsValue: unknown;
  for (const [key, value] of all) {
    if (typeof key !== 'string') continue;
    if (key.startsWith(tracePrefix)) {
      const trace = readTraceRecord(value);
      if (typeof trace === 'string') unreadable.push({ key, what: 'recording', reason: trace, value });
      else traces.set(key.slice(tracePrefix.length), trace);
    } else if (key.startsWith(conversationPrefix)) records.push([key, value]);
    else if (key.startsWith(deletedPrefix)) deleted.add(key.slice(deletedPrefix.length));
    else if (key === settingsKey) settingsValue = value;
  }
  const conversations: Conversation[] = [];
  for (const [key, value] of records) {
    const read = readConversationRecord(key, value);
    if (read.kind === 'unreadable')
      unreadable.push({ key, what: 'conversation', reason: read.reason, value });
    else if (!deleted.has(read.conversation.id))
      conversations.push(withRecordings(read.conversation, traces));
  }
  const settings = readSettingsRecord(settingsValue);
  if (settings === null)
    unreadable.push({
      key: settingsKey,
      what: 'settings',
      reason: 'not a settings record',
      value: settingsValue,
    });
  return { conversations, settings: settings?.settings ?? {}, unreadable };
}

/** What a restore writes: conversations with their recordings in their attempts, and settings. */
export interface RestoreSet {
  conversations: Conversation[];
  /** Settings fields to apply; the API key and whether it is remembered are never taken from here. */
  settings: Partial<Settings> | null;
}

/** What a restore did, conversation by conversation (their ids). */
export interface RestoreOutcome {
  /** Not stored here before. */
  added: string[];
  /** Deleted here (a tombstone), brought back: a person restoring a backup wants what it holds. */
  revived: string[];
  /** Stored here too, joined with the backup's copy and changed by it. */
  joined: string[];
  /** Stored here already with everything the backup holds: not written. */
  unchanged: string[];
  /** Recordings written, and those the database held already. */
  recordingsWritten: number;
  recordingsKept: number;
  settings: 'applied' | 'unchanged' | 'none';
  /** Unreadable records that stood where a restored one goes: copied to `set-aside:` first, never lost. */
  setAside: UnreadableRecord[];
  /** Whether the other tabs (and this one) were told on the tab channel. */
  announced: boolean;
}

/** Settings a restore never takes: the key stays where it is, and so does the choice to remember it. */
const keptOnRestore = new Set<string>(['apiKey', 'rememberKey']);

/**
 * Writes a restored set through the same path as a tab's own writes, in one transaction: each
 * conversation is read with its tombstone and joined with the stored copy by `mergeConversation` (the join
 * of two tabs: messages and attempts united by id, nothing lost, nothing duplicated; the title here wins),
 * written under the next revision only when that changes something, so restoring the same backup twice
 * writes nothing the second time. A deleted conversation is brought back (its tombstone removed, its
 * revision past the tombstone's, so every tab takes it). Recordings are written where the restored attempt
 * is the one kept, or where the database lacks them; settings are written as fields on top of the stored
 * record. Once committed, what changed is posted on `channel` like any tab's save: the other tabs, and
 * this one's own persistence listening on its own channel object, read the records and update.
 */
export async function writeRestored(
  db: UseStore,
  set: RestoreSet,
  channel: TabChannel | null,
  now = Date.now(),
): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = {
    added: [],
    revived: [],
    joined: [],
    unchanged: [],
    recordingsWritten: 0,
    recordingsKept: 0,
    settings: set.settings ? 'unchanged' : 'none',
    setAside: [],
    announced: false,
  };
  const stored: { id: string; revision: number }[] = [];
  const patch = Object.fromEntries(
    Object.entries(set.settings ?? {}).filter(
      ([key, value]) => !keptOnRestore.has(key) && value !== undefined,
    ),
  );
  await db('readwrite', (store) => {
    const keep = (key: string, value: unknown, what: UnreadableRecord['what'], reason: string) => {
      const copy = `${setAsidePrefix}${key}:${now}`;
      store.put(value, copy);
      outcome.setAside.push({ key: copy, what, reason, value });
    };
    for (const original of set.conversations) {
      const { id } = original;
      const key = conversationPrefix + id;
      const record = store.get(key);
      const tombstone = store.get(deletedPrefix + id);
      tombstone.onsuccess = () => {
        const revision = Math.max(recordRevision(record.result), recordRevision(tombstone.result)) + 1;
        const incoming = settleInterrupted(original);
        let here: Conversation | null = null;
        if (tombstone.result === undefined && record.result !== undefined) {
          const read = readConversationRecord(key, record.result);
          if (read.kind === 'unreadable') keep(key, record.result, 'conversation', read.reason);
          else here = read.conversation;
        }
        const content = here ? mergeConversation(here, incoming) : incoming;
        // Recordings: the backup's goes with its attempt where that is the one kept (new here, or further
        // along); where the copy here is kept, so is its recording, unless this database lacks it.
        const fromBackup = new Map(attemptsOf(incoming).map((a) => [a.id, a]));
        const writes: [string, StoredTrace][] = [];
        const checks: {
          attempt: Attempt;
          restored: Attempt;
          request: IDBRequest<IDBValidKey | undefined>;
        }[] = [];
        for (const attempt of attemptsOf(content)) {
          const restored = fromBackup.get(attempt.id);
          if (!restored || (restored.trace.items.length === 0 && restored.trace.raw === '')) continue;
          if (attempt === restored) writes.push([attempt.id, restored.trace]);
          else checks.push({ attempt, restored, request: store.getKey(tracePrefix + attempt.id) });
        }
        const finish = () => {
          for (const { attempt, restored, request } of checks) {
            const same =
              attempt.trace.bytes === restored.trace.bytes &&
              attempt.trace.endedAt === restored.trace.endedAt;
            if (request.result === undefined && same) writes.push([attempt.id, restored.trace]);
            else outcome.recordingsKept++;
          }
          for (const [attemptId, trace] of writes)
            store.put({ items: trace.items, raw: trace.raw } satisfies StoredTrace, tracePrefix + attemptId);
          outcome.recordingsWritten += writes.length;
          const same = here !== null && sameContent(withoutRecordings(content), withoutRecordings(here));
          if (same && writes.length === 0) {
            outcome.unchanged.push(id);
            return;
          }
          // A recording added alone still raises the revision: the tabs then read the record and fetch it.
          store.put({ ...withoutRecordings(content), revision }, key);
          if (tombstone.result !== undefined) {
            store.delete(deletedPrefix + id);
            outcome.revived.push(id);
          } else (here ? outcome.joined : outcome.added).push(id);
          stored.push({ id, revision });
        };
        // Requests of one transaction complete in order: when the last check is done, all are.
        const last = checks.at(-1)?.request;
        if (last) last.onsuccess = finish;
        else finish();
      };
    }
    if (set.settings) {
      const request = store.get(settingsKey);
      request.onsuccess = () => {
        const read = readSettingsRecord(request.result);
        if (read === null) keep(settingsKey, request.result, 'settings', 'not a settings record');
        const base = (read === null || request.result === undefined ? {} : request.result) as Record<
          string,
          unknown
        >;
        // Compared as the app sees them (a field stored as its default is no change), and only what differs
        // is written, on top of what is stored.
        const current: Record<string, unknown> = { ...defaultSettings, ...read?.settings };
        const changes = Object.entries(patch).filter(([key, value]) => {
          // The gateway's address as backed up, without its user and password: those stay as they are here.
          if (
            key === 'baseUrl' &&
            typeof current.baseUrl === 'string' &&
            withoutUserInfo(current.baseUrl) === value
          )
            return false;
          return !sameContent(current[key], value);
        });
        if (read !== null && changes.length === 0) return;
        const merged = { ...base, ...Object.fromEntries(changes) };
        store.put(merged, settingsKey);
        outcome.settings = 'applied';
      };
    }
    return promisifyRequest(store.transaction);
  });
  if (channel && (stored.length || outcome.settings === 'applied')) {
    const from = `restore-${Math.random().toString(36).slice(2)}`;
    try {
      channel.postMessage({
        type: 'stored',
        from,
        conversations: stored,
        settings: outcome.settings === 'applied',
      });
      outcome.announced = true;
    } catch {
      // A closed channel: the other tabs read the records when they next load or write.
    }
  }
  return outcome;
}
