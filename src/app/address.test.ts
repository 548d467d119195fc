import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationIdInPath, pathOf } from '../state/domain/address.ts';
import { createAppStores } from '../state/stores/appStores.ts';
import { followAddress } from './address.ts';

describe('a conversation’s address', () => {
  it.each([
    ['/c/conv_0123456789abcdef', 'conv_0123456789abcdef'],
    ['/c/conv_1/', 'conv_1'],
    ['/c/constructor', 'constructor'],
    ['/c/a%20b', 'a b'],
    ['/', null],
    ['/c/', null],
    ['/c/a/b', null],
    ['/c/%E0%A4%A', null],
    ['/c/%00', null],
    ['/x/conv_1', null],
  ])('%s names %j', (path, id) => expect(conversationIdInPath(path)).toBe(id));

  it.each(['conv_1', 'a b', 'x?z#&', 'ünï'])('%j survives its own path', (id) => {
    expect(conversationIdInPath(pathOf(id))).toBe(id);
  });
});

describe('following the address', () => {
  let stop: () => void = () => {};
  const at = (path: string) => window.history.replaceState(null, '', path);

  function storesWith(...titles: string[]) {
    const stores = createAppStores();
    const state = () => stores.conversations.getState();
    const ids = titles.map((title) => state().newConversation(title));
    state().hydrate(Object.values(state().conversations), ids[0] ?? null);
    return { stores, state, ids };
  }

  beforeEach(() => at('/'));
  afterEach(() => stop());

  it('opens the conversation the address names, and writes the address of the one shown', () => {
    const { stores, state, ids } = storesWith('One', 'Two');
    at(`/c/${ids[1]}`);
    stop = followAddress(stores.conversations);
    expect(state().activeId).toBe(ids[1]);

    state().selectConversation(ids[0]!);
    expect(window.location.pathname).toBe(`/c/${ids[0]}`);
  });

  it('at / shows the conversation last shown, and says so in the address without a new entry', () => {
    const { stores, ids } = storesWith('One');
    const entries = window.history.length;
    stop = followAddress(stores.conversations);
    expect(window.location.pathname).toBe(`/c/${ids[0]}`);
    expect(window.history.length).toBe(entries);
  });

  it('goes back to the conversation before', async () => {
    const { stores, state, ids } = storesWith('One', 'Two');
    stop = followAddress(stores.conversations);
    state().selectConversation(ids[1]!);
    state().selectConversation(ids[0]!);
    window.history.back();
    await expect.poll(() => state().activeId).toBe(ids[1]);
  });

  it('shows no conversation, and keeps the address, when it names one not here', () => {
    const { stores, state } = storesWith('One');
    at('/c/conv_someone_elses');
    stop = followAddress(stores.conversations);
    expect(state().activeId).toBeNull();
    expect(window.location.pathname).toBe('/c/conv_someone_elses');
  });

  it('shows it when it arrives from elsewhere', () => {
    const { stores, state } = storesWith('One');
    at('/c/conv_later');
    stop = followAddress(stores.conversations);
    const arrived = { ...state().conversations[state().order[0]!]!, id: 'conv_later', title: 'Later' };
    state().takeStored([arrived]);
    expect(state().activeId).toBe('conv_later');
  });

  it('replaces the address of a deleted conversation rather than keep it in the history', () => {
    const { stores, state, ids } = storesWith('One', 'Two');
    stop = followAddress(stores.conversations);
    state().selectConversation(ids[1]!);
    const entries = window.history.length;
    state().deleteConversation(ids[1]!);
    expect(window.location.pathname).toBe(`/c/${state().activeId}`);
    expect(window.history.length).toBe(entries);
  });
});
