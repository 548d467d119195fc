import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepScreenSnapshot, readScreenSnapshot } from '../../state/storage/screenSnapshot.ts';
import type { AnswerSnapshot } from '../../state/stores/answers.ts';
import { type AppStores, createAppStores } from '../../state/stores/appStores.ts';
import { leaveSnapshots } from './leaveSnapshots.ts';

let stores: AppStores;
let stop: () => void;
let visibility: DocumentVisibilityState;

/** The app's page at `/c/<id>` of a conversation the store holds. */
function open(): string {
  const id = stores.conversations.getState().newConversation('Kept');
  history.replaceState(null, '', `/c/${id}`);
  document.head.innerHTML = '<script type="module" src="/assets/index-1.js"></script>';
  document.body.innerHTML = '<div id="root"><div class="app"><p>On screen</p></div></div>';
  return id;
}

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

const kept = () => readScreenSnapshot(localStorage);

beforeEach(() => {
  localStorage.clear();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  stores = createAppStores();
});

afterEach(() => {
  stop?.();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const start = () => {
  stop = leaveSnapshots({ window, stores, storage: localStorage });
};

describe('leaving a snapshot for the next load', () => {
  it('forgets, as the app starts, the one this load was shown', () => {
    keepScreenSnapshot(localStorage, {
      address: '/',
      build: 'b',
      lang: 'en',
      stylesheets: [],
      html: '<p>old</p>',
    });
    start();
    expect(kept()).toBeNull();
  });

  it('leaves one when the page is hidden, once for a hide and the unload after it', () => {
    const id = open();
    start();
    const writes = vi.spyOn(Storage.prototype, 'setItem');
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide'));
    expect(writes).toHaveBeenCalledTimes(1);
    expect(kept()).toMatchObject({ address: `/c/${id}`, html: '<div class="app"><p>On screen</p></div>' });
  });

  it('leaves none while an answer is in flight: the next load shows it ended or resumed', () => {
    const id = open();
    start();
    window.dispatchEvent(new Event('pagehide'));
    expect(kept()).not.toBeNull();
    window.dispatchEvent(new Event('pageshow'));
    stores.answers.getState().publish({ conversationId: id, messageId: 'a1' } as AnswerSnapshot);
    window.dispatchEvent(new Event('pagehide'));
    expect(kept()).toBeNull();
  });

  it('forgets it once the page is shown again', () => {
    open();
    start();
    setVisibility('hidden');
    expect(kept()).not.toBeNull();
    setVisibility('visible');
    expect(kept()).toBeNull();
  });

  it('forgets it when the conversations change meanwhile: one deleted, another renamed (another tab)', () => {
    const id = open();
    const other = stores.conversations.getState().newConversation('Other');
    start();
    setVisibility('hidden');
    expect(kept()).not.toBeNull();
    stores.conversations.getState().renameConversation(other, 'Renamed elsewhere');
    expect(kept()).toBeNull();

    setVisibility('visible');
    setVisibility('hidden');
    expect(kept()).not.toBeNull();
    stores.conversations.getState().deleteConversation(id);
    expect(kept()).toBeNull();
  });

  it('leaves nothing once stopped', () => {
    open();
    start();
    stop();
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide'));
    expect(kept()).toBeNull();
  });
});
