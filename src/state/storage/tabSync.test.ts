import 'fake-indexeddb/auto';
import { createStore, get, keys, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { AssistantMessage, Attempt, Conversation } from '../domain/types.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import type { ChangeFeed, FeedEvent, StoredChange } from './changeFeed.ts';
import { type LoadedState, loadState } from './load.ts';
import { startPersisting } from './persistence.ts';
import { storedRecording } from './recordingReads.ts';
import { type TabChannel, tabFeed } from './tabSync.ts';

/**
 * Two tabs of the app: two store sets sharing one database and, unless a test cuts it, one
 * BroadcastChannel name (Node 20 has BroadcastChannel; each tab holds its own channel object).
 */
interface Tab {
  stores: AppStores;
  loaded: LoadedState;
  stop: (() => Promise<void>) | null;
  /** Messages this tab posted. */
  posted: unknown[];
}

let dbCount = 0;
let db: UseStore;
let channelName: string;
let tabs: Tab[] = [];

beforeEach(() => {
  db = createStore(`hopbase-tabs-${++dbCount}`, 'state');
  channelName = `hopbase-tabs-${dbCount}`;
  sessionStorage.clear();
});

afterEach(async () => {
  for (const tab of tabs) await tab.stop?.();
  tabs = [];
});

function countingChannel(posted: unknown[]): TabChannel {
  const channel = new BroadcastChannel(channelName);
  return {
    postMessage(message) {
      posted.push(message);
      channel.postMessage(message);
    },
    addEventListener: (type, listener) => channel.addEventListener(type, listener as EventListener),
    removeEventListener: (type, listener) => channel.removeEventListener(type, listener as EventListener),
    close: () => channel.close(),
  };
}

/** Opens a tab: loads what is stored and starts persisting; `linked: false` leaves it deaf and mute. */
async function openTab(linked = true, delayMs = 20): Promise<Tab> {
  const posted: unknown[] = [];
  return openTabOn(linked ? tabFeed(countingChannel(posted)) : null, posted, delayMs);
}

async function openTabOn(feed: ChangeFeed | null, posted: unknown[] = [], delayMs = 20): Promise<Tab> {
  const stores = createAppStores();
  const loaded = await loadState(db, stores);
  const tab: Tab = {
    stores,
    loaded,
    posted,
    stop: startPersisting(db, stores, delayMs, 2000, { loaded, feed }),
  };
  tabs.push(tab);
  return tab;
}

async function close(tab: Tab) {
  await tab.stop?.();
  tab.stop = null;
  await keys(db);
}

const state = (tab: Tab) => tab.stores.conversations.getState();
const texts = (conversation: Conversation | undefined) =>
  conversation?.messages.map((m) => (m.role === 'user' ? m.text : m.role)) ?? [];

async function settled() {
  for (const tab of tabs) await tab.stop?.();
  for (const tab of tabs) tab.stop = null;
  await keys(db);
}

/** What a fresh tab loads from the database. */
async function reopened() {
  const stores = createAppStores();
  await loadState(db, stores);
  return stores.conversations.getState();
}

function attempt(id: string, text: string, status: 'streaming' | 'complete', items = 0): Attempt {
  return {
    id,
    startedAt: 1,
    request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
    sentHeaders: {},
    httpError: null,
    turn: { ...emptyTurn, status, text },
    trace: {
      ...emptyRecording(),
      bytes: items * 10,
      endedAt: status === 'complete' ? 5 : null,
      items: Array.from({ length: items }, (_, t) => ({
        t,
        kind: 'event' as const,
        event: 'message',
        data: `{"n":${t}}`,
      })),
      raw: 'data: {}\n\n'.repeat(items),
    },
  };
}

describe('changes from elsewhere, through any change feed', () => {
  /** A feed the test speaks for, as the team server's will: it says what was stored, or that some was missed. */
  function handFeed() {
    const listeners = new Set<(event: FeedEvent) => void>();
    const announced: StoredChange[] = [];
    const feed: ChangeFeed = {
      announce: (change) => announced.push(change) > 0,
      listen(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: () => listeners.clear(),
    };
    const tell = (event: FeedEvent) => {
      for (const listener of listeners) listener(event);
    };
    return { feed, announced, tell };
  }

  it('reads what the feed says was stored, everything when it says some was missed, and announces its own', async () => {
    const { feed, announced, tell } = handFeed();
    const here = await openTabOn(feed);
    // Another device or tab writes, and the feed has not said so yet.
    const elsewhere = await openTab(false);
    const first = state(elsewhere).newConversation();
    state(elsewhere).addUserMessage(first, 'One');
    const second = state(elsewhere).newConversation();
    state(elsewhere).addUserMessage(second, 'Two');
    await close(elsewhere);
    expect(state(here).conversations[first]).toBeUndefined();

    tell({ kind: 'stored', change: { conversations: [{ id: first, revision: 1_000 }], settings: false } });
    await expect.poll(() => texts(state(here).conversations[first])).toEqual(['One']);
    expect(state(here).conversations[second]).toBeUndefined();

    tell({ kind: 'missed' });
    await expect.poll(() => texts(state(here).conversations[second])).toEqual(['Two']);

    state(here).addUserMessage(first, 'Three');
    await expect
      .poll(() => announced.flatMap((change) => change.conversations.map((c) => c.id)))
      .toContain(first);
  });
});

describe('two tabs', () => {
  it('see each other’s new conversations and messages', async () => {
    const a = await openTab();
    const b = await openTab();
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'From A');
    await expect.poll(() => texts(state(b).conversations[id])).toEqual(['From A']);
    expect(state(b).order).toEqual([id]);

    state(b).selectConversation(id);
    state(b).addUserMessage(id, 'From B');
    await expect.poll(() => texts(state(a).conversations[id])).toEqual(['From A', 'From B']);
    await settled();
    expect(texts((await reopened()).conversations[id])).toEqual(['From A', 'From B']);
  });

  it('never lose a message both sent into one conversation at the same moment', async () => {
    const seed = await openTab();
    const id = state(seed).newConversation();
    state(seed).addUserMessage(id, 'Start');
    await close(seed);

    // Neither hears the other: each writes a copy made before the other's message.
    const a = await openTab(false);
    const b = await openTab(false);
    state(a).addUserMessage(id, 'From A');
    state(b).addUserMessage(id, 'From B');
    await settled();
    expect(texts((await reopened()).conversations[id]).sort()).toEqual(['From A', 'From B', 'Start']);
    // Each tab joined the other's message into its own copy when it wrote.
    expect(texts(state(b).conversations[id]).sort()).toEqual(['From A', 'From B', 'Start']);
  });

  it('keep a deleted conversation deleted, even when the other tab writes its older copy', async () => {
    const seed = await openTab();
    const keep = state(seed).newConversation();
    state(seed).addUserMessage(keep, 'Keep');
    const gone = state(seed).newConversation();
    state(seed).addUserMessage(gone, 'Gone');
    await close(seed);

    const a = await openTab(false);
    const b = await openTab(false);
    state(a).deleteConversation(gone);
    await close(a);
    // B still shows it and keeps working in it: B learns it was deleted when it writes.
    state(b).addUserMessage(gone, 'Too late');
    state(b).renameConversation(keep, 'Renamed in B');
    await settled();
    const after = await reopened();
    expect(after.order).toEqual([keep]);
    expect(after.conversations[keep]?.title).toBe('Renamed in B');
    expect(state(b).conversations[gone]).toBeUndefined();
    expect(await get(`conversation:${gone}`, db)).toBeUndefined();
  });

  it('remove a conversation deleted in the other tab, and stop there', async () => {
    const a = await openTab();
    const b = await openTab();
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'Soon gone');
    await expect.poll(() => state(b).order).toEqual([id]);
    state(b).selectConversation(id);
    state(a).deleteConversation(id);
    await expect.poll(() => state(b).order).toEqual([]);
    expect(state(b).activeId).toBeNull();
    await settled();
    expect((await reopened()).order).toEqual([]);
  });

  it('take in a rename from the other tab without undoing their own changes', async () => {
    const a = await openTab();
    const b = await openTab();
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'Hello');
    await expect.poll(() => state(b).conversations[id]?.title).toBe('Hello');
    state(a).renameConversation(id, 'Renamed in A');
    await expect.poll(() => state(b).conversations[id]?.title).toBe('Renamed in A');
    expect(texts(state(b).conversations[id])).toEqual(['Hello']);
  });

  it('keep both tabs’ settings changes, and show each the other’s', async () => {
    const a = await openTab(false);
    const b = await openTab(false);
    a.stores.settings.getState().update({ model: 'gpt-from-a' });
    b.stores.settings.getState().update({ systemPrompt: 'From B' });
    await settled();
    expect(await get('settings', db)).toEqual({ model: 'gpt-from-a', systemPrompt: 'From B' });

    const c = await openTab();
    const d = await openTab();
    c.stores.settings.getState().update({ temperature: 0.2 });
    await expect.poll(() => d.stores.settings.getState().settings.temperature).toBe(0.2);
    expect(d.stores.settings.getState().settings).toMatchObject({
      model: 'gpt-from-a',
      systemPrompt: 'From B',
    });
  });

  it('keep each tab’s own API key unless it is remembered in the browser', async () => {
    const a = await openTab();
    const b = await openTab();
    a.stores.settings.getState().update({ apiKey: 'sk-a' });
    b.stores.settings.getState().update({ apiKey: 'sk-b', model: 'gpt-b' });
    await expect.poll(() => a.stores.settings.getState().settings.model).toBe('gpt-b');
    expect(a.stores.settings.getState().settings.apiKey).toBe('sk-a');
    a.stores.settings.getState().update({ apiKey: 'sk-shared', rememberKey: true });
    await expect.poll(() => b.stores.settings.getState().settings.apiKey).toBe('sk-shared');
  });

  it('do not flood the channel or the database while an answer streams', async () => {
    const a = await openTab(true, 40);
    const b = await openTab(true, 40);
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'Stream please');
    const messageId = state(a).addAssistantMessage(id, 'chat', 'm');
    state(a).addAttempt(id, messageId, attempt('att_1', '', 'streaming'));
    await expect.poll(() => state(b).conversations[id]?.messages.length).toBe(2);
    const postedBefore = a.posted.length;

    // 120 frames in about 240 ms: with a 40 ms debounce, a handful of saves and messages, not 120.
    for (let frame = 1; frame <= 120; frame++) {
      state(a).updateAttempt(id, messageId, 'att_1', (x) => ({
        ...x,
        turn: { ...x.turn, text: `${x.turn.text}w${frame} ` },
      }));
      if (frame % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    state(a).updateAttempt(id, messageId, 'att_1', (x) => ({
      ...x,
      turn: { ...x.turn, status: 'complete' },
    }));
    const final = (state(a).conversations[id]!.messages[1] as AssistantMessage).attempts[0]!.turn.text;
    await expect
      .poll(
        () => (state(b).conversations[id]?.messages[1] as AssistantMessage | undefined)?.attempts[0]?.turn,
      )
      .toMatchObject({ status: 'complete', text: final });
    const messages = a.posted.length - postedBefore;
    expect(messages).toBeGreaterThan(0);
    expect(messages).toBeLessThanOrEqual(12);
    expect(b.posted).toEqual([]);
  });

  it('show the other tab’s finished recordings when the inspector asks, and never write them back', async () => {
    const a = await openTab();
    const b = await openTab();
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'Record this');
    const messageId = state(a).addAssistantMessage(id, 'chat', 'm');
    state(a).addAttempt(id, messageId, attempt('att_rec', 'Done', 'complete', 3));
    const inB = () => (state(b).conversations[id]?.messages[1] as AssistantMessage | undefined)?.attempts[0];
    // B has the answer and its figures; the events stay in the database until asked for.
    await expect.poll(() => inB()?.turn.status).toBe('complete');
    expect(inB()?.trace.items).toEqual([]);
    b.stores.recordings.getState().want('att_rec');
    await expect.poll(() => inB()?.trace.items.length).toBe(3);
    // B changes the conversation; A's recording in the database stays A's.
    state(b).renameConversation(id, 'Renamed');
    await settled();
    expect((await storedRecording(db, 'att_rec'))?.items).toHaveLength(3);
    expect(b.posted).toHaveLength(1);
  });

  it('see the exact request body of the other tab’s answer, read with its record, and never write it back', async () => {
    const a = await openTab();
    const b = await openTab();
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'Send this');
    const messageId = state(a).addAssistantMessage(id, 'chat', 'm');
    const sent = attempt('att_sent', 'Sent', 'complete');
    const body = { model: 'm', messages: [{ role: 'user', content: 'Send this' }], stream: true };
    state(a).addAttempt(id, messageId, { ...sent, request: { ...sent.request, body } });
    const inB = () => (state(b).conversations[id]?.messages[1] as AssistantMessage | undefined)?.attempts[0];
    await expect.poll(() => inB()?.request).toEqual({ ...sent.request, body });
    expect(inB()?.request).not.toHaveProperty('bodyMissing');
    await expect.poll(() => get(`request:att_sent`, db)).toEqual({ body });
    // B changes the conversation: A's body is not written again.
    const bodyWrites: string[] = [];
    const original = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (String(key).startsWith('request:')) bodyWrites.push(String(key));
      return original.call(this, value, key);
    };
    try {
      state(b).renameConversation(id, 'Renamed in B');
      await settled();
    } finally {
      IDBObjectStore.prototype.put = original;
    }
    expect(bodyWrites).toEqual([]);
    expect((await reopened()).conversations[id]?.title).toBe('Renamed in B');
  });

  it('an answer streaming in one tab is never marked interrupted by the other tab’s writes', async () => {
    const a = await openTab();
    const id = state(a).newConversation();
    state(a).addUserMessage(id, 'Long one');
    const messageId = state(a).addAssistantMessage(id, 'chat', 'm');
    state(a).addAttempt(id, messageId, attempt('att_live', 'Partial', 'streaming', 2));
    await expect.poll(() => get(`conversation:${id}`, db)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 40));

    // B opens while A streams: it shows the answer as interrupted (it cannot know better) until A writes.
    const b = await openTab();
    state(b).renameConversation(id, 'Renamed in B');
    await expect
      .poll(async () => (await get<Conversation>(`conversation:${id}`, db))?.title)
      .toBe('Renamed in B');
    state(a).updateAttempt(id, messageId, 'att_live', (x) => ({
      ...x,
      turn: { ...x.turn, text: 'Partial and more', status: 'complete' },
      trace: { ...x.trace, bytes: 40, endedAt: 9 },
    }));
    await settled();
    const stored = (await reopened()).conversations[id]!;
    expect(stored.title).toBe('Renamed in B');
    expect((stored.messages[1] as AssistantMessage).attempts[0]!.turn).toMatchObject({
      status: 'complete',
      text: 'Partial and more',
    });
  });
});
