import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerFound } from '../../state/team/teamAccount.ts';
import { answeredChat } from '../../testing/builders.ts';
import { createTestApp } from '../../testing/testApp.tsx';
import { type SearchState, type ServerSearch, useConversationSearch } from './useConversationSearch.ts';

/** Two conversations that both mention Paris; their ids, newest first. */
function twoAboutParis() {
  const app = createTestApp();
  answeredChat(app.stores.conversations, 'Where should we eat in Paris?', { text: 'Try the Café de Flore.' });
  answeredChat(app.stores.conversations, 'A weekend in Paris', { text: 'The Louvre, then a walk.' });
  const { conversations, order } = app.stores.conversations.getState();
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

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the sidebar’s search', () => {
  it('indexes a long history a slice at a time (the page answering between), then searches it', async () => {
    // Every clock reading 20 ms on: no slice has time for more than one conversation.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 20));
    const { order, total, ids } = await searched(null);
    expect(total).toBe(2);
    expect(ids).toEqual(order);
  });

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
