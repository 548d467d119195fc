import { createStore, type StoreApi } from 'zustand/vanilla';
import type { UnreadableRecord } from '../formats/records.ts';

/**
 * Stored conversations not read yet: a long history shows its first screen first, then counts and reads
 * the rest.
 */
export type UnreadConversations =
  | { readonly kind: 'none' }
  | { readonly kind: 'uncounted' }
  | { readonly kind: 'counted'; readonly count: number };

const allRead: UnreadConversations = { kind: 'none' };

/** What this browser's storage holds and how it is doing, as the app tells the person. */
export interface StorageStatus {
  /** The last failure to save (quota exceeded, storage disabled); null once a save works. */
  error: string | null;
  /** Set when the saved data could not be read at all: the app then starts empty and overwrites nothing. */
  loadError: string | null;
  /** Saved records that could not be read: left untouched in the database, offered for download. */
  unreadable: UnreadableRecord[];
  /** Saved settings of the wrong type, now at their defaults (the stored values stay until changed). */
  resetSettings: string[];
  /** Whether the browser keeps this site's data until the person clears it; null until asked. */
  persisted: boolean | null;
  /** Bytes this site uses and may use, from the browser's estimate; null until known or where unsupported. */
  usage: { used: number; quota: number } | null;
  unread: UnreadConversations;
  /** The saved data could not be read at all (the exception's own words). */
  loadFailed(error: string): void;
  /** What a load found: the records it could not read and the settings it put back to their defaults. */
  loaded(unreadable: UnreadableRecord[], resetSettings: string[]): void;
  /** What of the stored conversations is still to be read (none: all are here). */
  readingRest(unread: UnreadConversations): void;
  /** Adds records that could not be read to the list, once each. */
  noteUnreadable(records: readonly UnreadableRecord[]): void;
  /** A restore replaced the unreadable records `keys`: listed under their set-aside copies from now on. */
  replaceUnreadable(keys: ReadonlySet<string>, setAside: readonly UnreadableRecord[]): void;
  /** A save failed (its words); `saved` clears it once one works. */
  saveFailed(error: string): void;
  saved(): void;
  /** Asks the browser to keep this site's data (it may decide without asking the person). */
  requestPersistence(): Promise<boolean | null>;
  /** Reads the browser's storage estimate again. */
  refreshUsage(): Promise<void>;
}

export type StorageStatusStore = StoreApi<StorageStatus>;

/** The browser's storage manager, looked up when used (never at import); absent in some browsers and tests. */
function storageManager(): StorageManager | undefined {
  return globalThis.navigator?.storage;
}

export function createStorageStatusStore(
  manager: () => StorageManager | undefined = storageManager,
): StorageStatusStore {
  return createStore<StorageStatus>()((set, get) => ({
    error: null,
    loadError: null,
    unreadable: [],
    resetSettings: [],
    persisted: null,
    usage: null,
    unread: allRead,
    loadFailed(error) {
      set({ loadError: error });
    },
    loaded(unreadable, resetSettings) {
      set({ unreadable, resetSettings });
    },
    readingRest(unread) {
      set({ unread: unread.kind === 'none' ? allRead : unread });
    },
    noteUnreadable(records) {
      const listed = new Set(get().unreadable.map((r) => r.key));
      const fresh = records.filter((r) => !listed.has(r.key));
      if (fresh.length) set((s) => ({ unreadable: [...s.unreadable, ...fresh] }));
    },
    replaceUnreadable(keys, setAside) {
      set((s) => ({ unreadable: [...s.unreadable.filter((r) => !keys.has(r.key)), ...setAside] }));
    },
    saveFailed(error) {
      set({ error });
    },
    saved() {
      if (get().error !== null) set({ error: null });
    },
    async requestPersistence() {
      const storage = manager();
      if (typeof storage?.persist !== 'function') return null;
      try {
        const persisted =
          (typeof storage.persisted === 'function' && (await storage.persisted())) ||
          (await storage.persist());
        set({ persisted });
        return persisted;
      } catch {
        return null;
      }
    },
    async refreshUsage() {
      const storage = manager();
      if (typeof storage?.estimate !== 'function') return;
      try {
        const { usage, quota } = await storage.estimate();
        set({ usage: usage === undefined || quota === undefined ? null : { used: usage, quota } });
        if (typeof storage.persisted === 'function') set({ persisted: await storage.persisted() });
      } catch {
        set({ usage: null });
      }
    },
  }));
}
