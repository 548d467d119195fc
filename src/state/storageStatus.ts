import { createStore, type StoreApi } from 'zustand/vanilla';
import type { UnreadableRecord } from './records.ts';

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
  return createStore<StorageStatus>()((set) => ({
    error: null,
    loadError: null,
    unreadable: [],
    resetSettings: [],
    persisted: null,
    usage: null,
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
