import { idRecord } from '../domain/idRecord.ts';
import { mergeConversation, sameContent } from '../domain/merge.ts';
import type { Conversation } from '../domain/types.ts';
import {
  conversationPrefix,
  readConversationRecord,
  readTraceRecord,
  type StoredTrace,
} from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import type { Settings } from '../stores/settingsStore.ts';
import type { Base, KnownState } from './knownState.ts';
import {
  attemptsOf,
  type ConversationRecord,
  recordOf,
  settleInterrupted,
  withRecordings,
} from './storedConversation.ts';
import { bodiesIn, type StoredBody, withBodies } from './storedRequests.ts';
import { changedSettings } from './storedSettings.ts';

/**
 * What this tab changed and IndexedDB may not have committed when the page went away. IndexedDB writes
 * started while a page unloads may never commit; `sessionStorage` is written synchronously and survives a
 * reload of the same tab, so the last changes are kept there on `pagehide` and joined with the database
 * on the next load. The journal goes away once a save of everything has committed.
 */

export const journalKey = 'hopbase-chat.unsaved';

export interface JournalConversation {
  /**
   * The conversation as this tab last had it, as its record holds it, but with the request bodies the
   * database did not hold yet (journals from before hold every body).
   */
  record: ConversationRecord;
  /** The revision of the stored record it was based on (0: none), and that record's title. */
  baseRevision: number;
  baseTitle: string | null;
}

export interface Journal {
  v: 1;
  at: number;
  conversations: JournalConversation[];
  /** Conversations deleted in this tab. */
  deleted: string[];
  /** Recordings not yet committed, when they fit. */
  traces: Record<string, StoredTrace>;
  /** Settings fields changed in this tab and not yet committed. */
  settings: Partial<Settings> | null;
  activeId?: string | null;
}

function session(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage disabled (some privacy modes): nothing to keep.
    return null;
  }
}

/** Writes the journal synchronously; recordings are left out if everything does not fit. */
export function writeJournal(journal: Journal): boolean {
  const storage = session();
  if (!storage) return false;
  for (const candidate of [journal, { ...journal, traces: {} }]) {
    try {
      storage.setItem(journalKey, JSON.stringify(candidate));
      return true;
    } catch {
      // Over the quota: try again without the recordings.
    }
  }
  // Nothing fits: an older journal must not stand in for this one.
  clearJournal();
  return false;
}

export function readJournal(): Journal | null {
  const storage = session();
  try {
    const text = storage?.getItem(journalKey);
    if (!text) return null;
    const journal = JSON.parse(text) as Journal;
    if (journal?.v !== 1 || !Array.isArray(journal.conversations) || !Array.isArray(journal.deleted))
      return null;
    return { ...journal, traces: journal.traces ?? {}, settings: journal.settings ?? null };
  } catch {
    return null;
  }
}

export function clearJournal(): void {
  try {
    session()?.removeItem(journalKey);
  } catch {
    // Nothing kept, nothing to clear.
  }
}

/** This tab's journal: kept on `pagehide`, and gone once everything in it is stored. */
export class UnloadJournal {
  #kept: boolean;

  constructor(kept: boolean) {
    this.#kept = kept;
  }

  get kept(): boolean {
    return this.#kept;
  }

  /** Keeps what is not yet committed in `sessionStorage`, synchronously: IndexedDB may not finish in time. */
  keep(stores: AppStores, known: KnownState): void {
    const { conversations, activeId } = stores.conversations.getState();
    const traces: Record<string, StoredTrace> = idRecord();
    const entries = known.changed(conversations).map((record) => {
      const base = known.bases.get(record.id);
      for (const attempt of attemptsOf(record))
        if (known.committedTraces.get(attempt.id) !== attempt.trace && attempt.trace.items.length)
          traces[attempt.id] = { items: attempt.trace.items, raw: attempt.trace.raw };
      // The stored copy's attempts have their bodies in the database (as records, or in a record from before).
      const stored = new Set(base?.conversation ? attemptsOf(base.conversation).map((a) => a.id) : []);
      return {
        record: recordOf(record, (attempt) => !stored.has(attempt.id)),
        baseRevision: base?.revision ?? 0,
        baseTitle: base?.conversation?.title ?? null,
      };
    });
    const deleted = known.pendingDeletions(conversations).map(([id]) => id);
    const settingsPatch = changedSettings(stores.settings.getState().settings, known.settings);
    const settings = Object.keys(settingsPatch).length ? settingsPatch : null;
    if (!entries.length && !deleted.length && !settings && activeId === known.activeId) {
      this.clear();
      return;
    }
    this.#kept = writeJournal({
      v: 1,
      at: Date.now(),
      conversations: entries,
      deleted,
      traces,
      settings,
      activeId,
    });
  }

  clear(): void {
    if (this.#kept) clearJournal();
    this.#kept = false;
  }
}

/**
 * Joins what the unload journal kept with what the database holds (`bodies`: its request records); a
 * deletion on either side wins.
 */
export function restoreJournal(
  journal: Journal,
  bases: Map<string, Base>,
  loaded: Map<string, Conversation>,
  unsavedTraces: Set<string>,
  bodies: ReadonlyMap<string, StoredBody>,
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
    const current = loaded.get(id);
    // The bodies it left out are in the database: in their records, or in the conversation's from before.
    let restored = withBodies(
      withBodies(withRecordings(read.conversation, journalTraces), bodiesIn(current)),
      bodies,
    );
    if (current && base?.revision !== entry.baseRevision)
      restored = mergeConversation(restored, current, { title: entry.baseTitle ?? current.title });
    restored = settleInterrupted(restored);
    if (current && sameContent(restored, current)) continue;
    loaded.set(id, restored);
    for (const attempt of attemptsOf(restored))
      if (journalTraces.has(attempt.id)) unsavedTraces.add(attempt.id);
  }
}
