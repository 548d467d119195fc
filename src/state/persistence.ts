import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import { create } from 'zustand';
import { useConversationStore } from './conversationStore.ts';
import { type Settings, useSettingsStore } from './settingsStore.ts';
import type { Conversation } from './types.ts';

/**
 * Conversations and settings survive a reload in IndexedDB (through idb-keyval). Each conversation
 * is its own record and only changed ones are written, at most every `delayMs`, so a streaming
 * answer does not rewrite the whole history on every frame.
 */

const conversationPrefix = 'conversation:';
const settingsKey = 'settings';
const activeKey = 'active-conversation';
const sessionKeyName = 'hopbase-chat.api-key';

export function openDatabase(): UseStore {
  return createStore('hopbase-chat', 'state');
}

const interruptedByReload = {
  code: 'page_reloaded',
  message: 'The page was closed or reloaded while this answer was streaming.',
};

/** An answer still streaming when the page went away can never finish: it is interrupted, not lost. */
export function settleInterrupted(conversation: Conversation): Conversation {
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.role !== 'assistant' || !m.attempts.some((a) => a.turn.status === 'streaming')) return m;
    changed = true;
    return {
      ...m,
      attempts: m.attempts.map((a) =>
        a.turn.status === 'streaming'
          ? { ...a, turn: { ...a.turn, status: 'interrupted' as const, error: interruptedByReload } }
          : a,
      ),
    };
  });
  return changed ? { ...conversation, messages } : conversation;
}

/** Everything that persists, minus the API key unless the person chose to keep it here. */
function storableSettings(settings: Settings): Partial<Settings> {
  return settings.rememberKey ? settings : { ...settings, apiKey: '' };
}

export async function loadState(db: UseStore): Promise<void> {
  const all = await entries<string, unknown>(db);
  const conversations = all
    .filter(([key]) => typeof key === 'string' && key.startsWith(conversationPrefix))
    .map(([, value]) => settleInterrupted(value as Conversation));
  const active = (await get<string>(activeKey, db)) ?? null;
  useConversationStore.getState().hydrate(conversations, active);
  const saved = (await get<Partial<Settings>>(settingsKey, db)) ?? {};
  const sessionKey = globalThis.sessionStorage?.getItem(sessionKeyName) ?? '';
  useSettingsStore.getState().hydrate(saved.rememberKey ? saved : { ...saved, apiKey: sessionKey });
}

/** The last failure to save (quota exceeded, storage disabled): the app tells the person; null once a save works. */
export const useStorageStatus = create<{ error: string | null }>()(() => ({ error: null }));

const retryDelayMs = 2000;

/** Starts writing changes back; returns a function that flushes pending writes and stops. */
export function startPersisting(db: UseStore, delayMs = 400): () => Promise<void> {
  // What was last sent to storage, per conversation: a failed write is forgotten, so the next flush retries it.
  const sent = new Map<string, Conversation>(Object.entries(useConversationStore.getState().conversations));
  let sentActive = useConversationStore.getState().activeId;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: Promise<unknown> = Promise.resolve();

  /** A failed write undoes its bookkeeping, so that the retry writes it again. */
  const write = (operation: Promise<void>, undo: () => void) =>
    operation.catch((error: unknown) => {
      undo();
      throw error;
    });
  // One report per flush: the error shows while any write fails and clears when a whole flush succeeds.
  const settle = (writes: Promise<void>[]) =>
    Promise.allSettled(writes).then((results) => {
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (!failure) {
        if (useStorageStatus.getState().error) useStorageStatus.setState({ error: null });
        return;
      }
      const reason = failure.reason instanceof Error ? failure.reason.message : String(failure.reason);
      useStorageStatus.setState({ error: `Conversations could not be saved in this browser: ${reason}` });
      timer ??= setTimeout(flush, retryDelayMs);
    });

  function flush() {
    timer = null;
    const { conversations, activeId } = useConversationStore.getState();
    const writes: Promise<void>[] = [];
    for (const [id, conversation] of Object.entries(conversations)) {
      if (sent.get(id) === conversation) continue;
      sent.set(id, conversation);
      writes.push(
        write(set(conversationPrefix + id, conversation, db), () => {
          if (sent.get(id) === conversation) sent.delete(id);
        }),
      );
    }
    for (const [id, conversation] of sent) {
      if (conversations[id]) continue;
      sent.delete(id);
      writes.push(write(del(conversationPrefix + id, db), () => sent.set(id, conversation)));
    }
    if (activeId !== sentActive) {
      const previous = sentActive;
      sentActive = activeId;
      writes.push(write(set(activeKey, activeId, db), () => (sentActive = previous)));
    }
    pending = settle(writes);
  }
  const schedule = () => {
    timer ??= setTimeout(flush, delayMs);
  };

  const stopConversations = useConversationStore.subscribe(schedule);
  const stopSettings = useSettingsStore.subscribe((state, previous) => {
    if (state.settings === previous.settings) return;
    void settle([set(settingsKey, storableSettings(state.settings), db)]);
    const session = globalThis.sessionStorage;
    if (state.settings.rememberKey || !state.settings.apiKey) session?.removeItem(sessionKeyName);
    else session?.setItem(sessionKeyName, state.settings.apiKey);
  });
  const onHide = () => {
    if (timer !== null) {
      clearTimeout(timer);
      flush();
    }
  };
  globalThis.addEventListener?.('pagehide', onHide);

  return async () => {
    stopConversations();
    stopSettings();
    globalThis.removeEventListener?.('pagehide', onHide);
    onHide();
    await pending;
  };
}
