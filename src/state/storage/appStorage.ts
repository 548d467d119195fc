import type { UseStore } from 'idb-keyval';
import type { BackupFile, RestoreResult } from '../formats/backup.ts';
import type { AppStores } from '../stores/appStores.ts';
import { type AttachmentBlobs, databaseAttachments } from './attachmentBlobs.ts';
import { sweepAttachments } from './attachmentSweep.ts';
import type { ChangeFeed } from './changeFeed.ts';
import { openDatabase } from './database.ts';
import { type LoadedState, loadState, type ReadAhead, readAheadOfLoad } from './load.ts';
import { startPersisting } from './persistence.ts';
import type { RecordingsElsewhere } from './recordingReads.ts';
import type { BodiesElsewhere } from './storedRequests.ts';
import { openTabFeed } from './tabSync.ts';

/**
 * Where the app keeps what it must not lose, behind one interface: the app and its components ask this,
 * never a database. IndexedDB in this browser is today's implementation (`indexedDbStorage`), the other
 * tabs its change feed (`changeFeed.ts`); a server's store and change feed can stand in its place.
 */
export interface AppStorage {
  /** The bytes of attached files. */
  readonly attachments: AttachmentBlobs;
  /**
   * Reads what is stored into `stores`, before the first render: of a long history, the first screen's
   * conversations (the last worked on, the active one and those in `first`), the rest left to `persist`.
   */
  load(stores: AppStores, first?: readonly string[]): Promise<LoadedState>;
  /**
   * Starts reading what `load` reads (with the same `first`) now, touching no store, before it is known
   * whether this storage is the one the app runs on; `load` then takes what it read. Resolves with whether
   * the conversation the first screen would open holds an answer (false when unknown).
   */
  readAhead(first?: readonly string[]): Promise<boolean>;
  /**
   * From now on writes the stores' changes back, each joined with what was written elsewhere meanwhile,
   * and takes in changes made elsewhere; once `readRestAfter` resolves, reads what the load left for later.
   * Returns the function that writes what is pending and stops.
   */
  persist(stores: AppStores, loaded: LoadedState, readRestAfter?: Promise<unknown>): () => Promise<void>;
  /** Writes what is pending and stops what `persist` started (nothing when it never started). */
  stop(): Promise<void>;
  /** Deletes stored attachments that `inUse` does not name, once they are old enough; resolves with how many. */
  sweep(inUse: ReadonlySet<string>, now: number): Promise<number>;
  /** Everything kept, as one file, the API key scrubbed from it. */
  backUp(apiKey: string): Promise<BackupFile>;
  /** Takes a backup file's content in, joined with what is kept; everyone keeping it is told. */
  restore(text: string): Promise<RestoreResult>;
}

export interface IndexedDbStorageOptions {
  /** Opens the database, on first use (tests pass their own). */
  open?: () => UseStore;
  /** Opens the change feed between this browser's tabs (null where there is none). */
  openFeed?: () => ChangeFeed | null;
  /** Where recordings this browser lacks may be found (team mode: the server). */
  recordingsElsewhere?: RecordingsElsewhere;
  /** Where request bodies this browser lacks may be found (team mode: the server). */
  bodiesElsewhere?: BodiesElsewhere;
}

/** The app's storage in this browser's IndexedDB, opened on first use, kept coherent across its tabs. */
export function indexedDbStorage({
  open = openDatabase,
  openFeed = openTabFeed,
  recordingsElsewhere,
  bodiesElsewhere,
}: IndexedDbStorageOptions = {}): AppStorage {
  let db: UseStore | null = null;
  const database = () => {
    db ??= open();
    return db;
  };
  const blobs = () => databaseAttachments(database());
  let stopPersisting: (() => Promise<void>) | null = null;
  let ahead: ReadAhead | undefined;
  return {
    attachments: {
      put: (files) => blobs().put(files),
      get: (id) => blobs().get(id),
      remove: (ids) => blobs().remove(ids),
    },
    readAhead(first = []) {
      ahead = readAheadOfLoad(database(), first);
      return ahead.opensOnAnswer;
    },
    load(stores, first) {
      const read = ahead;
      ahead = undefined;
      return loadState(database(), stores, first, read);
    },
    persist(stores, loaded, readRestAfter) {
      stopPersisting = startPersisting(database(), stores, 400, 2000, {
        loaded,
        readRestAfter,
        feed: openFeed(),
        recordingsElsewhere,
        bodiesElsewhere,
      });
      return stopPersisting;
    },
    stop: () => stopPersisting?.() ?? Promise.resolve(),
    sweep: (inUse, now) => sweepAttachments(database(), inUse, now),
    // The backup code is fetched when first used: the first screen needs none of it.
    backUp: async (apiKey) => (await import('../formats/backup.ts')).backUp(database(), apiKey),
    async restore(text) {
      const { restoreBackup } = await import('../formats/backup.ts');
      // Every tab hears of it on the feed, this one too (its persistence listens on a feed of its own).
      const feed = openFeed();
      try {
        return await restoreBackup(database(), text, feed);
      } finally {
        feed?.close();
      }
    },
  };
}
