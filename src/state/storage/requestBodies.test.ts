import 'fake-indexeddb/auto';
import { createStore, del, get, keys, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { loadParts, type PartProblems } from '../domain/partLoads.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import { readConversationRecord } from '../formats/records.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import { journalKey } from './journal.ts';
import { loadState } from './load.ts';
import { startPersisting } from './persistence.ts';
import { recordOf } from './storedConversation.ts';

/**
 * Request bodies kept apart from their conversation's record: each in a `request:<attemptId>` record
 * written once, left in the database by a load and read when asked for (the inspector, a Retry, an
 * export), joined in by another tab, in a backup (`backup.test.ts`) and by the unload journal, so that the
 * record written while an answer streams stays small and a reload reads none.
 */

let stores: AppStores;
const conversations = () => stores.conversations.getState();
let dbCount = 0;
let db: UseStore;
let stop: (() => Promise<void>) | null = null;
/** The keys every write transaction put, in order. */
let puts: string[] = [];
/** The database, wrapped to list the keys written. */
let watching: UseStore;

beforeEach(() => {
  stores = createAppStores();
  sessionStorage.clear();
  db = createStore(`hopbase-bodies-${++dbCount}`, 'state');
  puts = [];
  watching = (mode, callback) =>
    db(mode, (store) => {
      if (mode === 'readwrite') {
        const original = store.put.bind(store);
        store.put = (value: unknown, key?: IDBValidKey) => {
          puts.push(String(key));
          return original(value, key);
        };
      }
      return callback(store);
    });
});

afterEach(async () => {
  await stop?.();
  stop = null;
});

async function finish() {
  await stop?.();
  stop = null;
  // A read queued after the writes only completes once they did.
  await keys(db);
}

/** A fresh page in the same tab, loading what is stored, persisting through `through`. */
async function reload(through: UseStore = db) {
  await finish();
  stores = createAppStores();
  const loaded = await loadState(db, stores);
  stop = startPersisting(through, stores, 1, 2000, { loaded });
  return loaded;
}

/** Asks for every body the page has not read (as the inspector or a Retry would); what could not be had. */
function askForBodies(): Promise<PartProblems> {
  const apart = Object.values(conversations().conversations)
    .flatMap(attemptsOf)
    .filter((a) => a.request.bodyMissing === 'missing');
  return loadParts(
    stores.bodies,
    apart.map((a) => a.id),
  );
}

const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));
const putsOf = (prefix: string) => puts.filter((key) => key.startsWith(prefix));

/** The body a request builder would make for this history: every earlier message again. */
function bodyFor(history: string[]): Record<string, unknown> {
  return {
    model: 'claude',
    max_tokens: 1024,
    messages: history.map((text) => ({ role: 'user', content: text })),
  };
}

function attempt(id: string, body: Record<string, unknown>, status: 'streaming' | 'complete'): Attempt {
  return {
    id,
    startedAt: 1,
    request: {
      url: '/v1/messages',
      path: '/messages',
      headers: { 'content-type': 'application/json' },
      body,
    },
    sentHeaders: {},
    turn: { ...emptyTurn, status, text: `Answer of ${id}` },
    httpError: null,
    trace: { ...emptyRecording(), bytes: 10, endedAt: status === 'complete' ? 5 : null },
  };
}

/** A conversation of `answers` question-and-answer pairs, as the session makes them. */
function conversation(id: string, answers: number): Conversation {
  const history: string[] = [];
  const messages: Conversation['messages'] = [];
  for (let i = 1; i <= answers; i++) {
    const question = `Question ${i} of ${id}`;
    history.push(question);
    messages.push({ id: `${id}_q${i}`, role: 'user', text: question, createdAt: 2 * i });
    messages.push({
      id: `${id}_a${i}`,
      role: 'assistant',
      protocol: 'messages',
      model: 'claude',
      source: { kind: 'gateway' },
      createdAt: 2 * i + 1,
      attempts: [attempt(`${id}_att${i}`, bodyFor(history), 'complete')],
    });
  }
  return { id, title: id, createdAt: 1, updatedAt: 2 * answers + 1, messages };
}

/** Puts `conversation` into the stores as this tab's change. */
function put(conversation: Conversation) {
  stores.conversations.setState((s) => ({
    conversations: { ...s.conversations, [conversation.id]: conversation },
    order: s.order.includes(conversation.id) ? s.order : [conversation.id, ...s.order],
  }));
}

const attemptsOf = (c: Conversation | undefined) =>
  c?.messages.flatMap((m) => (m.role === 'assistant' ? m.attempts : [])) ?? [];
const storedRequests = async (id: string) =>
  attemptsOf(await get<Conversation>(`conversation:${id}`, db)).map((a) => a.request);

describe('request bodies', () => {
  it('are kept out of the conversation record, each in a record of its own', async () => {
    stop = startPersisting(db, stores, 1);
    const saved = conversation('conv_a', 2);
    put(saved);
    await finish();
    // The rest of each request stays in the record.
    expect(await storedRequests('conv_a')).toEqual(
      attemptsOf(saved).map(({ request: { body: _, ...rest } }) => rest),
    );
    for (const { id, request } of attemptsOf(saved))
      expect(await get(`request:${id}`, db)).toEqual({ body: request.body });
  });

  it('are written once: the saves of a streaming answer write its conversation only', async () => {
    stop = startPersisting(watching, stores, 1, 60_000);
    const base = conversation('conv_a', 1);
    const history = ['Question 1 of conv_a', 'Answer of conv_a_att1', 'And then?'];
    const streaming = (text: string, status: 'streaming' | 'complete'): Conversation => ({
      ...base,
      messages: [
        ...base.messages,
        { id: 'conv_a_q2', role: 'user', text: 'And then?', createdAt: 10 },
        {
          id: 'conv_a_a2',
          role: 'assistant',
          protocol: 'messages',
          model: 'claude',
          source: { kind: 'gateway' },
          createdAt: 11,
          attempts: [
            {
              ...attempt('conv_a_att2', bodyFor(history), status),
              turn: { ...emptyTurn, status, text },
            },
          ],
        },
      ],
    });
    put(base);
    await tick();
    for (let n = 1; n <= 5; n++) {
      put(streaming('word '.repeat(n), 'streaming'));
      await tick();
    }
    put(streaming('word '.repeat(6), 'complete'));
    await finish();
    expect(putsOf('conversation:conv_a').length).toBeGreaterThanOrEqual(5);
    expect(putsOf('request:')).toEqual(['request:conv_a_att1', 'request:conv_a_att2']);
  });

  it('stay in the database at load, come back into identical attempts when asked for, and are never written again', async () => {
    stop = startPersisting(db, stores, 1);
    put(conversation('conv_a', 3));
    put(conversation('conv_b', 1));
    await tick();
    const saved = conversations().conversations;
    await reload(watching);
    const all = Object.values(conversations().conversations).flatMap(attemptsOf);
    expect(all.map((a) => a.request.bodyMissing)).toEqual(['missing', 'missing', 'missing', 'missing']);
    expect(await askForBodies()).toEqual({});
    expect(conversations().conversations).toEqual(saved);

    conversations().renameConversation('conv_a', 'Renamed');
    await finish();
    expect(putsOf('conversation:')).toEqual(['conversation:conv_a']);
    expect(putsOf('request:')).toEqual([]);
  });

  it('in a record from before load unchanged; that record moves them out when it is next written', async () => {
    const old = conversation('conv_old', 2);
    await set('conversation:conv_old', { ...old, revision: 4 }, db);
    await reload(watching);
    expect(conversations().conversations.conv_old).toEqual(old);
    await tick();
    // Loading rewrites nothing.
    expect(puts).toEqual([]);

    conversations().renameConversation('conv_old', 'Renamed');
    await finish();
    expect((await storedRequests('conv_old')).every((r) => !('body' in r))).toBe(true);
    for (const { id, request } of attemptsOf(old))
      expect(await get(`request:${id}`, db)).toEqual({ body: request.body });
    await reload();
    await askForBodies();
    expect(conversations().conversations.conv_old).toEqual({ ...old, title: 'Renamed' });
  });

  it('go with their conversation when it is deleted', async () => {
    stop = startPersisting(db, stores, 1);
    put(conversation('conv_a', 2));
    put(conversation('conv_b', 1));
    await tick();
    expect(await get('request:conv_a_att1', db)).toBeDefined();
    conversations().deleteConversation('conv_a');
    await finish();
    expect((await keys(db)).filter((k) => String(k).startsWith('request:'))).toEqual(['request:conv_b_att1']);
  });

  it('of a save that fails are written by the save that retries it', async () => {
    let failures = 1;
    const flaky: UseStore = (mode, callback) => {
      if (mode === 'readwrite' && failures > 0) {
        failures--;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return db(mode, callback);
    };
    stop = startPersisting(flaky, stores, 1, 2000, { retryDelayMs: 5 });
    const saved = conversation('conv_a', 2);
    put(saved);
    await expect
      .poll(() => get('request:conv_a_att2', db))
      .toEqual({ body: attemptsOf(saved)[1]!.request.body });
    expect(await get('request:conv_a_att1', db)).toEqual({ body: attemptsOf(saved)[0]!.request.body });
    await reload();
    await askForBodies();
    expect(conversations().conversations.conv_a).toEqual(saved);
  });

  it('not yet stored when the page goes away are kept by the unload journal, those stored are not', async () => {
    stop = startPersisting(db, stores, 1);
    const first = conversation('conv_a', 1);
    put(first);
    await finish();

    // IndexedDB writes started while the page unloads never commit.
    const unloading: UseStore = (mode, callback) =>
      mode === 'readwrite' ? new Promise(() => {}) : db(mode, callback);
    const loaded = await loadState(db, stores);
    stop = startPersisting(unloading, stores, 400, 2000, { loaded });
    const second = conversation('conv_a', 2);
    put(second);
    window.dispatchEvent(new Event('pagehide'));
    stop = null;
    const journal = JSON.parse(sessionStorage.getItem(journalKey)!) as {
      conversations: { record: Conversation }[];
    };
    const [kept] = journal.conversations;
    expect(attemptsOf(kept?.record).map((a) => 'body' in a.request)).toEqual([false, true]);

    await reload();
    // The one the journal kept is here; the one stored before stays there until asked for.
    expect(attemptsOf(conversations().conversations.conv_a).map((a) => a.request.bodyMissing)).toEqual([
      'missing',
      undefined,
    ]);
    await askForBodies();
    expect(conversations().conversations.conv_a).toEqual(second);
    await expect
      .poll(() => get('request:conv_a_att2', db))
      .toEqual({ body: attemptsOf(second)[1]!.request.body });
    await expect.poll(() => sessionStorage.getItem(journalKey)).toBeNull();
  });
});

describe('a request body that cannot be read back', () => {
  it('says so when asked for, lists an unreadable record, and leaves both records as they are', async () => {
    stop = startPersisting(db, stores, 1);
    const saved = conversation('conv_a', 3);
    put(saved);
    await finish();
    await del('request:conv_a_att1', db);
    await set('request:conv_a_att2', { body: 'not a body' }, db);

    await reload(watching);
    expect(await askForBodies()).toEqual({ conv_a_att1: 'missing', conv_a_att2: 'unreadable' });
    const [gone, damaged, kept] = attemptsOf(conversations().conversations.conv_a);
    expect(gone?.request).toMatchObject({ body: {}, bodyMissing: 'missing' });
    expect(damaged?.request).toMatchObject({ body: {}, bodyMissing: 'missing' });
    expect(kept?.request).toEqual(attemptsOf(saved)[2]!.request);
    expect(stores.storage.getState().unreadable).toEqual([
      {
        key: 'request:conv_a_att2',
        what: 'request',
        reason: 'body: expected an object',
        value: { body: 'not a body' },
      },
    ]);

    conversations().renameConversation('conv_a', 'Renamed');
    await finish();
    // The empty body is never stored as the one sent, nor written over the damaged record.
    expect(putsOf('request:')).toEqual([]);
    expect(await get('request:conv_a_att1', db)).toBeUndefined();
    expect(await get('request:conv_a_att2', db)).toEqual({ body: 'not a body' });
    await reload();
    expect(await askForBodies()).toEqual({ conv_a_att1: 'missing', conv_a_att2: 'unreadable' });
    expect(attemptsOf(conversations().conversations.conv_a).map((a) => a.request.bodyMissing)).toEqual([
      'missing',
      'missing',
      undefined,
    ]);
  });
});

describe('a request body this page lacks, asked for (the inspector, a Retry)', () => {
  /** `c` as its record reads without its bodies joined in, as a copy from the team server does. */
  const withoutBodies = (c: Conversation): Conversation => {
    const read = readConversationRecord(`conversation:${c.id}`, recordOf(c));
    if (read.kind !== 'conversation') throw new Error(read.reason);
    return read.conversation;
  };
  const bodiesAsked = () => stores.bodies.getState().loads;
  /** The attempts the team server was asked for, and what it has. */
  let asked: string[];
  let onServer: Map<string, Record<string, unknown>>;

  /** Persists `shown` (taken as what is stored) through `watching`, asking the test's server for bodies. */
  function persistShowing(shown: Conversation) {
    put(shown);
    asked = [];
    stop = startPersisting(watching, stores, 1, 2000, {
      bodiesElsewhere: async (ids) => {
        asked.push(...ids);
        return new Map(ids.flatMap((id) => (onServer.has(id) ? [[id, onServer.get(id)!] as const] : [])));
      },
    });
  }

  beforeEach(() => {
    onServer = new Map();
  });

  it('is read from this browser when it is there (another tab kept it): the server is not asked, nothing is written', async () => {
    const saved = conversation('conv_a', 1);
    await set('request:conv_a_att1', { body: bodyFor(['Question 1 of conv_a']) }, db);
    onServer.set('conv_a_att1', { model: 'not this one' });
    persistShowing(withoutBodies(saved));
    stores.bodies.getState().want('conv_a_att1');
    await expect.poll(bodiesAsked).toEqual({});
    expect(attemptsOf(conversations().conversations.conv_a)[0]!.request).toEqual(
      attemptsOf(saved)[0]!.request,
    );
    expect(asked).toEqual([]);
    await finish();
    expect(puts).toEqual([]);
  });

  it('damaged in this browser: said so and listed, the server not asked', async () => {
    await set('request:conv_a_att1', { body: 'not a body' }, db);
    persistShowing(withoutBodies(conversation('conv_a', 1)));
    stores.bodies.getState().want('conv_a_att1');
    await expect.poll(bodiesAsked).toEqual({ conv_a_att1: 'unreadable' });
    expect(stores.storage.getState().unreadable.map((r) => [r.key, r.what])).toEqual([
      ['request:conv_a_att1', 'request'],
    ]);
    expect(asked).toEqual([]);
    expect(attemptsOf(conversations().conversations.conv_a)[0]!.request.bodyMissing).toBe('missing');
  });

  it('found on the team server: kept here with its conversation’s next record, once, and loaded from here after', async () => {
    const saved = conversation('conv_a', 2);
    onServer.set('conv_a_att2', bodyFor(['Question 1 of conv_a', 'Question 2 of conv_a']));
    persistShowing(withoutBodies(saved));
    stores.bodies.getState().want('conv_a_att2');
    await expect.poll(bodiesAsked).toEqual({});
    expect(asked).toEqual(['conv_a_att2']);
    const [first, second] = attemptsOf(conversations().conversations.conv_a);
    expect(second!.request).toEqual(attemptsOf(saved)[1]!.request);
    expect(first!.request.bodyMissing).toBe('missing');
    await finish();
    expect(putsOf('request:')).toEqual(['request:conv_a_att2']);
    expect(await get('request:conv_a_att2', db)).toEqual({ body: onServer.get('conv_a_att2') });

    // The page after a reload has no server to ask: the body kept here is read from here.
    await reload();
    expect(await askForBodies()).toEqual({ conv_a_att1: 'missing' });
    expect(attemptsOf(conversations().conversations.conv_a).map((a) => a.request.bodyMissing)).toEqual([
      'missing',
      undefined,
    ]);
  });

  it('nowhere: said so, and nothing is written', async () => {
    persistShowing(withoutBodies(conversation('conv_a', 1)));
    stores.bodies.getState().want('conv_a_att1');
    await expect.poll(bodiesAsked).toEqual({ conv_a_att1: 'missing' });
    expect(asked).toEqual(['conv_a_att1']);
    await finish();
    expect(puts).toEqual([]);
  });
});

describe('an answer continued in another tab', () => {
  it('brings its request body along when one tab joins the other’s record', async () => {
    const saved = conversation('conv_a', 1);
    stop = startPersisting(db, stores, 1);
    put(saved);
    await finish();
    // Two tabs that never hear each other: each write joins the other's record in its transaction.
    const tabA = createAppStores();
    const tabB = createAppStores();
    const stopA = startPersisting(db, tabA, 1, 2000, { loaded: await loadState(db, tabA) });
    const stopB = startPersisting(db, tabB, 1, 2000, { loaded: await loadState(db, tabB) });
    const inA = conversation('conv_a', 2);
    tabA.conversations.setState((s) => ({ conversations: { ...s.conversations, conv_a: inA } }));
    await stopA();
    tabB.conversations.getState().renameConversation('conv_a', 'Renamed in B');
    await stopB();
    const joined = tabB.conversations.getState().conversations.conv_a;
    // The new answer's body comes along; the first one's stays in the database until asked for.
    const [first, second] = attemptsOf(joined);
    expect(first?.request.bodyMissing).toBe('missing');
    expect(second).toEqual(attemptsOf(inA)[1]);
    expect(joined?.title).toBe('Renamed in B');
  });
});
