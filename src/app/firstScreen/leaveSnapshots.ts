import { forgetScreenSnapshot, keepScreenSnapshot } from '../../state/storage/screenSnapshot.ts';
import type { AppStores } from '../../state/stores/appStores.ts';
import { takeSnapshot } from './takeSnapshot.ts';

type Conversations = ReturnType<AppStores['conversations']['getState']>['conversations'];

export interface LeaveSnapshotsOptions {
  window: Window;
  stores: Pick<AppStores, 'answers' | 'conversations'>;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/**
 * Single-person mode: each time the page is hidden (a reload, a closed tab, another tab in front) it leaves
 * a snapshot of its screen for the next load's first paint (`restoreFirstScreen`), or none when the screen
 * is not one to show again: an answer in flight (the next load shows it ended or resumed), a dialog open.
 * The snapshot this load was shown with is forgotten now, and the one the page left is forgotten once it is
 * shown again or the conversations change meanwhile (another tab's change, a deletion): a snapshot only
 * bridges a hide and the next load, and never shows what is no longer so. Returns the function that stops.
 */
export function leaveSnapshots({ window, stores, storage }: LeaveSnapshotsOptions): () => void {
  forgetScreenSnapshot(storage);
  /** The conversations as they were when this page left its snapshot (null: it left none). */
  let left: Conversations | null = null;
  let hidden = false;
  const forget = () => {
    if (left !== null) forgetScreenSnapshot(storage);
    left = null;
  };
  const leave = () => {
    // A reload hides the page and then unloads it: one snapshot for both.
    if (hidden) return;
    hidden = true;
    const snapshot =
      Object.keys(stores.answers.getState().answers).length > 0 ? null : takeSnapshot(window.document);
    if (snapshot && keepScreenSnapshot(storage, snapshot))
      left = stores.conversations.getState().conversations;
    else forgetScreenSnapshot(storage);
  };
  const shown = () => {
    hidden = false;
    forget();
  };
  const onVisibility = () => {
    if (window.document.visibilityState === 'hidden') leave();
    else shown();
  };
  window.document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', leave);
  window.addEventListener('pageshow', shown);
  const stopWatching = stores.conversations.subscribe(({ conversations }) => {
    if (left !== null && conversations !== left) forget();
  });
  return () => {
    window.document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', leave);
    window.removeEventListener('pageshow', shown);
    stopWatching();
  };
}
