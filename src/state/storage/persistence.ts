import type { UseStore } from 'idb-keyval';
import type { AppStores } from '../stores/appStores.ts';
import { touchedIds } from '../stores/conversationStore.ts';
import type { ChangeFeed } from './changeFeed.ts';
import { ChangesFromElsewhere, type OlderRead } from './changesFromElsewhere.ts';
import { UnloadJournal } from './journal.ts';
import { KnownState } from './knownState.ts';
import { type LoadedState, storedConversationCount } from './load.ts';
import { readPartsWhenAsked } from './partReads.ts';
import { type RecordingsElsewhere, recordingParts } from './recordingReads.ts';
import { type BodiesElsewhere, bodyParts } from './storedRequests.ts';
import { keepSessionKey } from './storedSettings.ts';
import { createWriter } from './writer.ts';
import { isStructural, outgrewPart, WriteScheduler } from './writeScheduler.ts';

/**
 * Conversations and settings survive a reload in IndexedDB (through idb-keyval), and stay coherent across
 * tabs. The app calls `loadState`, then `startPersisting`; the parts live in `persistence/`:
 *
 * - **Records**: each conversation is its own record, written only when changed, its attempts' recordings
 *   records of their own (`storedConversation.ts`), read when the inspector asks (`partReads.ts`), as
 *   are request bodies this browser lacks (team mode: made on another device, read from the server).
 *   Every record is validated when read (`records.ts`): an unreadable one is left as it is and reported.
 * - **When**: a change that adds or removes something is written at once, a streaming answer at most
 *   every `delayMs` (`writeScheduler.ts`); on `pagehide` what is not committed is also kept synchronously
 *   in `sessionStorage` (`journal.ts`), joined in by the next load (`load.ts`).
 * - **Tabs**: a write reads each record in its transaction and joins another tab's newer copy instead of
 *   overwriting it; a deletion leaves a tombstone and always wins (`writeTransaction.ts`). After each
 *   committed write a tab announces what it stored on the change feed (`changeFeed.ts`, between tabs
 *   `tabSync.ts`); the others read those records (`changesFromElsewhere.ts`). Settings are written as the
 *   fields a tab changed (`storedSettings.ts`).
 * - **Failures**: a failed write is reported and retried (`writer.ts`); a load that fails altogether
 *   starts empty and never overwrites what is stored.
 */

export interface PersistOptions {
  /** What `loadState` found; without it, the stores' content at start is taken as what is stored. */
  loaded?: LoadedState;
  /** Changes from elsewhere and where to announce this tab's (`openTabFeed()`); closed when persisting stops. */
  feed?: ChangeFeed | null;
  /** How long a failed write waits before it is tried again. */
  retryDelayMs?: number;
  /** Where recordings this browser lacks may be found (team mode: the server). */
  recordingsElsewhere?: RecordingsElsewhere;
  /** Where request bodies this browser lacks may be found (team mode: the server). */
  bodiesElsewhere?: BodiesElsewhere;
  /** When to read the conversations the load left for later (`loaded.partial`): once the first screen is up. */
  readRestAfter?: Promise<unknown>;
}

/** How many of the conversations a load left for later are read at a time: the page stays responsive. */
const REST_BATCH = 500;

/**
 * Starts writing changes back and listening to the change feed; returns a function that flushes pending writes
 * and stops.
 */
export function startPersisting(
  db: UseStore,
  stores: AppStores,
  delayMs = 400,
  traceDelayMs = 1000,
  options: PersistOptions = {},
): () => Promise<void> {
  const {
    loaded,
    feed = null,
    retryDelayMs = 2000,
    recordingsElsewhere,
    bodiesElsewhere,
    readRestAfter,
  } = options;
  const known = new KnownState(stores, loaded);
  const journal = new UnloadJournal(loaded?.journal ?? false);
  const elsewhere = new ChangesFromElsewhere(db, stores, known, feed);
  const write = createWriter({
    db,
    stores,
    known,
    journal,
    elsewhere,
    traceDelayMs,
    retry: () => scheduler.runIn(retryDelayMs),
    more: () => scheduler.runSoon(),
  });
  const scheduler = new WriteScheduler(async (force) => {
    if (elsewhere.pending) await elsewhere.catchUp();
    await write(force);
  }, delayMs);

  const stopConversations = stores.conversations.subscribe((state, previous) => {
    if (state.conversations === previous.conversations && state.activeId === previous.activeId) return;
    const touched = touchedIds(state, previous);
    if (
      isStructural(state.conversations, previous.conversations, touched) ||
      outgrewPart(
        state.conversations,
        previous.conversations,
        touched,
        (id) => known.sentTraces.get(id)?.trace.bytes ?? 0,
      )
    )
      scheduler.runSoon();
    else scheduler.later();
  });
  const stopSettings = stores.settings.subscribe((state, previous) => {
    if (state.settings === previous.settings) return;
    scheduler.runSoon();
    keepSessionKey(state.settings);
  });
  const onHide = () => {
    journal.keep(stores, known);
    void scheduler.run(true);
  };
  const onVisibility = () => {
    if (globalThis.document?.visibilityState === 'hidden') void scheduler.run(true);
  };
  const stopListening = feed?.listen((event) => {
    if (scheduler.stopped) return;
    if (event.kind === 'missed') elsewhere.missedSome();
    else elsewhere.heard(event.change);
    void scheduler.run();
  });
  globalThis.addEventListener?.('pagehide', onHide);
  globalThis.document?.addEventListener('visibilitychange', onVisibility);
  const stopped = () => scheduler.stopped;
  const stopReadingParts = [
    readPartsWhenAsked(db, stores, known, stopped, recordingParts, recordingsElsewhere),
    readPartsWhenAsked(db, stores, known, stopped, bodyParts, bodiesElsewhere),
  ];
  // Changes made before persisting started (restored from a reload's journal) are written at once.
  if (known.isDirty(stores.conversations.getState().conversations)) scheduler.runSoon();

  // The conversations the load left for later, a batch of keys at a time, each read as another tab's
  // would be (joined with what changed here meanwhile) and put in the list by date.
  const status = stores.storage.getState();
  if (loaded?.partial) {
    status.readingRest({ kind: 'uncounted' });
    void (readRestAfter ?? Promise.resolve())
      .then(async () => {
        // Those stored, less those read already: a count, said while the rest is read.
        const read = Object.keys(stores.conversations.getState().conversations).length;
        let unread = Math.max(0, (await storedConversationCount(db)) - read);
        let after: string | null = null;
        do {
          if (unread > 0) status.readingRest({ kind: 'counted', count: unread });
          // Asked for, then read with the next run of the writes: one at a time with them.
          const batch: OlderRead = (
            await Promise.all([elsewhere.readOlder(after, REST_BATCH), scheduler.run()])
          )[0];
          unread = Math.max(0, unread - batch.unread);
          after = batch.goOnAfter;
        } while (after !== null && !scheduler.stopped);
      })
      .catch((error: unknown) => console.warn('Could not read the older conversations', error))
      .finally(() => status.readingRest({ kind: 'none' }));
  }

  return async () => {
    stopConversations();
    stopSettings();
    for (const stopReading of stopReadingParts) stopReading();
    stopListening?.();
    globalThis.removeEventListener?.('pagehide', onHide);
    globalThis.document?.removeEventListener('visibilitychange', onVisibility);
    await scheduler.run(true);
    scheduler.stop();
    feed?.close();
  };
}
