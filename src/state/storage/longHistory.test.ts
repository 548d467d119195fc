import 'fake-indexeddb/auto';
import { createStore, get, set, setMany, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import { loadParts } from '../domain/partLoads.ts';
import type { Conversation } from '../domain/types.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import { loadState, readAheadOfLoad, readStoredConversations } from './load.ts';
import { startPersisting } from './persistence.ts';
import { recordOf } from './storedConversation.ts';

/** A person's long history: conversation `n` was last changed `n` hours ago, each with one answer. */
const COUNT = 400;
const idOf = (n: number) => `conv_${n}`;
const now = Date.UTC(2026, 11, 1);

function conversationNumber(n: number): Conversation {
  const answer = answerMessage(`msg_${n}`, { status: 'complete', text: `Answer ${n}` });
  answer.attempts[0]!.request.body = { model: 'sim-echo', messages: [{ role: 'user', content: `Q${n}` }] };
  return {
    id: idOf(n),
    title: `Conversation ${n}`,
    createdAt: now - n * 3_600_000,
    updatedAt: now - n * 3_600_000,
    messages: [
      { id: `msg_q${n}`, role: 'user', text: `Q${n}`, createdAt: 0 },
      { ...answer, parentId: `msg_q${n}` },
    ],
  };
}

function bodyOf(conversation: Conversation | undefined) {
  const answer = conversation?.messages[1];
  return answer?.role === 'assistant' ? answer.attempts[0]!.request : undefined;
}

let db: UseStore;
let count = 0;
let stores: AppStores;
let stop: (() => Promise<void>) | null = null;
const state = () => stores.conversations.getState();

/** Stores the history as the app writes it: records, request bodies apart, and (`recent`) the recent list. */
async function storeHistory({ recent = true, active = idOf(0) } = {}) {
  const entries: [string, unknown][] = [];
  for (let n = 0; n < COUNT; n++) {
    const conversation = conversationNumber(n);
    entries.push([`conversation:${conversation.id}`, { ...recordOf(conversation), revision: 1 }]);
    entries.push([`request:msg_${n}_att`, { body: bodyOf(conversation)?.body }]);
  }
  if (recent) entries.push(['recent-conversations', Array.from({ length: 100 }, (_, n) => idOf(n))]);
  entries.push(['active-conversation', active]);
  await setMany(entries, db);
}

/** Resolves once every stored conversation is read and the list holds `count`. */
function allRead(count = COUNT): Promise<void> {
  return vi.waitFor(
    () => {
      expect(stores.storage.getState().unread).toEqual({ kind: 'none' });
      expect(state().order).toHaveLength(count);
    },
    { timeout: 15_000, interval: 20 },
  );
}

beforeEach(() => {
  db = createStore(`hopbase-long-${++count}`, 'state');
  stores = createAppStores();
  sessionStorage.clear();
});

afterEach(async () => {
  await stop?.();
  stop = null;
});

describe('a long history', () => {
  it('loads its first screen first: the recent ones, the active one and the one the address names', async () => {
    await storeHistory({ active: idOf(250) });
    const loaded = await loadState(db, stores, [idOf(399)]);
    const ids = Object.keys(state().conversations);
    expect(ids).toHaveLength(102);
    expect(ids).toEqual(expect.arrayContaining([idOf(0), idOf(99), idOf(250), idOf(399)]));
    expect(state().activeId).toBe(idOf(250));
    expect(loaded.partial).toBe(true);
    // Their request bodies stay in the database until asked for (the inspector, a Retry).
    expect(bodyOf(state().conversations[idOf(7)])?.bodyMissing).toBe('missing');
  });

  it('takes what was read ahead of it (while the server is asked who is here) when that covers what it needs', async () => {
    await storeHistory();
    const ahead = readAheadOfLoad(db, [idOf(399)]);
    await ahead.read;
    // Changed after the read ahead: a load that takes it shows what was read then.
    const renamed = { ...recordOf({ ...conversationNumber(0), title: 'Renamed since' }), revision: 2 };
    await set(`conversation:${idOf(0)}`, renamed, db);
    await loadState(db, stores, [idOf(399)], ahead);
    expect(state().conversations[idOf(0)]!.title).toBe('Conversation 0');
    expect(state().conversations[idOf(399)]).toBeDefined();

    // A read ahead without the conversation the load needs is read again.
    stores = createAppStores();
    const without = readAheadOfLoad(db, []);
    await loadState(db, stores, [idOf(399)], without);
    expect(state().conversations[idOf(0)]!.title).toBe('Renamed since');
    expect(state().conversations[idOf(399)]).toBeDefined();
  });

  it('tells ahead of the load whether the conversation it opens holds an answer (the renderer is then fetched)', async () => {
    await storeHistory({ active: idOf(250) });
    const empty = { id: 'conv_empty', title: 'New chat', createdAt: now, updatedAt: now, messages: [] };
    await set('conversation:conv_empty', { ...recordOf(empty), revision: 1 }, db);
    expect(await readAheadOfLoad(db, []).opensOnAnswer).toBe(true);
    expect(await readAheadOfLoad(db, ['conv_empty']).opensOnAnswer).toBe(false);
    await set('active-conversation', 'conv_empty', db);
    expect(await readAheadOfLoad(db, []).opensOnAnswer).toBe(false);
    expect(await readAheadOfLoad(db, [idOf(399)]).opensOnAnswer).toBe(true);
    expect(await readAheadOfLoad(createStore('hopbase-nothing-yet', 'state'), []).opensOnAnswer).toBe(false);
  });

  it('then reads the rest by keys, in the list by date, bodies when asked for, writing nothing', async () => {
    await storeHistory();
    const loaded = await loadState(db, stores);
    let writes = 0;
    const counted: UseStore = (mode, callback) => {
      if (mode === 'readwrite') writes++;
      return db(mode, callback);
    };
    const said: unknown[] = [];
    stores.storage.subscribe((status) => said.push(status.unread));
    stop = startPersisting(counted, stores, 10, 2000, { loaded });
    await allRead();
    // One batch: 300 are fewer than a batch.
    expect(said).toEqual([{ kind: 'uncounted' }, { kind: 'counted', count: COUNT - 100 }, { kind: 'none' }]);
    expect(state().order).toEqual(Array.from({ length: COUNT }, (_, n) => idOf(n)));
    expect(bodyOf(state().conversations[idOf(321)])?.bodyMissing).toBe('missing');
    expect(await loadParts(stores.bodies, ['msg_321_att', 'msg_7_att'])).toEqual({});
    expect(bodyOf(state().conversations[idOf(321)])).toEqual(bodyOf(conversationNumber(321)));
    expect(bodyOf(state().conversations[idOf(7)])).toEqual(bodyOf(conversationNumber(7)));
    expect(writes).toBe(0);
  });

  it('waits for the first paint before reading the rest', async () => {
    await storeHistory();
    const loaded = await loadState(db, stores);
    let painted = () => {};
    const readRestAfter = new Promise<void>((resolve) => {
      painted = resolve;
    });
    stop = startPersisting(db, stores, 10, 2000, { loaded, readRestAfter });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state().order).toHaveLength(100);
    painted();
    await allRead();
  });

  it('reports a record it cannot read among the older ones, as a whole load would', async () => {
    await storeHistory();
    await set(`conversation:conv_broken`, { id: 'conv_broken', title: 'Broken', messages: null }, db);
    const loaded = await loadState(db, stores);
    expect(stores.storage.getState().unreadable).toEqual([]);
    stop = startPersisting(db, stores, 10, 2000, { loaded });
    await allRead();
    expect(stores.storage.getState().unreadable.map((r) => [r.key, r.what])).toEqual([
      ['conversation:conv_broken', 'conversation'],
    ]);
  });

  it('keeps what changed here and elsewhere before the rest was read', async () => {
    await storeHistory();
    const loaded = await loadState(db, stores);
    // Another tab renamed one not read yet; here one is renamed and one deleted before it is read.
    await set(
      `conversation:${idOf(300)}`,
      { ...recordOf({ ...conversationNumber(300), title: 'Renamed in the other tab' }), revision: 2 },
      db,
    );
    state().renameConversation(idOf(3), 'Renamed here');
    state().deleteConversation(idOf(4));
    stop = startPersisting(db, stores, 10, 2000, { loaded });
    await allRead(COUNT - 1);
    await stop();
    stop = null;
    expect(state().conversations[idOf(300)]!.title).toBe('Renamed in the other tab');
    expect(state().conversations[idOf(3)]!.title).toBe('Renamed here');
    expect(await get(`conversation:${idOf(4)}`, db)).toBeUndefined();
    expect(await get(`deleted:${idOf(4)}`, db)).toMatchObject({ deleted: true });
  });

  it('loads whole where there is no recent list yet, and the next write stores one', async () => {
    await storeHistory({ recent: false });
    const loaded = await loadState(db, stores);
    expect(loaded.partial).toBe(false);
    expect(state().order).toHaveLength(COUNT);
    stop = startPersisting(db, stores, 10, 2000, { loaded });
    state().addUserMessage(idOf(150), 'One more question');
    await stop();
    stop = null;
    const recent = (await get('recent-conversations', db)) as string[];
    expect(recent).toHaveLength(100);
    expect(recent[0]).toBe(idOf(150));
    expect(recent[1]).toBe(idOf(0));
  });

  it('is read whole where another database of this browser is taken in (team mode offers it)', async () => {
    await storeHistory();
    expect(await readStoredConversations(db)).toHaveLength(COUNT);
  });
});
