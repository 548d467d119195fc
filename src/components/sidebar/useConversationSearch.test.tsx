import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording } from '../../state/domain/recordings.ts';
import type { ServerFound } from '../../state/team/teamAccount.ts';
import { createTestApp } from '../../testing/testApp.tsx';
import { type SearchState, type ServerSearch, useConversationSearch } from './useConversationSearch.ts';

/** Two conversations that both mention Paris; their ids, newest first. */
function twoAboutParis() {
  const app = createTestApp();
  const store = () => app.stores.conversations.getState();
  for (const [question, answer] of [
    ['Where should we eat in Paris?', 'Try the Café de Flore.'],
    ['A weekend in Paris', 'The Louvre, then a walk.'],
  ] as const) {
    const id = store().newConversation();
    store().addUserMessage(id, question);
    const messageId = store().addAssistantMessage(id, 'chat', 'sim-echo');
    store().addAttempt(id, messageId, {
      id: `${messageId}_1`,
      startedAt: 0,
      request: { url: '', path: '', headers: {}, body: {} },
      turn: { ...emptyTurn, status: 'complete', text: answer },
      sentHeaders: {},
      httpError: null,
      trace: emptyRecording(),
    });
  }
  const { conversations, order } = store();
  return { conversations, order };
}

async function searched(serverSearch: ServerSearch | null, made?: (order: readonly string[]) => void) {
  const { conversations, order } = twoAboutParis();
  made?.(order);
  const { result } = renderHook(() => useConversationSearch(conversations, order, 'paris', serverSearch));
  await waitFor(() => expect(result.current.kind).toBe('done'));
  const state = result.current as Extract<SearchState, { kind: 'done' }>;
  return { order, total: state.outcome.total, ids: state.outcome.results.map((r) => r.id) };
}

const answering =
  (found: ServerFound | null): ServerSearch =>
  async () =>
    found;

describe('the sidebar’s search', () => {
  it('in single-person mode, over everything this browser holds', async () => {
    const { order, total, ids } = await searched(null);
    expect(total).toBe(2);
    expect(ids).toEqual(order);
  });

  it('in team mode, over what the database found, with its count (some not read here yet)', async () => {
    let asked: readonly string[] = [];
    const { order, total, ids } = await searched(
      async () => ({ ids: ['conv_not_here', ...asked], total: 9 }),
      (o) => {
        asked = o.slice(1);
      },
    );
    expect(ids).toEqual(order.slice(1));
    expect(total).toBe(9);
  });

  it('in team mode, nothing found by the database is nothing found', async () => {
    expect(await searched(answering({ ids: [], total: 0 }))).toMatchObject({ total: 0, ids: [] });
  });

  it('with the server out of reach, over what this browser holds', async () => {
    const { order, total, ids } = await searched(answering(null));
    expect(total).toBe(2);
    expect(ids).toEqual(order);
  });
});
