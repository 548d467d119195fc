import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
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

/** Starts writing changes back; returns a function that flushes pending writes and stops. */
export function startPersisting(db: UseStore, delayMs = 400): () => Promise<void> {
  let written = new Map<string, Conversation>(Object.entries(useConversationStore.getState().conversations));
  let writtenActive = useConversationStore.getState().activeId;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending = Promise.resolve();

  const flush = () => {
    timer = null;
    const { conversations, activeId } = useConversationStore.getState();
    const writes: Promise<void>[] = [];
    for (const [id, conversation] of Object.entries(conversations)) {
      if (written.get(id) !== conversation) writes.push(set(conversationPrefix + id, conversation, db));
    }
    for (const id of written.keys()) if (!conversations[id]) writes.push(del(conversationPrefix + id, db));
    if (activeId !== writtenActive) writes.push(set(activeKey, activeId, db));
    written = new Map(Object.entries(conversations));
    writtenActive = activeId;
    pending = Promise.all(writes).then(() => undefined);
  };
  const schedule = () => {
    timer ??= setTimeout(flush, delayMs);
  };

  const stopConversations = useConversationStore.subscribe(schedule);
  const stopSettings = useSettingsStore.subscribe((state, previous) => {
    if (state.settings === previous.settings) return;
    void set(settingsKey, storableSettings(state.settings), db);
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
