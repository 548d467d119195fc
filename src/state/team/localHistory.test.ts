import 'fake-indexeddb/auto';
import { createStore, entries, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { Conversation, TraceItem } from '../domain/types.ts';
import { packedLines } from '../formats/records.ts';
import { storedRecording } from '../storage/recordingReads.ts';
import { createAppStores } from '../stores/appStores.ts';
import { LocalHistory } from './localHistory.ts';

const items: TraceItem[] = [
  { t: 1, kind: 'event', event: 'message', data: '{"n":1}' },
  { t: 2, kind: 'event', event: 'message', data: '{"n":2}' },
];

function answered(id: string, attemptId: string): Conversation {
  return {
    id,
    title: id,
    createdAt: 1,
    updatedAt: 1,
    messages: [
      { id: `${id}_q`, role: 'user', text: 'Hello', createdAt: 1 },
      {
        id: `${id}_a`,
        role: 'assistant',
        protocol: 'chat',
        model: 'sim-echo',
        source: { kind: 'gateway' },
        createdAt: 2,
        attempts: [
          {
            id: attemptId,
            startedAt: 2,
            request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
            sentHeaders: {},
            turn: { ...emptyTurn, status: 'complete', text: 'Hi' },
            httpError: null,
            trace: { ...emptyRecording(), bytes: 4, items: [], raw: '' },
          },
        ],
        selectedAttempt: 0,
      },
    ],
  } as Conversation;
}

describe('the history from before team mode', () => {
  it('is added with its recordings, those written in parts joined into one record each', async () => {
    const source = createStore('local-history-source', 'state');
    const target = createStore('local-history-target', 'state');
    await set('conversation:conv_a', answered('conv_a', 'att_a'), source);
    await set('conversation:conv_b', answered('conv_b', 'att_b'), source);
    await set('trace:att_a', { parts: 2 }, source);
    await set('trace-part:att_a:0', { packed: packedLines(items.slice(0, 1)).lines, raw: 'da' }, source);
    await set('trace-part:att_a:1', { packed: packedLines(items.slice(1)).lines, raw: 'ta' }, source);
    await set('trace:att_b', { items, raw: 'data' }, source);
    const stores = createAppStores();
    const history = new LocalHistory({
      team: stores.team,
      conversations: stores.conversations,
      email: 'ada@example.com',
      target: () => target,
      source: () => source,
      remembered: { getItem: () => null, setItem: () => {} },
    });
    await history.offer();
    expect(stores.team.getState().localHistory).toEqual({ state: 'offered', count: 2 });

    await history.add();
    expect(Object.keys(stores.conversations.getState().conversations).sort()).toEqual(['conv_a', 'conv_b']);
    for (const id of ['att_a', 'att_b'])
      expect(await storedRecording(target, id)).toEqual({ items, raw: 'data' });
    expect((await entries(target)).map(([key]) => key).sort()).toEqual(['trace:att_a', 'trace:att_b']);
  });
});
