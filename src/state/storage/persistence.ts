import type { UseStore } from 'idb-keyval';
import type { AppStores } from '../stores/appStores.ts';
import { UnloadJournal } from './journal.ts';
import { KnownState } from './knownState.ts';
import type { LoadedState } from './load.ts';
import { OtherTabs } from './otherTabs.ts';
import { readRecordingsWhenAsked } from './recordingReads.ts';
import { keepSessionKey } from './storedSettings.ts';
import type { TabChannel } from './tabSync.ts';
import { createWriter } from './writer.ts';
import { isStructural, WriteScheduler } from './writeScheduler.ts';

/**
 * Conversations and settings survive a reload in IndexedDB (through idb-keyval), and stay coherent across
 * tabs. The app calls `loadState`, then `startPersisting`; the parts live in `persistence/`:
 *
 * - **Records**: each conversation is its own record, written only when changed, its attempts' recordings
 *   records of their own (`storedConversation.ts`), read when the inspector asks (`recordingReads.ts`).
 *   Every record is validated when read (`records.ts`): an unreadable one is left as it is and reported.
 * - **When**: a change that adds or removes something is written at once, a streaming answer at most
 *   every `delayMs` (`writeScheduler.ts`); on `pagehide` what is not committed is also kept synchronously
 *   in `sessionStorage` (`journal.ts`), joined in by the next load (`load.ts`).
 * - **Tabs**: a write reads each record in its transaction and joins another tab's newer copy instead of
 *   overwriting it; a deletion leaves a tombstone and always wins (`writeTransaction.ts`). After each
 *   committed write a tab posts what it stored; the others read those records (`otherTabs.ts`). Settings
 *   are written as the fields a tab changed (`storedSettings.ts`).
 * - **Failures**: a failed write is reported and retried (`writer.ts`); a load that fails altogether
 *   starts empty and never overwrites what is stored.
 */

export interface PersistOptions {
  /** What `loadState` found; without it, the stores' content at start is taken as what is stored. */
  loaded?: LoadedState;
  /** The channel to other tabs (`openTabChannel()`); it is closed when persisting stops. */
  channel?: TabChannel | null;
  /** How long a failed write waits before it is tried again. */
  retryDelayMs?: number;
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
  const { loaded, channel = null, retryDelayMs = 2000 } = options;
  const known = new KnownState(stores, loaded);
  const journal = new UnloadJournal(loaded?.journal ?? false);
  const tabs = new OtherTabs(db, stores, known, channel);
  const write = createWriter({
    db,
    stores,
    known,
    journal,
    tabs,
    traceDelayMs,
    retry: () => scheduler.runIn(retryDelayMs),
  });
  const scheduler = new WriteScheduler(async (force) => {
    if (tabs.pending) await tabs.catchUp();
    await write(force);
  }, delayMs);

  const stopConversations = stores.conversations.subscribe((state, previous) => {
    if (state.conversations === previous.conversations && state.activeId === previous.activeId) return;
    if (isStructural(state.conversations, previous.conversations)) scheduler.runSoon();
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
  const onShow = (event: Event) => {
    // Back from the back/forward cache: what other tabs said meanwhile may have been missed.
    if ((event as PageTransitionEvent).persisted) {
      tabs.missedSome();
      void scheduler.run();
    }
  };
  const onMessage = (event: MessageEvent) => {
    if (!scheduler.stopped && tabs.heard(event.data)) void scheduler.run();
  };
  globalThis.addEventListener?.('pagehide', onHide);
  globalThis.addEventListener?.('pageshow', onShow);
  globalThis.document?.addEventListener('visibilitychange', onVisibility);
  channel?.addEventListener('message', onMessage);
  const stopRecordings = readRecordingsWhenAsked(db, stores, known, () => scheduler.stopped);
  // Changes made before persisting started (restored from a reload's journal) are written at once.
  if (known.isDirty(stores.conversations.getState().conversations)) scheduler.runSoon();

  return async () => {
    stopConversations();
    stopSettings();
    stopRecordings();
    globalThis.removeEventListener?.('pagehide', onHide);
    globalThis.removeEventListener?.('pageshow', onShow);
    globalThis.document?.removeEventListener('visibilitychange', onVisibility);
    channel?.removeEventListener('message', onMessage);
    await scheduler.run(true);
    scheduler.stop();
    channel?.close();
  };
}
