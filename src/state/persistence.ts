import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import type { AppStores } from './appStores.ts';
import type { Settings } from './settingsStore.ts';
import type { AnswerSource, Attempt, AttemptTrace, ChatMessage, Conversation } from './types.ts';

/**
 * Conversations and settings survive a reload in IndexedDB (through idb-keyval). Each conversation
 * is its own record and only changed ones are written, at most every `delayMs`, so a streaming
 * answer does not rewrite the whole history on every frame. The recordings of attempts (up to
 * megabytes each) are records of their own, written when they change and, while they still grow,
 * at most every `traceDelayMs`: a long conversation costs one small write per flush, not a copy of
 * every recording it holds.
 */

const conversationPrefix = 'conversation:';
const tracePrefix = 'trace:';
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

type StoredTrace = Pick<AttemptTrace, 'items' | 'raw'>;

/** A conversation as its record stores it: the recordings' bulk lives in trace records. */
function withoutRecordings(conversation: Conversation): Conversation {
  return {
    ...conversation,
    messages: conversation.messages.map((m) =>
      m.role === 'assistant'
        ? { ...m, attempts: m.attempts.map((a) => ({ ...a, trace: { ...a.trace, items: [], raw: '' } })) }
        : m,
    ),
  };
}

function withRecordings(conversation: Conversation, traces: Map<string, StoredTrace>): Conversation {
  return {
    ...conversation,
    messages: conversation.messages.map((m) =>
      m.role === 'assistant'
        ? {
            ...m,
            attempts: m.attempts.map((a) => {
              const stored = traces.get(a.id);
              return stored ? { ...a, trace: { ...a.trace, items: stored.items, raw: stored.raw } } : a;
            }),
          }
        : m,
    ),
  };
}

function attemptsOf(conversation: Conversation): Attempt[] {
  return conversation.messages.flatMap((m) => (m.role === 'assistant' ? m.attempts : []));
}

/** The fields older records lack or name otherwise, filled in: where an answer came from, output events. */
function upgrade(conversation: Conversation): Conversation {
  type Stored = ChatMessage & { source?: AnswerSource };
  const messages = (conversation.messages as Stored[]).map((m): ChatMessage => {
    if (m.role !== 'assistant' || (m.source && m.attempts.every((a) => 'outputEvents' in a.trace))) return m;
    const first = m.attempts[0]?.request.url ?? '';
    const source: AnswerSource =
      m.source ??
      (first.startsWith('replay:') ? { kind: 'replay', file: first.slice(7) } : { kind: 'gateway' });
    const attempts = m.attempts.map((a) => {
      const trace = a.trace as Partial<AttemptTrace> & { deltaEvents?: number };
      if (trace.outputEvents !== undefined) return a;
      const { deltaEvents = 0, ...rest } = trace;
      return { ...a, trace: { ...(rest as AttemptTrace), outputEvents: deltaEvents } };
    });
    return { ...m, source, attempts };
  });
  return { ...conversation, messages };
}

export async function loadState(db: UseStore, stores: AppStores): Promise<void> {
  const all = await entries<string, unknown>(db);
  const traces = new Map<string, StoredTrace>();
  for (const [key, value] of all) {
    if (typeof key === 'string' && key.startsWith(tracePrefix))
      traces.set(key.slice(tracePrefix.length), value as StoredTrace);
  }
  const conversations = all
    .filter(([key]) => typeof key === 'string' && key.startsWith(conversationPrefix))
    .map(([, value]) => settleInterrupted(withRecordings(upgrade(value as Conversation), traces)));
  const active = (await get<string>(activeKey, db)) ?? null;
  stores.conversations.getState().hydrate(conversations, active);
  const saved = (await get<Partial<Settings>>(settingsKey, db)) ?? {};
  const sessionKey = globalThis.sessionStorage?.getItem(sessionKeyName) ?? '';
  stores.settings.getState().hydrate(saved.rememberKey ? saved : { ...saved, apiKey: sessionKey });
}

const retryDelayMs = 2000;

/** Starts writing changes back; returns a function that flushes pending writes and stops. */
export function startPersisting(
  db: UseStore,
  stores: AppStores,
  delayMs = 400,
  traceDelayMs = 2000,
): () => Promise<void> {
  const { conversations: conversationStore, settings: settingsStore, storage } = stores;
  // What was last sent to storage, per conversation and per recording: a failed write is forgotten, so
  // the next flush retries it.
  const initial = conversationStore.getState().conversations;
  const sent = new Map<string, Conversation>(Object.entries(initial));
  const sentTraces = new Map<string, { trace: AttemptTrace; at: number }>(
    Object.values(initial).flatMap((c) =>
      attemptsOf(c).map((a) => [a.id, { trace: a.trace, at: 0 }] as const),
    ),
  );
  let sentActive = conversationStore.getState().activeId;
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
        if (storage.getState().error) storage.setState({ error: null });
        return;
      }
      const reason = failure.reason instanceof Error ? failure.reason.message : String(failure.reason);
      storage.setState({ error: `Conversations could not be saved in this browser: ${reason}` });
      timer ??= setTimeout(flush, retryDelayMs);
    });

  function writeTraces(conversation: Conversation, writes: Promise<void>[], force: boolean) {
    const now = Date.now();
    for (const attempt of attemptsOf(conversation)) {
      const previous = sentTraces.get(attempt.id);
      if (previous?.trace === attempt.trace) continue;
      // A recording that still grows is written now and then; the final one always.
      if (!force && previous && attempt.turn.status === 'streaming' && now - previous.at < traceDelayMs)
        continue;
      const entry = { trace: attempt.trace, at: now };
      sentTraces.set(attempt.id, entry);
      const stored: StoredTrace = { items: attempt.trace.items, raw: attempt.trace.raw };
      writes.push(
        write(set(tracePrefix + attempt.id, stored, db), () => {
          if (sentTraces.get(attempt.id) === entry) sentTraces.delete(attempt.id);
        }),
      );
    }
  }

  function flush(force = false) {
    timer = null;
    const { conversations, activeId } = conversationStore.getState();
    const writes: Promise<void>[] = [];
    for (const [id, conversation] of Object.entries(conversations)) {
      if (sent.get(id) === conversation) {
        // Leaving the page: recordings held back while they grew are written too.
        if (force) writeTraces(conversation, writes, true);
        continue;
      }
      sent.set(id, conversation);
      writes.push(
        write(set(conversationPrefix + id, withoutRecordings(conversation), db), () => {
          if (sent.get(id) === conversation) sent.delete(id);
        }),
      );
      writeTraces(conversation, writes, force);
    }
    for (const [id, conversation] of sent) {
      if (conversations[id]) continue;
      sent.delete(id);
      writes.push(write(del(conversationPrefix + id, db), () => sent.set(id, conversation)));
      for (const attempt of attemptsOf(conversation)) {
        sentTraces.delete(attempt.id);
        writes.push(write(del(tracePrefix + attempt.id, db), () => {}));
      }
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

  const stopConversations = conversationStore.subscribe(schedule);
  const stopSettings = settingsStore.subscribe((state, previous) => {
    if (state.settings === previous.settings) return;
    void settle([set(settingsKey, storableSettings(state.settings), db)]);
    const session = globalThis.sessionStorage;
    if (state.settings.rememberKey || !state.settings.apiKey) session?.removeItem(sessionKeyName);
    else session?.setItem(sessionKeyName, state.settings.apiKey);
  });
  const onHide = () => {
    if (timer !== null) clearTimeout(timer);
    flush(true);
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
