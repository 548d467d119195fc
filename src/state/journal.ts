import type { StoredTrace } from './records.ts';
import type { Settings } from './settingsStore.ts';
import type { Conversation } from './types.ts';

/**
 * What this tab changed and IndexedDB may not have committed when the page went away. IndexedDB writes
 * started while a page unloads may never commit; `sessionStorage` is written synchronously and survives a
 * reload of the same tab, so the last changes are kept there on `pagehide` and joined with the database
 * on the next load. The journal goes away once a save of everything has committed.
 */

export const journalKey = 'hopbase-chat.unsaved';

export interface JournalConversation {
  /** The conversation as this tab last had it (recordings apart). */
  record: Conversation;
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
