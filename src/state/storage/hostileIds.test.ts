import 'fake-indexeddb/auto';
import { createStore, entries, keys, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { mergeConversation } from '../domain/merge.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import { readBackup, restoreBackup } from '../formats/backup.ts';
import { backupFormat, backupVersion } from '../formats/backupSchema.ts';
import { readSettingsRecord } from '../formats/records.ts';
import { type AppStores, createAppStores } from '../stores/appStores.ts';
import { loadState } from './load.ts';
import { startPersisting } from './persistence.ts';
import { tabFeed } from './tabSync.ts';

/**
 * Ids come from files and other tabs: one that is also the name of an object's built-in property
 * (`__proto__`, `constructor`, `toString`) is an id like any other, stored, shown, updated and deleted.
 */
const hostile = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;

function attempt(id: string, text: string, startedAt = 3): Attempt {
  return {
    id,
    startedAt,
    request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
    sentHeaders: {},
    httpError: null,
    turn: { ...emptyTurn, status: 'complete', text },
    trace: {
      ...emptyRecording(),
      bytes: 10,
      endedAt: 5,
      items: [{ t: 1, kind: 'event', event: 'message', data: `{"text":"${text}"}` }],
      raw: 'data: {}\n\n',
    },
  };
}

/** A conversation whose own id, its messages' and attempts' ids, and its fork's key are all `id`. */
function conversation(id: string, updatedAt: number): Conversation {
  return {
    id,
    title: `Called ${id}`,
    createdAt: 1,
    updatedAt,
    messages: [
      { id, role: 'user', text: `Ask ${id}`, createdAt: 1, parentId: null },
      {
        id: `${id}-answer`,
        role: 'assistant',
        protocol: 'chat',
        model: 'm',
        source: { kind: 'gateway' },
        createdAt: 2,
        parentId: id,
        attempts: [attempt(id, `Answer ${id}`)],
      },
    ],
    selected: { [id]: `${id}-answer` },
  };
}

function backupText(conversations: Conversation[]): string {
  return JSON.stringify({
    format: backupFormat,
    version: backupVersion,
    createdAt: '2025-01-01T00:00:00.000Z',
    app: { name: 'hopbase-chat', version: '0' },
    conversations,
    attachments: [],
  });
}

describe('ids named like built-in properties, in the conversation store', () => {
  it('are conversations like any other: taken from elsewhere, shown, changed and deleted', () => {
    const stores = createAppStores();
    const state = () => stores.conversations.getState();
    state().hydrate([], null);
    expect(state().conversations.toString).toBeUndefined();
    expect(state().conversations.constructor).toBeUndefined();

    state().takeStored(hostile.map((id, i) => conversation(id, 10 + i)));
    expect([...state().order].sort()).toEqual([...hostile].sort());
    for (const id of hostile) expect(state().conversations[id]?.title).toBe(`Called ${id}`);

    // Another tab's update of each.
    state().takeStored(hostile.map((id, i) => ({ ...conversation(id, 20 + i), title: `New ${id}` })));
    for (const id of hostile) expect(state().conversations[id]?.title).toBe(`New ${id}`);
    expect(state().order).toHaveLength(hostile.length);

    for (const id of hostile) {
      state().selectConversation(id);
      expect(state().activeId).toBe(id);
      state().renameConversation(id, `Renamed ${id}`);
      state().addUserMessage(id, `More ${id}`);
      expect(state().conversations[id]?.title).toBe(`Renamed ${id}`);
      expect(state().conversations[id]?.messages.at(-1)).toMatchObject({ text: `More ${id}` });
    }

    for (const id of hostile) state().deleteConversation(id);
    expect(state().order).toEqual([]);
    for (const id of hostile) expect(state().conversations[id]).toBeUndefined();
    expect(Object.keys(state().conversations)).toEqual([]);
  });

  it('are never taken as conversations that are not there', () => {
    const stores = createAppStores();
    const state = () => stores.conversations.getState();
    state().hydrate([conversation('conv_1', 1)], 'conv_1');
    for (const id of hostile) {
      state().selectConversation(id);
      expect(state().activeId).toBe('conv_1');
    }
    // Removing what is not there removes nothing.
    state().takeStored([], [...hostile]);
    expect(state().order).toEqual(['conv_1']);
    expect(state().activeId).toBe('conv_1');
  });

  it('key the answers being streamed', () => {
    const stores = createAppStores();
    const answers = stores.answers.getState();
    expect(Object.keys(answers.answers)).toEqual([]);
    for (const id of hostile) expect(answers.answers[id]).toBeUndefined();
  });
});

describe('ids named like built-in properties, in the merge', () => {
  it('joins messages, attempts and choices at forks of two copies', () => {
    const base = conversation('constructor', 5);
    const local: Conversation = {
      ...base,
      messages: [
        ...base.messages,
        { id: '__proto__', role: 'user', text: 'Edit here', createdAt: 6, parentId: null },
      ],
      selected: { ...base.selected, [forkOfFirst]: '__proto__' },
    };
    const remoteAnswer = base.messages[1]!;
    const remote: Conversation = {
      ...base,
      messages: [
        base.messages[0]!,
        remoteAnswer.role === 'assistant'
          ? { ...remoteAnswer, attempts: [...remoteAnswer.attempts, attempt('toString', 'Again', 7)] }
          : remoteAnswer,
        { id: 'toString', role: 'user', text: 'Edit there', createdAt: 8, parentId: 'constructor-answer' },
      ],
      selected: { ...base.selected, 'constructor-answer': 'toString' },
    };
    const merged = mergeConversation(local, remote, base);
    expect(merged.messages.map((m) => m.id)).toEqual([
      'constructor',
      'constructor-answer',
      '__proto__',
      'toString',
    ]);
    const answer = merged.messages[1]!;
    expect(answer.role === 'assistant' && answer.attempts.map((a) => a.id)).toEqual([
      'constructor',
      'toString',
    ]);
    expect(Object.entries(merged.selected ?? {}).sort()).toEqual(
      [
        [forkOfFirst, '__proto__'],
        ['constructor', 'constructor-answer'],
        ['constructor-answer', 'toString'],
      ].sort(),
    );
  });

  it('keeps a choice made at a fork named like a built-in property when the base made none', () => {
    const base: Conversation = { ...conversation('c', 5), selected: {} };
    const local = { ...base, selected: { toString: 'x' } };
    const remote = { ...base, selected: { constructor: 'y' } };
    expect(mergeConversation(local, remote, base).selected).toEqual({ toString: 'x', constructor: 'y' });
    expect(mergeConversation(local, remote, null).selected).toEqual({ toString: 'x', constructor: 'y' });
  });
});

describe('keys named like built-in properties, in settings', () => {
  it('are passed through as fields, never as the record’s prototype', () => {
    const read = readSettingsRecord(JSON.parse('{"__proto__":{"apiKey":"sk-planted"},"systemPrompt":"Hi"}'));
    expect(read?.settings.apiKey).toBeUndefined();
    expect(read?.settings.systemPrompt).toBe('Hi');
    expect(Object.keys(read?.settings ?? {}).sort()).toEqual(['__proto__', 'systemPrompt']);
  });

  it('are no settings a backup restores', () => {
    const read = readBackup(
      JSON.stringify({
        ...JSON.parse(backupText([])),
        settings: { constructor: 'x', toString: 'y', systemPrompt: 'Hi' },
      }),
    );
    expect(read.ok && read.settings).toEqual({ systemPrompt: 'Hi' });
  });
});

/** The key `selected` gives the first message's fork (messages with no parent). */
const forkOfFirst = '';

describe('ids named like built-in properties, from a backup into two tabs', () => {
  let db: UseStore;
  let channelName: string;
  let count = 0;
  const stops: (() => Promise<void>)[] = [];

  beforeEach(() => {
    db = createStore(`hopbase-hostile-ids-${++count}`, 'state');
    channelName = `hopbase-hostile-ids-${count}`;
    sessionStorage.clear();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  async function openTab(): Promise<AppStores> {
    const stores = createAppStores();
    const loaded = await loadState(db, stores);
    const feed = tabFeed(new BroadcastChannel(channelName));
    stops.push(startPersisting(db, stores, 20, 2000, { loaded, feed }));
    return stores;
  }

  it('are restored, shown in both tabs, renamed in one and deleted in the other, for good', async () => {
    const a = await openTab();
    const b = await openTab();
    const feed = tabFeed(new BroadcastChannel(channelName));
    const restored = await restoreBackup(
      db,
      backupText(hostile.map((id, i) => conversation(id, 10 + i))),
      feed,
    );
    feed.close();
    expect(restored.ok && restored.problems).toEqual([]);
    expect(restored.ok && [...restored.outcome.added].sort()).toEqual([...hostile].sort());

    for (const tab of [a, b])
      await expect.poll(() => [...tab.conversations.getState().order].sort()).toEqual([...hostile].sort());
    for (const id of hostile) {
      const shown = a.conversations.getState().conversations[id];
      expect(shown?.title).toBe(`Called ${id}`);
      const answer = shown?.messages[1];
      expect(answer?.role === 'assistant' && answer.attempts[0]?.turn.text).toBe(`Answer ${id}`);
      // The choice at the fork the id names is kept too.
      expect(Object.entries(shown?.selected ?? {})).toEqual([[id, `${id}-answer`]]);
    }

    for (const id of hostile) b.conversations.getState().renameConversation(id, `Renamed ${id}`);
    for (const id of hostile)
      await expect.poll(() => a.conversations.getState().conversations[id]?.title).toBe(`Renamed ${id}`);

    for (const id of hostile) a.conversations.getState().deleteConversation(id);
    await expect.poll(() => b.conversations.getState().order).toEqual([]);
    for (const stop of stops.splice(0)) await stop();
    await keys(db);
    const stored = (await entries(db)).map(([key]) => String(key));
    expect(stored.filter((key) => key.startsWith('conversation:'))).toEqual([]);
    const again = createAppStores();
    await loadState(db, again);
    expect(again.conversations.getState().order).toEqual([]);
  });
});
