import { get, set, type UseStore } from 'idb-keyval';
import * as v from 'valibot';

/**
 * What the sync remembers across reloads, in the person's own IndexedDB database beside their cached
 * conversations: the last change heard (the stream goes on from there), the version of each conversation
 * the server holds as this browser last saw it, and what was changed here and not yet on the server (an
 * edit made offline is sent when the server is back, even after a reload).
 */
export interface SyncMemory {
  /** The last change heard, in the order of the person's changes. */
  cursor: number;
  /** The server's version of each conversation, as last seen here. */
  versions: Record<string, number>;
  /** Conversations changed (or deleted) here and not yet on the server. */
  pending: string[];
  settingsVersion: number;
  settingsPending: boolean;
}

export const emptyMemory: SyncMemory = {
  cursor: 0,
  versions: {},
  pending: [],
  settingsVersion: 0,
  settingsPending: false,
};

const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const memory = v.object({
  cursor: count,
  versions: v.record(v.string(), count),
  pending: v.array(v.string()),
  settingsVersion: count,
  settingsPending: v.boolean(),
});

const key = 'server-sync';

export interface SyncMemoryStore {
  read(): Promise<SyncMemory>;
  write(value: SyncMemory): Promise<void>;
}

/** The memory in `db` (a record of its own, which the load and backups never read); unreadable: start over. */
export function idbSyncMemory(db: () => UseStore): SyncMemoryStore {
  return {
    async read() {
      const read = v.safeParse(memory, await get(key, db()));
      // Starting over costs only requests: every conversation here is then compared with the server's.
      return read.success
        ? { ...read.output, versions: Object.assign(Object.create(null), read.output.versions) }
        : emptyMemory;
    },
    write: (value) => set(key, value, db()),
  };
}
