import type { StoreApi } from 'zustand';
import { addressChanged, conversationIdInPath, pathOf } from '../state/domain/address.ts';
import type { ConversationState } from '../state/stores/conversationStore.ts';

/**
 * Keeps the address and the conversation shown in step, from now on: what the address names is shown
 * first (when it is here), then every change of conversation becomes a new entry in the history (or
 * replaces the current one, when the conversation left was deleted), and Back and Forward show theirs.
 */
export function followAddress(conversations: StoreApi<ConversationState>, win: Window = window): () => void {
  const { location, history } = win;
  /** The conversation the address names when it is not here: then the address stays, and the page says so. */
  const missing = (state: ConversationState) => {
    const id = conversationIdInPath(location.pathname);
    return id !== null && !state.conversations[id] ? id : null;
  };
  const show = () => {
    const id = conversationIdInPath(location.pathname);
    if (id === null) return;
    const state = conversations.getState();
    if (state.conversations[id]) state.selectConversation(id);
    else state.selectNone();
  };
  const write = (state: ConversationState, replace: boolean) => {
    const path = pathOf(state.activeId);
    if (path === location.pathname || (state.activeId === null && missing(state) !== null)) return;
    if (replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    win.dispatchEvent(new Event(addressChanged));
  };

  show();
  write(conversations.getState(), true);
  const stop = conversations.subscribe((state, previous) => {
    if (state.activeId === previous.activeId) {
      // The conversation the address named has arrived (from another tab or device): show it.
      if (
        state.activeId === null &&
        state.conversations !== previous.conversations &&
        missing(state) === null
      )
        show();
      return;
    }
    const left = previous.activeId;
    write(state, left === null || !state.conversations[left]);
  });
  win.addEventListener('popstate', show);
  return () => {
    stop();
    win.removeEventListener('popstate', show);
  };
}
