import 'fake-indexeddb/auto';
import { createStore, del, entries, get, keys, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording, Recorder, recordingLimits } from '../domain/recordings.ts';
import type { AssistantMessage, AttemptTrace, Conversation } from '../domain/types.ts';
import { packedLines } from '../formats/records.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import { defaultSettings } from '../stores/settingsStore.ts';
import { loadState } from './load.ts';
import { startPersisting } from './persistence.ts';
import { storedRecording } from './recordingReads.ts';
import { settleInterrupted } from './storedConversation.ts';

/** The stores of the page under test; a reload is a fresh set. */
let stores: AppStores;
const conversations = () => stores.conversations.getState();
const settings = () => stores.settings.getState();

let dbCount = 0;
let db: UseStore;
let writes: number;
/** The database, wrapped to count write transactions. */
let counted: UseStore;
let stop: (() => Promise<void>) | null = null;

function resetStores() {
  stores = createAppStores();
}

beforeEach(() => {
  resetStores();
  sessionStorage.clear();
  db = createStore(`hopbase-test-${++dbCount}`, 'state');
  writes = 0;
  counted = (mode, callback) => {
    if (mode === 'readwrite') writes++;
    return db(mode, callback);
  };
});

afterEach(async () => {
  await stop?.();
  stop = null;
});

/** Stops persisting (flushing what is pending) and waits for every queued transaction. */
async function finish() {
  await stop?.();
  stop = null;
  // A read queued after the writes only completes once they did.
  await keys(db);
}

function streamingConversation(): Conversation {
  const message: AssistantMessage = {
    id: 'msg_1',
    role: 'assistant',
    protocol: 'messages',
    model: 'claude',
    source: { kind: 'gateway' },
    createdAt: 1,
    attempts: [
      {
        id: 'att_1',
        startedAt: 1,
        request: { url: '/v1/messages', path: '/messages', headers: {}, body: { model: 'claude' } },
        turn: {
          ...emptyTurn,
          text: 'Half of the ans',
          parts: [{ kind: 'text', key: 't0', text: 'Half of the ans' }],
        },
        sentHeaders: {},
        httpError: null,
        trace: emptyRecording(),
      },
    ],
  };
  return {
    id: 'conv_streaming',
    title: 'Streaming',
    createdAt: 1,
    updatedAt: 2,
    messages: [{ id: 'msg_0', role: 'user', text: 'Tell me', createdAt: 1 }, message],
  };
}

describe('persistence', () => {
  it('round-trips conversations, the active one and settings through a fresh store', async () => {
    stop = startPersisting(counted, stores, 10);
    const a = conversations().newConversation();
    conversations().addUserMessage(a, 'First question');
    const b = conversations().newConversation();
    conversations().renameConversation(b, 'Second');
    conversations().selectConversation(a);
    settings().update({ protocol: 'responses', model: 'gpt-x', systemPrompt: 'Be brief', temperature: 0.3 });
    const saved = conversations().conversations;
    await finish();

    resetStores();
    expect(conversations().order).toEqual([]);
    await loadState(db, stores);
    expect(conversations().hydrated).toBe(true);
    expect(conversations().conversations).toEqual(saved);
    expect(conversations().activeId).toBe(a);
    expect(conversations().conversations[a]?.title).toBe('First question');
    expect(settings().settings).toEqual({
      ...defaultSettings,
      protocol: 'responses',
      model: 'gpt-x',
      systemPrompt: 'Be brief',
      temperature: 0.3,
    });
  });

  it('loads an answer that was still streaming as interrupted, with its partial text kept', async () => {
    await set('conversation:conv_streaming', streamingConversation(), db);
    await loadState(db, stores);
    const message = conversations().conversations.conv_streaming?.messages[1] as AssistantMessage;
    const turn = message.attempts[0]!.turn;
    expect(turn.status).toBe('interrupted');
    expect(turn.error?.code).toBe('page_reloaded');
    expect(turn.text).toBe('Half of the ans');
    expect(turn.parts).toHaveLength(1);
    expect(conversations().activeId).toBe('conv_streaming');
  });

  it('loads records stored before answers named their source or counted output events', async () => {
    const stored = streamingConversation() as unknown as {
      messages: [
        unknown,
        { source?: unknown; attempts: { request: { url: string }; trace: Record<string, unknown> }[] },
      ];
    };
    const [, answer] = stored.messages;
    delete answer.source;
    answer.attempts[0]!.request.url = 'replay:turn.sse';
    const { outputEvents, ...trace } = answer.attempts[0]!.trace;
    answer.attempts[0]!.trace = { ...trace, deltaEvents: 7 };
    await set('conversation:conv_streaming', stored, db);
    await loadState(db, stores);
    const message = conversations().conversations.conv_streaming?.messages[1] as AssistantMessage;
    expect(outputEvents).toBe(0);
    expect(message.source).toEqual({ kind: 'replay', file: 'turn.sse' });
    expect(message.attempts[0]!.trace.outputEvents).toBe(7);
    expect(message.attempts[0]!.trace).not.toHaveProperty('deltaEvents');
  });

  it('leaves settled conversations untouched', () => {
    const settled = streamingConversation();
    const message = settled.messages[1] as AssistantMessage;
    message.attempts[0]!.turn = { ...message.attempts[0]!.turn, status: 'complete' };
    expect(settleInterrupted(settled)).toBe(settled);
  });

  it('keeps the API key out of the database unless asked to, in sessionStorage instead', async () => {
    stop = startPersisting(counted, stores, 10);
    settings().update({ apiKey: 'sk-secret', model: 'gpt-x' });
    await finish();
    const stored = await get<Record<string, unknown>>('settings', db);
    expect(stored?.model).toBe('gpt-x');
    expect(stored?.apiKey ?? '').toBe('');
    expect(JSON.stringify(await entries(db))).not.toContain('sk-secret');
    expect(sessionStorage.getItem('hopbase-chat.api-key')).toBe('sk-secret');

    // The same tab reloads: the key comes back from sessionStorage.
    resetStores();
    await loadState(db, stores);
    expect(settings().settings.apiKey).toBe('sk-secret');

    // A new tab (empty sessionStorage) has no key.
    resetStores();
    sessionStorage.clear();
    await loadState(db, stores);
    expect(settings().settings.apiKey).toBe('');
  });

  it('stores the API key in the database when rememberKey is on, and drops the session copy', async () => {
    sessionStorage.setItem('hopbase-chat.api-key', 'sk-old');
    stop = startPersisting(counted, stores, 10);
    settings().update({ apiKey: 'sk-kept', rememberKey: true });
    await finish();
    expect(await get<Record<string, unknown>>('settings', db)).toMatchObject({
      apiKey: 'sk-kept',
      rememberKey: true,
    });
    expect(sessionStorage.getItem('hopbase-chat.api-key')).toBeNull();

    resetStores();
    await loadState(db, stores);
    expect(settings().settings).toMatchObject({ apiKey: 'sk-kept', rememberKey: true });
  });

  it('removes deleted conversations from the database', async () => {
    stop = startPersisting(counted, stores, 10);
    const a = conversations().newConversation();
    const b = conversations().newConversation();
    await new Promise((resolve) => setTimeout(resolve, 40));
    await keys(db);
    expect((await keys(db)).sort()).toEqual(
      ['active-conversation', 'recent-conversations', `conversation:${a}`, `conversation:${b}`].sort(),
    );

    conversations().deleteConversation(b);
    await finish();
    expect(await keys(db)).not.toContain(`conversation:${b}`);
    expect(await keys(db)).toContain(`conversation:${a}`);
    expect(await get('active-conversation', db)).toBe(a);
    expect(await get('recent-conversations', db)).toEqual([a]);

    resetStores();
    await loadState(db, stores);
    expect(conversations().order).toEqual([a]);
  });

  it('debounces writes: a burst of updates is written once, after the delay', async () => {
    const id = conversations().newConversation();
    const messageId = conversations().addAssistantMessage(id, 'chat', 'm');
    conversations().addAttempt(id, messageId, {
      id: 'att_1',
      startedAt: 0,
      request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
      turn: emptyTurn,
      sentHeaders: {},
      httpError: null,
      trace: emptyRecording(),
    });
    stop = startPersisting(counted, stores, 50);
    let text = '';
    for (let i = 0; i < 200; i++) {
      text += `token${i} `;
      const current = text;
      conversations().updateAttempt(id, messageId, 'att_1', (a) => ({
        ...a,
        turn: { ...a.turn, text: current },
      }));
    }
    // The burst ran in one task: nothing written yet, however long it took on a busy machine.
    await Promise.resolve();
    expect(writes).toBe(0);
    await vi.waitFor(() => expect(writes).toBe(1));
    await keys(db);
    expect(writes).toBe(1);

    const stored = await get<Conversation>(`conversation:${id}`, db);
    expect((stored!.messages[0] as AssistantMessage).attempts[0]?.turn.text).toBe(text);

    // Nothing changed since: stopping writes nothing more.
    await finish();
    expect(writes).toBe(1);
  });

  it('flushes pending writes when stopped before the delay', async () => {
    stop = startPersisting(counted, stores, 10_000);
    const id = conversations().newConversation();
    expect(writes).toBe(0);
    await finish();
    expect(await get(`conversation:${id}`, db)).toMatchObject({ id, title: '' });
  });
});

describe('a failed save', () => {
  it('is reported, retried, and the report clears once a save works', async () => {
    let failures = 1;
    // A database whose first write transaction fails, as with an exceeded quota.
    const flaky: UseStore = (mode, callback) => {
      if (mode === 'readwrite' && failures > 0) {
        failures--;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return db(mode, callback);
    };
    stop = startPersisting(flaky, stores, 5);
    const id = conversations().newConversation();
    conversations().addUserMessage(id, 'keep me');
    await expect.poll(() => stores.storage.getState().error).toMatch(/The quota has been exceeded/);
    await expect
      .poll(async () => (await get(`conversation:${id}`, db)) !== undefined, { timeout: 5000 })
      .toBe(true);
    await expect.poll(() => stores.storage.getState().error).toBeNull();
  });
});

describe('recordings', () => {
  /** Items as a recorder keeps them: the same objects from one snapshot to the next, new ones after. */
  const recordedItems = Array.from({ length: 20 }, (_, i) => ({
    t: i,
    kind: 'event' as const,
    event: 'message',
    data: `{"n":${i}}`,
  }));
  const recorded = (items: number, status: 'streaming' | 'complete', bytes = 10 * items) =>
    withTrace(status, {
      ...streamingAttempt().trace,
      bytes,
      items: recordedItems.slice(0, items),
      raw: 'data: {"n":0}\n\n'.repeat(items),
    });
  const streamingAttempt = () => (streamingConversation().messages[1] as AssistantMessage).attempts[0]!;
  const withTrace = (status: 'streaming' | 'complete', trace: AttemptTrace): Conversation => {
    const conversation = streamingConversation();
    const message = conversation.messages[1] as AssistantMessage;
    const attempt = message.attempts[0]!;
    return {
      ...conversation,
      messages: [
        conversation.messages[0]!,
        { ...message, attempts: [{ ...attempt, turn: { ...attempt.turn, status }, trace }] },
      ],
    };
  };
  const put = (conversation: Conversation) =>
    stores.conversations.setState((s) => ({
      conversations: { ...s.conversations, [conversation.id]: conversation },
      order: s.order.includes(conversation.id) ? s.order : [conversation.id, ...s.order],
    }));
  const traceWrites = () => traceKeys.length;
  let traceKeys: string[] = [];
  /** Counts writes of trace records by looking at what each write transaction stores. */
  const watching: UseStore = (mode, callback) =>
    db(mode, (store) => {
      if (mode === 'readwrite') {
        const original = store.put.bind(store);
        store.put = (value: unknown, key?: IDBValidKey) => {
          if (String(key).startsWith('trace:')) traceKeys.push(String(key));
          return original(value, key);
        };
      }
      return callback(store);
    });

  beforeEach(() => {
    traceKeys = [];
    reads.length = 0;
  });

  const attemptOf = (conversation: Conversation | undefined) =>
    (conversation?.messages[1] as AssistantMessage | undefined)?.attempts[0];
  const loads = () => stores.recordings.getState().loads;

  type Query = IDBValidKey | IDBKeyRange | null | undefined;
  /** The database, wrapped to list every key and key range a transaction reads (none: the whole store). */
  const reads: Query[] = [];
  /** Whether any read covered the record with this key. */
  const readKey = (key: string) =>
    reads.some((query) =>
      query instanceof IDBKeyRange ? query.includes(key) : query === key || query == null,
    );
  const listing: UseStore = (mode, callback) =>
    db(mode, (store) => {
      for (const method of [
        'get',
        'getAll',
        'getAllKeys',
        'getKey',
        'openCursor',
        'openKeyCursor',
      ] as const) {
        const original = store[method].bind(store) as (
          query?: IDBValidKey | IDBKeyRange | null,
        ) => IDBRequest;
        (store as unknown as Record<string, unknown>)[method] = (
          query?: IDBValidKey | IDBKeyRange | null,
        ) => {
          reads.push(query);
          return original(query);
        };
      }
      return callback(store);
    });

  it('are stored apart from their conversation, which keeps their figures', async () => {
    stop = startPersisting(watching, stores, 5);
    const conversation = recorded(3, 'complete');
    put(conversation);
    await finish();
    const stored = (await get('conversation:conv_streaming', db)) as Conversation;
    const storedAttempt = attemptOf(stored)!;
    expect(storedAttempt.trace.items).toEqual([]);
    expect(storedAttempt.trace.raw).toBe('');
    expect(storedAttempt.trace).toMatchObject({ bytes: 30, outputEvents: 0, endedAt: null });
    expect(await storedRecording(db, 'att_1')).toEqual({
      items: attemptOf(conversation)!.trace.items,
      raw: attemptOf(conversation)!.trace.raw,
    });
  });

  it('are not read at startup: the answers load with their figures, the recordings stay in the database', async () => {
    stop = startPersisting(db, stores, 5);
    put(recorded(3, 'complete'));
    await finish();

    resetStores();
    const loaded = await loadState(listing, stores);
    stop = startPersisting(listing, stores, 5, 2000, { loaded });
    expect(readKey('conversation:conv_streaming')).toBe(true);
    expect(readKey('trace:att_1')).toBe(false);
    const attempt = attemptOf(conversations().conversations.conv_streaming)!;
    expect(attempt.turn.text).toBe('Half of the ans');
    expect(attempt.trace).toMatchObject({ bytes: 30, items: [], raw: '' });
  });

  it('are read when the inspector asks, and put into their attempt', async () => {
    const conversation = recorded(3, 'complete');
    stop = startPersisting(db, stores, 5);
    put(conversation);
    await finish();

    resetStores();
    const loaded = await loadState(listing, stores);
    stop = startPersisting(listing, stores, 5, 2000, { loaded });
    stores.recordings.getState().want('att_1');
    expect(loads()).toEqual({ att_1: 'loading' });
    // The inspector asks for the request's body too (a load leaves it in the database as well).
    stores.bodies.getState().want('att_1');
    await expect
      .poll(() => attemptOf(conversations().conversations.conv_streaming)?.trace.items)
      .toHaveLength(3);
    expect(readKey('trace:att_1')).toBe(true);
    await expect.poll(() => stores.bodies.getState().loads).toEqual({});
    expect(attemptOf(conversations().conversations.conv_streaming)).toEqual(attemptOf(conversation));
    expect(loads()).toEqual({});
    // Read from the database, it is not written back.
    await finish();
    expect(traceWrites()).toBe(0);
  });

  it('asked for but not in the database, or unreadable there, say so and are listed with the records that cannot be read', async () => {
    stop = startPersisting(db, stores, 5);
    const conversation = recorded(3, 'complete');
    const missing = { ...attemptOf(conversation)!, id: 'att_missing' };
    const message = conversation.messages[1] as AssistantMessage;
    put({
      ...conversation,
      messages: [conversation.messages[0]!, { ...message, attempts: [...message.attempts, missing] }],
    });
    await finish();
    await set('trace:att_1', { items: 'nope', raw: '' }, db);
    await del('trace:att_missing', db);

    resetStores();
    const loaded = await loadState(db, stores);
    expect(stores.storage.getState().unreadable).toEqual([]);
    stop = startPersisting(db, stores, 5, 2000, { loaded });
    stores.recordings.getState().want('att_1');
    stores.recordings.getState().want('att_missing');
    await expect.poll(loads).toEqual({ att_1: 'unreadable', att_missing: 'missing' });
    expect(stores.storage.getState().unreadable.map((r) => [r.key, r.what, r.reason])).toEqual([
      ['trace:att_1', 'recording', 'items: expected a list'],
    ]);
    // The unreadable record is left as it is.
    expect(await get('trace:att_1', db)).toEqual({ items: 'nope', raw: '' });
  });

  it('kept apart are never overwritten by an empty copy when their conversation is written', async () => {
    stop = startPersisting(db, stores, 5);
    put(recorded(3, 'complete'));
    await finish();

    resetStores();
    const loaded = await loadState(db, stores);
    stop = startPersisting(watching, stores, 5, 2000, { loaded });
    conversations().renameConversation('conv_streaming', 'Renamed');
    await finish();
    expect(traceWrites()).toBe(0);
    expect((await storedRecording(db, 'att_1'))?.items).toHaveLength(3);
    expect(((await get('conversation:conv_streaming', db)) as Conversation).title).toBe('Renamed');
  });

  it('are written at most every traceDelayMs while they grow, and in full when they end', async () => {
    stop = startPersisting(watching, stores, 1, 60_000);
    for (let n = 1; n <= 5; n++) {
      put(recorded(n, 'streaming'));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(traceWrites()).toBe(1);
    put(recorded(6, 'complete'));
    await finish();
    expect(traceWrites()).toBe(2);
    expect((await storedRecording(db, 'att_1'))?.items).toHaveLength(6);
  });

  it('are written sooner, while they grow, once a part of partBytes came since the last', async () => {
    stop = startPersisting(watching, stores, 1, 60_000);
    put(recorded(1, 'streaming'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    put(recorded(2, 'streaming', recordingLimits.partBytes - 1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(traceWrites()).toBe(1);
    put(recorded(3, 'streaming', recordingLimits.partBytes + 10));
    await expect.poll(traceWrites).toBe(2);
    expect((await storedRecording(db, 'att_1'))?.items).toHaveLength(3);
  });

  /** After a reload, the recording as the inspector reads it: the one `conversation` holds. */
  const expectReadAfterReload = async (conversation: Conversation) => {
    resetStores();
    const loaded = await loadState(db, stores);
    stop = startPersisting(db, stores, 1, 0, { loaded });
    stores.recordings.getState().want('att_1');
    await expect.poll(loads).toEqual({});
    const { rawSlice: _, ...whole } = attemptOf(conversation)!.trace;
    expect(attemptOf(conversations().conversations.conv_streaming)?.trace).toEqual(whole);
  };

  it('are written at once, not at the next timed write, once a part of partBytes came since the last', async () => {
    stop = startPersisting(watching, stores, 60_000, 60_000);
    put(recorded(1, 'streaming'));
    await expect.poll(traceWrites).toBe(1);
    put(recorded(2, 'streaming', 10 + recordingLimits.partBytes));
    await expect.poll(traceWrites).toBe(2);
  });

  it('from a fast stream are written in parts of about partBytes, one write after another, read back whole', async () => {
    stop = startPersisting(db, stores, 60_000, 60_000);
    put(withTrace('streaming', new Recorder(0).snapshot()));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 1 });
    // One network chunk of parts' worth, its events read at once: the next write would hold it all.
    const recorder = new Recorder(0);
    const events = Array.from({ length: 12_000 }, (_, n) => `data: {"n":${n}}\n\n`);
    const chunk = events.join('');
    recorder.chunk(chunk.length, chunk);
    for (let n = 0; n < events.length; n++) recorder.event(n, 'message', `{"n":${n}}`, true);
    put(withTrace('streaming', recorder.snapshot()));
    await expect.poll(async () => Object.keys(await storedParts()).length).toBeGreaterThan(3);
    recorder.end(12_000);
    const conversation = withTrace('complete', recorder.snapshot());
    put(conversation);
    await finish();
    const parts = Object.values(await storedParts()) as { packed: string; raw: string }[];
    const longestLine = Math.max(
      ...parts.flatMap((part) => part.packed.split('\n').map((l) => l.length + 1)),
    );
    for (const part of parts) {
      expect(part.raw.length).toBeLessThanOrEqual(recordingLimits.partBytes);
      expect(part.packed.length).toBeLessThan(recordingLimits.partBytes + longestLine);
    }

    await expectReadAfterReload(conversation);
  });

  it('held back while growing are written when the page goes away', async () => {
    stop = startPersisting(watching, stores, 1, 60_000);
    put(recorded(1, 'streaming'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    put(recorded(4, 'streaming'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(traceWrites()).toBe(1);
    window.dispatchEvent(new Event('pagehide'));
    await finish();
    expect((await storedRecording(db, 'att_1'))?.items).toHaveLength(4);
  });

  /** The `trace-part:` records of the database, by key. */
  const storedParts = async () =>
    Object.fromEntries(
      (await entries(db))
        .filter(([key]) => String(key).startsWith('trace-part:'))
        .map(([k, v]) => [String(k), v]),
    );
  const lines = (from: number, to: number) => packedLines(recordedItems.slice(from, to)).lines;

  it('growing are written in parts, each with what came since the last, and read back joined', async () => {
    stop = startPersisting(db, stores, 1, 0);
    put(recorded(2, 'streaming'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 1 });
    put(recorded(5, 'streaming'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 2 });
    const conversation = recorded(6, 'complete');
    put(conversation);
    await finish();
    expect(await get('trace:att_1', db)).toEqual({ parts: 3 });
    const raw = 'data: {"n":0}\n\n';
    expect(await storedParts()).toEqual({
      'trace-part:att_1:0': { packed: lines(0, 2), raw: raw.repeat(2) },
      'trace-part:att_1:1': { packed: lines(2, 5), raw: raw.repeat(3) },
      'trace-part:att_1:2': { packed: lines(5, 6), raw },
    });

    // Read when the inspector asks, after a reload: joined into the attempt as it was.
    await expectReadAfterReload(conversation);
  });

  it('growing as a recorder records them are written in parts of what came since, read back whole', async () => {
    stop = startPersisting(db, stores, 1, 0);
    const recorder = new Recorder(0);
    const receive = (n: number) => {
      const chunk = `data: {"n":${n}}\n\n`;
      recorder.chunk(chunk.length, chunk);
      recorder.event(n, 'message', `{"n":${n}}`, true);
    };
    receive(0);
    receive(1);
    put(withTrace('streaming', recorder.snapshot()));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 1 });
    for (let n = 2; n < 5; n++) receive(n);
    put(withTrace('streaming', recorder.snapshot()));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 2 });
    receive(5);
    recorder.end(6);
    const conversation = withTrace('complete', recorder.snapshot());
    put(conversation);
    await finish();
    const raw = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `data: {"n":${from + i}}\n\n`).join('');
    expect(Object.values(await storedParts()).map((part) => (part as { raw: string }).raw)).toEqual([
      raw(0, 2),
      raw(2, 5),
      raw(5, 6),
    ]);

    await expectReadAfterReload(conversation);
  });

  it('written whole after they were written in parts leave no part behind', async () => {
    stop = startPersisting(db, stores, 1, 0);
    put(recorded(2, 'streaming'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 1 });
    put(recorded(4, 'streaming'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 2 });
    // Not what was written grown (another copy of its items): written again whole.
    const other = recorded(3, 'complete');
    const attempt = attemptOf(other)!;
    const items = attempt.trace.items.map((item) => ({ ...item }));
    put({
      ...other,
      messages: [
        other.messages[0]!,
        {
          ...(other.messages[1] as AssistantMessage),
          attempts: [{ ...attempt, trace: { ...attempt.trace, items } }],
        },
      ],
    });
    await finish();
    expect(await get('trace:att_1', db)).toEqual({ packed: lines(0, 3), raw: attempt.trace.raw });
    expect(await storedParts()).toEqual({});
    expect((await storedRecording(db, 'att_1'))?.items).toEqual(items);
  });

  it('written by an earlier version, whole, are read as they are', async () => {
    stop = startPersisting(db, stores, 5);
    const conversation = recorded(3, 'complete');
    put(conversation);
    await finish();
    const { items, raw } = attemptOf(conversation)!.trace;
    await set('trace:att_1', { items, raw }, db);

    resetStores();
    stop = startPersisting(db, stores, 5, 2000, { loaded: await loadState(db, stores) });
    stores.recordings.getState().want('att_1');
    await expect.poll(loads).toEqual({});
    expect(attemptOf(conversations().conversations.conv_streaming)?.trace).toEqual(
      attemptOf(conversation)?.trace,
    );
  });

  it('with a part missing are unreadable, and say which part', async () => {
    stop = startPersisting(db, stores, 1, 0);
    put(recorded(2, 'streaming'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 1 });
    put(recorded(3, 'complete'));
    await finish();
    await del('trace-part:att_1:1', db);

    resetStores();
    stop = startPersisting(db, stores, 5, 2000, { loaded: await loadState(db, stores) });
    stores.recordings.getState().want('att_1');
    await expect.poll(loads).toEqual({ att_1: 'unreadable' });
    expect(stores.storage.getState().unreadable.map((r) => [r.key, r.reason, r.value])).toEqual([
      ['trace:att_1', 'part 1: missing', { parts: 2 }],
    ]);
  });

  it('go with their conversation when it is deleted, every part of them', async () => {
    stop = startPersisting(db, stores, 1, 0);
    put(recorded(2, 'streaming'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 1 });
    put(recorded(4, 'complete'));
    await expect.poll(() => get('trace:att_1', db)).toEqual({ parts: 2 });
    expect(Object.keys(await storedParts())).toHaveLength(2);
    conversations().deleteConversation('conv_streaming');
    await finish();
    expect(await get('trace:att_1', db)).toBeUndefined();
    expect(await storedParts()).toEqual({});
    expect(await get('conversation:conv_streaming', db)).toBeUndefined();
  });

  it('go with their conversation when it is deleted', async () => {
    stop = startPersisting(db, stores, 1);
    put(recorded(2, 'complete'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await get('trace:att_1', db)).toBeDefined();
    conversations().deleteConversation('conv_streaming');
    await finish();
    expect(await get('trace:att_1', db)).toBeUndefined();
    expect(await get('conversation:conv_streaming', db)).toBeUndefined();
  });
});

/** A conversation with one user message, as a record stores it. */
function plainConversation(id: string, text: string, createdAt = 1): Conversation {
  return {
    id,
    title: text,
    createdAt,
    updatedAt: createdAt,
    messages: [{ id: `msg_${id}`, role: 'user', text, createdAt }],
  };
}

describe('records that cannot be read', () => {
  const bad = { id: 'conv_bad', title: 'Broken', createdAt: 3, updatedAt: 3, messages: null };

  it('are set aside: the others load, the bad one is listed, and nothing stored is overwritten', async () => {
    await set('conversation:conv_a', plainConversation('conv_a', 'First', 1), db);
    await set('conversation:conv_b', plainConversation('conv_b', 'Second', 2), db);
    await set('conversation:conv_bad', bad, db);
    await set('settings', { model: 'gpt-saved', systemPrompt: 'Be brief' }, db);
    await set('active-conversation', 'conv_bad', db);

    const loaded = await loadState(db, stores);
    expect(conversations().order).toEqual(['conv_b', 'conv_a']);
    expect(conversations().activeId).toBe('conv_b');
    expect(settings().settings).toMatchObject({ model: 'gpt-saved', systemPrompt: 'Be brief' });
    const { unreadable, loadError } = stores.storage.getState();
    expect(loadError).toBeNull();
    expect(unreadable).toEqual([
      { key: 'conversation:conv_bad', what: 'conversation', reason: 'messages: expected a list', value: bad },
    ]);

    // The person keeps working: a setting, a new conversation, a deletion.
    stop = startPersisting(db, stores, 5, 2000, { loaded });
    settings().update({ temperature: 0.5 });
    const id = conversations().newConversation();
    conversations().addUserMessage(id, 'Third');
    conversations().deleteConversation('conv_a');
    await finish();
    expect(await get('conversation:conv_bad', db)).toEqual(bad);
    expect(await get('settings', db)).toEqual({
      model: 'gpt-saved',
      systemPrompt: 'Be brief',
      temperature: 0.5,
    });
    expect(await get(`conversation:${id}`, db)).toMatchObject({ messages: [{ text: 'Third' }] });
  });

  it('include settings records of the wrong shape (recordings: when they are asked for)', async () => {
    const conversation = streamingConversation();
    await set('conversation:conv_streaming', conversation, db);
    await set('trace:att_1', { items: 'nope', raw: '' }, db);
    await set('settings', 'garbage', db);
    await loadState(db, stores);
    expect(conversations().order).toEqual(['conv_streaming']);
    expect(settings().settings).toEqual(defaultSettings);
    expect(stores.storage.getState().unreadable.map((r) => [r.key, r.what, r.reason])).toEqual([
      ['settings', 'settings', 'not a settings record'],
    ]);
  });

  it('a settings record that cannot be read is copied aside, never lost, when settings are next saved', async () => {
    await set('settings', ['not', 'settings'], db);
    const loaded = await loadState(db, stores);
    stop = startPersisting(db, stores, 5, 2000, { loaded });
    settings().update({ model: 'gpt-new' });
    await finish();
    expect(await get('settings', db)).toEqual({ model: 'gpt-new' });
    const aside = (await entries(db)).filter(([key]) => String(key).startsWith('set-aside:settings:'));
    expect(aside.map(([, value]) => value)).toEqual([['not', 'settings']]);
    expect(stores.storage.getState().unreadable.map((r) => r.key)).toContain(aside[0]![0]);
  });

  it('settings fields of the wrong type fall back to their defaults and stay stored until changed', async () => {
    await set('settings', { model: 42, systemPrompt: 'Kept', temperature: 'hot', future: { x: 1 } }, db);
    const loaded = await loadState(db, stores);
    expect(settings().settings).toMatchObject({
      model: defaultSettings.model,
      systemPrompt: 'Kept',
      temperature: null,
    });
    expect(stores.storage.getState().resetSettings).toEqual(['model', 'temperature']);
    stop = startPersisting(db, stores, 5, 2000, { loaded });
    settings().update({ model: 'gpt-chosen' });
    await finish();
    expect(await get('settings', db)).toEqual({
      model: 'gpt-chosen',
      systemPrompt: 'Kept',
      temperature: 'hot',
      future: { x: 1 },
    });
  });

  it('a database that cannot be read at all is reported, and nothing stored is overwritten', async () => {
    await set('conversation:conv_a', plainConversation('conv_a', 'Saved'), db);
    await set('settings', { model: 'gpt-saved', systemPrompt: 'Saved prompt' }, db);
    await set('active-conversation', 'conv_a', db);
    let reads = 0;
    const broken: UseStore = (mode, callback) => {
      if (mode === 'readonly' && reads++ === 0) return Promise.reject(new Error('The database is blocked.'));
      return db(mode, callback);
    };
    const loaded = await loadState(broken, stores);
    expect(loaded.ok).toBe(false);
    expect(stores.storage.getState().loadError).toBe('The database is blocked.');
    expect(conversations().order).toEqual([]);

    stop = startPersisting(broken, stores, 5, 2000, { loaded });
    settings().update({ temperature: 0.7 });
    const id = conversations().newConversation();
    conversations().addUserMessage(id, 'New work');
    await finish();
    expect(await get('settings', db)).toEqual({
      model: 'gpt-saved',
      systemPrompt: 'Saved prompt',
      temperature: 0.7,
    });
    expect(await get('conversation:conv_a', db)).toEqual(plainConversation('conv_a', 'Saved'));
    expect(await get(`conversation:${id}`, db)).toMatchObject({ messages: [{ text: 'New work' }] });
  });
});

describe('when things are written', () => {
  it('a sent message is written at once, not after the debounce', async () => {
    stop = startPersisting(counted, stores, 60_000);
    const id = conversations().newConversation();
    conversations().addUserMessage(id, 'Keep me');
    await expect
      .poll(async () => (await get<Conversation>(`conversation:${id}`, db))?.messages.length, {
        timeout: 1000,
      })
      .toBe(1);
    // A streaming answer's frames still wait for the debounce.
    const messageId = conversations().addAssistantMessage(id, 'chat', 'm');
    conversations().addAttempt(id, messageId, {
      id: 'att_1',
      startedAt: 0,
      request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
      turn: emptyTurn,
      sentHeaders: {},
      httpError: null,
      trace: emptyRecording(),
    });
    await expect.poll(() => writes, { timeout: 1000 }).toBe(2);
    for (let i = 0; i < 50; i++)
      conversations().updateAttempt(id, messageId, 'att_1', (a) => ({
        ...a,
        turn: { ...a.turn, text: `t${i}` },
      }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes).toBe(2);
  });

  it('what the page could not commit before it went away is kept in sessionStorage and restored', async () => {
    // IndexedDB writes started while the page unloads never commit.
    const unloading: UseStore = (mode, callback) =>
      mode === 'readwrite' ? new Promise(() => {}) : db(mode, callback);
    await set('conversation:conv_a', plainConversation('conv_a', 'Before'), db);
    let loaded = await loadState(db, stores);
    stop = startPersisting(unloading, stores, 400, 2000, { loaded });
    conversations().selectConversation('conv_a');
    void stores.conversations.getState().addUserMessage('conv_a', 'Sent just before the reload');
    const id = conversations().newConversation();
    conversations().addUserMessage(id, 'A new conversation');
    conversations().renameConversation('conv_a', 'Renamed');
    settings().update({ systemPrompt: 'Unsaved prompt' });
    window.dispatchEvent(new Event('pagehide'));
    stop = null;
    expect(await get<Conversation>('conversation:conv_a', db)).toEqual(plainConversation('conv_a', 'Before'));

    // The reload: a fresh page in the same tab.
    resetStores();
    loaded = await loadState(db, stores);
    expect(
      conversations().conversations.conv_a?.messages.map((m) => (m.role === 'user' ? m.text : '')),
    ).toEqual(['Before', 'Sent just before the reload']);
    expect(conversations().conversations.conv_a?.title).toBe('Renamed');
    expect(conversations().conversations[id]?.messages).toHaveLength(1);
    expect(conversations().activeId).toBe(id);
    expect(settings().settings.systemPrompt).toBe('Unsaved prompt');

    // Written back at once, then the journal goes.
    stop = startPersisting(db, stores, 400, 2000, { loaded });
    await expect
      .poll(async () => (await get<Conversation>('conversation:conv_a', db))?.messages.length, {
        timeout: 1000,
      })
      .toBe(2);
    await expect.poll(() => sessionStorage.getItem('hopbase-chat.unsaved'), { timeout: 1000 }).toBeNull();
    expect(await get(`conversation:${id}`, db)).toMatchObject({ title: 'A new conversation' });
    expect(await get('settings', db)).toEqual({ systemPrompt: 'Unsaved prompt' });
  });

  it('a journal whose writes did commit is not written again, and a deletion in it stays', async () => {
    stop = startPersisting(db, stores, 5);
    const a = conversations().newConversation();
    conversations().addUserMessage(a, 'Kept');
    const b = conversations().newConversation();
    conversations().addUserMessage(b, 'Deleted');
    await finish();
    stop = startPersisting(counted, stores, 5);
    conversations().deleteConversation(b);
    window.dispatchEvent(new Event('pagehide'));
    const journal = sessionStorage.getItem('hopbase-chat.unsaved');
    expect(journal).not.toBeNull();
    await finish();
    // The writes committed, but the page was gone before it could clear the journal.
    sessionStorage.setItem('hopbase-chat.unsaved', journal!);
    const before = writes;

    resetStores();
    const loaded = await loadState(db, stores);
    expect(conversations().order).toEqual([a]);
    stop = startPersisting(counted, stores, 5, 2000, { loaded });
    await finish();
    expect(writes).toBe(before);
    expect(sessionStorage.getItem('hopbase-chat.unsaved')).toBeNull();
  });
});

describe('a failed settings save', () => {
  it('is retried until it is stored', async () => {
    let failures = 1;
    const flaky: UseStore = (mode, callback) => {
      if (mode === 'readwrite' && failures > 0) {
        failures--;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return db(mode, callback);
    };
    stop = startPersisting(flaky, stores, 5, 2000, { retryDelayMs: 300 });
    settings().update({ model: 'gpt-kept', systemPrompt: 'Kept too' });
    await expect.poll(() => stores.storage.getState().error).toMatch(/The quota has been exceeded/);
    await expect
      .poll(() => get('settings', db), { timeout: 3000 })
      .toMatchObject({ model: 'gpt-kept', systemPrompt: 'Kept too' });
    await expect.poll(() => stores.storage.getState().error).toBeNull();
  });
});
