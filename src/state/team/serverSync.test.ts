// @vitest-environment node
import 'fake-indexeddb/auto';
import { createStore, get, type UseStore } from 'idb-keyval';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTeamApiServer, type TeamApiServer } from '../../../server/testing/teamApiServer.ts';
import { answerMessage } from '../../testing/builders.ts';
import { fetchChangeStream } from '../../testing/fetchChangeStream.ts';
import { loadParts } from '../domain/partLoads.ts';
import type { AttachmentRef, Attempt } from '../domain/types.ts';
import { type AttachmentBlobs, memoryAttachments } from '../storage/attachmentBlobs.ts';
import { loadState } from '../storage/load.ts';
import { startPersisting } from '../storage/persistence.ts';
import { attemptsOf } from '../storage/storedConversation.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import { attachmentsWithServer, bodiesFromServer, recordingsFromServer } from './fromServer.ts';
import { readServerRecord, serverRecordOf } from './serverCopies.ts';
import { ServerParts } from './serverParts.ts';
import { ServerSync } from './serverSync.ts';
import { emptyMemory, type SyncMemory, type SyncMemoryStore } from './syncMemory.ts';
import { TeamApi } from './teamApi.ts';

/**
 * Devices of one person, each its own stores and sync, against the real team API (header mode, embedded
 * PostgreSQL): what one does shows on the other, conflicts are joined, nothing is lost offline or when the
 * session ends, and another person's sync hears nothing of it.
 */

let server: TeamApiServer;
beforeAll(async () => {
  server = await startTeamApiServer();
}, 60_000);
afterAll(() => server?.close());

const running: ServerSync[] = [];
/** Persistence started by a test: stopped after it. */
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await Promise.all(running.splice(0).map((sync) => sync.stop()));
});

function memoryInTest(): SyncMemoryStore & { kept: SyncMemory } {
  const store = {
    kept: emptyMemory(),
    read: async () => structuredClone(store.kept),
    write: async (value: SyncMemory) => {
      store.kept = structuredClone(value);
    },
  };
  return store;
}

interface Device {
  stores: AppStores;
  sync: ServerSync;
  memory: ReturnType<typeof memoryInTest>;
  /** Whether the device reaches the server (false: every request fails as offline). */
  online: { value: boolean };
  /** Whether the server still knows the device's session. */
  session: { value: boolean };
  /** Its attached files: its own, else the server's. */
  files: AttachmentBlobs;
  api: TeamApi;
  /** The paths this device wrote to (PUT). */
  writes: string[];
  /** How many conversations each of its reads of records asked for. */
  recordReads: number[];
  /** The path of every request it made, in order. */
  asked: string[];
}

function device(
  email: string,
  {
    stores = createAppStores(),
    memory = memoryInTest(),
  }: { stores?: AppStores; memory?: Device['memory'] } = {},
): Device {
  const online = { value: true };
  const session = { value: true };
  const reach = server.fetchAs(email);
  const writes: string[] = [];
  const recordReads: number[] = [];
  const asked: string[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    if (!online.value) throw new TypeError('Failed to fetch');
    const url = new URL(String(input), 'http://here');
    asked.push(url.pathname);
    if (init?.method === 'PUT') writes.push(url.pathname);
    if (url.pathname === '/api/conversation-records') recordReads.push(url.searchParams.getAll('id').length);
    if (!session.value) return Response.json({ error: 'Not signed in.', mode: 'header' }, { status: 401 });
    return reach(input, init);
  };
  if (!stores.conversations.getState().hydrated) stores.conversations.getState().hydrate([], null);
  const api = new TeamApi(fetchFn);
  const files = memoryAttachments();
  const sync = new ServerSync({
    conversations: stores.conversations,
    settings: stores.settings,
    team: stores.team,
    api,
    memory,
    openStream: fetchChangeStream(fetchFn),
    delayMs: 20,
    retryMs: 50,
    parts: new ServerParts(api, {
      attachment: (id) => files.get(id),
      recordingKeptApart: async () => undefined,
      bodyKeptApart: async () => undefined,
    }),
  });
  running.push(sync);
  return {
    stores,
    sync,
    memory,
    online,
    session,
    files: attachmentsWithServer(files, api),
    api,
    writes,
    recordReads,
    asked,
  };
}

/**
 * A conversation on `d` asking `question` (with `attachments`), answered with a recording by `answerId`
 * (its attempt `<answerId>_att`), whose request sent `body`. Returns its id.
 */
function answered(
  d: Device,
  question: string,
  answerId: string,
  body: Record<string, unknown>,
  attachments: AttachmentRef[] = [],
): string {
  const store = d.stores.conversations.getState();
  const id = store.newConversation(question);
  store.addUserMessage(id, question, attachments);
  const answer = answerMessage(
    answerId,
    { status: 'complete', text: 'Geirangerfjord.' },
    {
      bytes: 42,
      items: [{ kind: 'event', t: 1, event: 'message', data: '{"text":"Geirangerfjord."}' }],
      raw: 'data: {"text":"Geirangerfjord."}\n\n',
    },
  );
  const conversation = d.stores.conversations.getState().conversations[id]!;
  store.takeStored([
    {
      ...conversation,
      messages: [
        ...conversation.messages,
        {
          ...answer,
          parentId: conversation.messages[0]!.id,
          attempts: answer.attempts.map((a) => ({ ...a, request: { ...a.request, body } })),
        },
      ],
    },
  ]);
  return id;
}

/** The attempt `attemptId` as `stores` hold it. */
function attemptIn(stores: AppStores, attemptId: string): Attempt | undefined {
  return Object.values(stores.conversations.getState().conversations)
    .flatMap(attemptsOf)
    .find((a) => a.id === attemptId);
}

/**
 * Starts `d`'s persistence in a database of its own, with the team server as where bodies it lacks are
 * (counting the attempts it asks the server for), as the app does.
 */
function persisting(d: Device): { db: UseStore; asked: string[] } {
  const db = createStore(`hopbase-sync-${crypto.randomUUID()}`, 'state');
  const asked: string[] = [];
  const fromServer = bodiesFromServer(d.api);
  stops.push(
    startPersisting(db, d.stores, 5, 2000, {
      bodiesElsewhere: (ids) => {
        asked.push(...ids);
        return fromServer(ids);
      },
    }),
  );
  return { db, asked };
}

const titles = (d: Device) =>
  Object.values(d.stores.conversations.getState().conversations)
    .map((c) => c.title)
    .sort();

async function live(...devices: Device[]) {
  await Promise.all(devices.map((d) => d.sync.start()));
  await expect.poll(() => devices.every((d) => d.stores.team.getState().connection === 'live')).toBe(true);
}

describe('two devices of one person', () => {
  it('see each other’s new conversations, renames and deletions, without a reload', async () => {
    const phone = device('ann@example.test');
    const laptop = device('ann@example.test');
    await live(phone, laptop);
    const id = phone.stores.conversations.getState().newConversation('Trip to Oslo');
    phone.stores.conversations.getState().addUserMessage(id, 'Which museums open on Mondays?');
    await expect
      .poll(() => laptop.stores.conversations.getState().conversations[id]?.messages.length)
      .toBe(1);
    expect(titles(laptop)).toEqual(['Trip to Oslo']);

    laptop.stores.conversations.getState().renameConversation(id, 'Oslo in May');
    await expect
      .poll(() => phone.stores.conversations.getState().conversations[id]?.title)
      .toBe('Oslo in May');

    phone.stores.conversations.getState().deleteConversation(id);
    await expect.poll(() => laptop.stores.conversations.getState().conversations[id]).toBeUndefined();
    expect(await phone.sync.flush()).toBe(0);
  });

  it('join edits both made before hearing of the other’s: a rename here, a message there', async () => {
    const phone = device('bo@example.test');
    const laptop = device('bo@example.test');
    await live(phone, laptop);
    const id = phone.stores.conversations.getState().newConversation('Draft');
    await expect.poll(() => laptop.stores.conversations.getState().conversations[id]?.title).toBe('Draft');

    phone.online.value = false;
    laptop.online.value = false;
    phone.stores.conversations.getState().renameConversation(id, 'Budget 2027');
    laptop.stores.conversations.getState().addUserMessage(id, 'Add the travel costs');
    phone.online.value = true;
    laptop.online.value = true;
    await Promise.all([phone.sync.flush(), laptop.sync.flush()]);
    for (const d of [phone, laptop]) {
      await expect.poll(() => d.stores.conversations.getState().conversations[id]?.title).toBe('Budget 2027');
      await expect
        .poll(() => d.stores.conversations.getState().conversations[id]?.messages.map((m) => m.role))
        .toEqual(['user']);
    }
    expect(await readApi('bo@example.test', `/api/conversations/${id}`)).toMatchObject({
      deleted: false,
      title: 'Budget 2027',
    });
  });

  it('keeps what was changed offline, across a reload, and sends it when the server is back', async () => {
    const stores = createAppStores();
    const first = device('cy@example.test', { stores });
    const other = device('cy@example.test');
    await live(first, other);
    first.online.value = false;
    const id = stores.conversations.getState().newConversation('Written on the train');
    await expect.poll(() => stores.team.getState().connection).toBe('offline');
    await first.sync.flush();
    expect(stores.team.getState().pending).toBe(1);
    await first.sync.stop();

    // The page is reloaded once the connection is back: the same stores (as IndexedDB gives them back) and memory.
    const again = device('cy@example.test', { stores, memory: first.memory });
    await again.sync.start();
    await expect
      .poll(() => other.stores.conversations.getState().conversations[id]?.title)
      .toBe('Written on the train');
    await expect.poll(() => stores.team.getState().pending).toBe(0);
  });

  it('catch up on what changed while away: a deletion, a rename and a new conversation', async () => {
    const phone = device('gus@example.test');
    const laptop = device('gus@example.test');
    await live(phone, laptop);
    const state = () => phone.stores.conversations.getState();
    const [gone, kept] = ['Old plans', 'Reading list'].map((title) => state().newConversation(title));
    await expect.poll(() => titles(laptop).length).toBe(2);
    await laptop.sync.stop();

    state().deleteConversation(gone!);
    state().renameConversation(kept!, 'Reading list 2027');
    const added = state().newConversation('Garden');
    expect(await phone.sync.flush()).toBe(0);

    // The laptop opens again: what it missed comes as one page of changes.
    const again = device('gus@example.test', { stores: laptop.stores, memory: laptop.memory });
    await again.sync.start();
    await expect.poll(() => titles(again)).toEqual(['Garden', 'Reading list 2027']);
    expect(again.stores.conversations.getState().conversations[gone!]).toBeUndefined();
    expect(again.stores.conversations.getState().conversations[added]?.title).toBe('Garden');
  });

  it('write nothing back when a long history’s cache reads its older conversations after the first screen', async () => {
    const laptop = device('flo@example.test');
    await live(laptop);
    const state = () => laptop.stores.conversations.getState();
    const ids = ['One', 'Two', 'Three'].map((title) => state().newConversation(title));
    await expect.poll(() => laptop.sync.flush()).toBe(0);
    await laptop.sync.stop();

    // Reloaded: the first screen holds the newest; the cache gives the other two once it is up.
    const [newest, ...older] = ids.reverse().map((id) => state().conversations[id]!);
    const stores = createAppStores();
    stores.conversations.getState().hydrate([newest!], newest!.id);
    const again = device('flo@example.test', { stores, memory: laptop.memory });
    await live(again);
    stores.conversations.getState().takeStored(older, [], 'byDate');
    stores.conversations.getState().renameConversation(newest!.id, 'One, renamed');
    await again.sync.flush();
    expect(again.writes.filter((path) => path.includes('/conversations/'))).toEqual([
      `/api/conversations/${newest!.id}`,
    ]);
    expect(stores.conversations.getState().order).toEqual(ids);
  });

  it('stops when the session ends, losing nothing, and goes on after signing in again', async () => {
    const phone = device('di@example.test');
    const laptop = device('di@example.test');
    await live(phone, laptop);
    phone.session.value = false;
    const id = phone.stores.conversations.getState().newConversation('Notes after sign-out');
    await expect.poll(() => phone.stores.team.getState().connection).toBe('signed-out');
    expect(phone.stores.conversations.getState().conversations[id]?.title).toBe('Notes after sign-out');
    expect(laptop.stores.conversations.getState().conversations[id]).toBeUndefined();

    await phone.sync.stop();
    phone.session.value = true;
    const signedIn = device('di@example.test', { stores: phone.stores, memory: phone.memory });
    phone.stores.team.getState().signedIn({ mode: 'team', auth: 'header', person: null });
    await signedIn.sync.start();
    await expect
      .poll(() => laptop.stores.conversations.getState().conversations[id]?.title)
      .toBe('Notes after sign-out');
  });

  it('share settings, but never the gateway key', async () => {
    const phone = device('ed@example.test');
    const laptop = device('ed@example.test');
    await live(phone, laptop);
    phone.stores.settings.getState().update({ systemPrompt: 'Answer in French.', apiKey: 'sk-phone-only' });
    await expect
      .poll(() => laptop.stores.settings.getState().settings.systemPrompt)
      .toBe('Answer in French.');
    expect(laptop.stores.settings.getState().settings.apiKey).toBe('');
    const stored = await readApi('ed@example.test', '/api/settings');
    expect(stored).toMatchObject({ document: { systemPrompt: 'Answer in French.' } });
    expect(JSON.stringify(stored)).not.toContain('sk-phone-only');
  });

  it('upload what a browser kept before signing in once, however often it is offered', async () => {
    const kept = createAppStores();
    kept.conversations.getState().hydrate([], null);
    const id = kept.conversations.getState().newConversation('From before team mode');
    kept.conversations.getState().addUserMessage(id, 'Hello');
    const record = kept.conversations.getState().conversations[id]!;
    const laptop = device('fay@example.test');
    await live(laptop);
    // Two browsers hold the same history (a backup restored on both) and both add it.
    for (const browser of [device('fay@example.test'), device('fay@example.test')]) {
      browser.stores.conversations.getState().takeStored([record]);
      await browser.sync.start();
      expect(await browser.sync.flush()).toBe(0);
    }
    await expect.poll(() => titles(laptop)).toEqual(['From before team mode']);
    const listed = (await readApi('fay@example.test', '/api/conversations')) as { items: { id: string }[] };
    expect(listed.items.map((c) => c.id)).toEqual([id]);
  });
});

describe('what a record leaves out', () => {
  it('reaches the other device: a file attached on one, an answer’s recording and request body', async () => {
    const phone = device('hal@example.test');
    const laptop = device('hal@example.test');
    await live(phone, laptop);
    const ref = {
      id: 'att_photo1',
      name: 'fjord.png',
      mimeType: 'image/png',
      size: 4,
      kind: 'image' as const,
    };
    await phone.files.put([
      { ref, blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }) },
    ]);
    const id = answered(phone, 'What fjord is this?', 'msg_fjord', { model: 'sim-echo' }, [ref]);
    expect(await phone.sync.flush()).toBe(0);
    await expect
      .poll(() => laptop.stores.conversations.getState().conversations[id]?.messages.length)
      .toBe(2);

    const photo = await laptop.files.get('att_photo1');
    expect(new Uint8Array(await photo!.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    const recordings = await recordingsFromServer(laptop.api)(['msg_fjord_att', 'att_nowhere']);
    expect([...recordings.keys()]).toEqual(['msg_fjord_att']);
    expect(recordings.get('msg_fjord_att')?.raw).toContain('Geirangerfjord');
    expect(await laptop.api.attemptRecord('requests', 'msg_fjord_att')).toEqual({
      body: { model: 'sim-echo' },
    });
  });
});

describe('a request body sent from another device', () => {
  it('is read from the server when this one asks for it, once, and kept here; another person gets none', async () => {
    const laptop = device('ivo@example.test');
    const phone = device('ivo@example.test');
    await live(laptop, phone);
    const body = { model: 'sim-echo', messages: [{ role: 'user', content: 'Ferries from Bergen?' }] };
    const id = answered(laptop, 'Ferries from Bergen?', 'msg_ferries', body);
    expect(await laptop.sync.flush()).toBe(0);
    const attemptId = 'msg_ferries_att';
    // The phone reads the conversation without its bodies.
    await expect.poll(() => attemptIn(phone.stores, attemptId)?.request.bodyMissing).toBe('missing');

    const { db, asked } = persisting(phone);
    expect(await loadParts(phone.stores.bodies, [attemptId])).toEqual({});
    expect(attemptIn(phone.stores, attemptId)?.request).toMatchObject({ body });
    expect(attemptIn(phone.stores, attemptId)?.request.bodyMissing).toBeUndefined();
    expect(asked).toEqual([attemptId]);
    // Kept in this browser's database: after a reload it is read from there, the server not asked again.
    await expect.poll(() => get(`request:${attemptId}`, db)).toEqual({ body });
    await Promise.all(stops.splice(0).map((stop) => stop()));
    const reloaded = createAppStores();
    const loaded = await loadState(db, reloaded);
    const askedAgain: string[] = [];
    stops.push(
      startPersisting(db, reloaded, 5, 2000, {
        loaded,
        bodiesElsewhere: async (ids) => {
          askedAgain.push(...ids);
          return new Map();
        },
      }),
    );
    expect(await loadParts(reloaded.bodies, [attemptId])).toEqual({});
    expect(attemptIn(reloaded, attemptId)?.request).toMatchObject({ body });
    expect(attemptIn(reloaded, attemptId)?.request.bodyMissing).toBeUndefined();
    expect(askedAgain).toEqual([]);

    // Another person, her own conversation under the same ids, asks for it: the server has none of hers.
    const mallory = device('mel@example.test');
    await live(mallory);
    // As the server gives a record: without its bodies.
    const copy = readServerRecord(
      id,
      serverRecordOf(laptop.stores.conversations.getState().conversations[id]!),
    );
    if ('unreadable' in copy) throw new Error(copy.unreadable);
    mallory.stores.conversations.getState().takeStored([copy]);
    const theirs = persisting(mallory);
    expect(await loadParts(mallory.stores.bodies, [attemptId])).toEqual({ [attemptId]: 'missing' });
    expect(theirs.asked).toEqual([attemptId]);
    expect(attemptIn(mallory.stores, attemptId)?.request.bodyMissing).toBe('missing');
    expect(await bodiesFromServer(mallory.api)([attemptId])).toEqual(new Map());
  });
});

/** `email`'s conversations titled `titles` (oldest first), written to the server from another device. */
async function onTheServer(email: string, titles: readonly string[], prefix: string): Promise<void> {
  const laptop = device(email);
  await live(laptop);
  const at = Date.now();
  laptop.stores.conversations.getState().takeStored(
    titles.map((title, i) => ({
      id: `${prefix}${i}`,
      title,
      createdAt: at + i,
      updatedAt: at + i,
      messages: [],
    })),
  );
  expect(await laptop.sync.flush()).toBe(0);
}

/** The titles `d`'s sidebar lists, in its order. */
function listed(d: Device): () => (string | undefined)[] {
  return () => {
    const { order, conversations } = d.stores.conversations.getState();
    return order.map((id) => conversations[id]?.title);
  };
}

describe('a new device', () => {
  it('reads a screenful of the newest first, then the rest of its first screen, listed newest first', async () => {
    const titles = Array.from({ length: 30 }, (_, i) => `Conversation ${i}`);
    await onTheServer('eve@example.test', titles, 'conv_many');
    const phone = device('eve@example.test');
    await live(phone);
    await expect.poll(listed(phone)).toEqual(titles.toReversed());
    expect(phone.recordReads).toEqual([25, 5]);
  });

  it('asks for its first screen (the page, then its records) while it still reads what the sync remembers', async () => {
    await onTheServer('fay@example.test', ['Fay'], 'conv_fay');

    let release = () => {};
    const memory = memoryInTest();
    const read = memory.read;
    memory.read = () =>
      new Promise((resolve) => (release = () => resolve(read()))) as ReturnType<typeof read>;
    const phone = device('fay@example.test', { memory });
    const started = phone.sync.start();
    await expect.poll(() => phone.asked).toEqual(['/api/conversations', '/api/conversation-records']);
    release();
    await started;
    await expect.poll(() => phone.stores.conversations.getState().conversations.conv_fay0?.title).toBe('Fay');
    // Read once: not asked again once the memory was read.
    expect(phone.recordReads).toHaveLength(1);
  });

  it('lists what it reads from the server newest first, as a reload of its cache would', async () => {
    await onTheServer('dee@example.test', ['Oldest', 'Middle', 'Newest'], 'conv_order');
    const phone = device('dee@example.test');
    await live(phone);
    await expect.poll(listed(phone)).toEqual(['Newest', 'Middle', 'Oldest']);
  });
});

describe('another person', () => {
  it('hears and reads nothing of the first one’s conversations', async () => {
    const ann = device('gil@example.test');
    const mallory = device('mallory@example.test');
    await live(ann, mallory);
    const id = ann.stores.conversations.getState().newConversation('Salary review');
    expect(await ann.sync.flush()).toBe(0);
    // Mallory's own conversation under Ann's id is hers alone.
    mallory.stores.conversations
      .getState()
      .takeStored([{ ...ann.stores.conversations.getState().conversations[id]!, title: 'Mallory’s copy' }]);
    expect(await mallory.sync.flush()).toBe(0);
    ann.stores.conversations.getState().renameConversation(id, 'Salary review 2027');
    expect(await ann.sync.flush()).toBe(0);
    await expect.poll(() => titles(ann)).toEqual(['Salary review 2027']);
    expect(titles(mallory)).toEqual(['Mallory’s copy']);
  });
});

/** What the server holds, read as the person. */
async function readApi(email: string, path: string): Promise<unknown> {
  return (await server.fetchAs(email)(path)).json();
}
