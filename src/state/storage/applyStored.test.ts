import { describe, expect, it } from 'vitest';
import { shownBranch } from '../domain/branches.ts';
import type { Conversation, UserMessage } from '../domain/types.ts';
import { createAppStores } from '../stores/appStores.ts';
import { applyStoredConversations } from './applyStored.ts';
import { KnownState } from './knownState.ts';

const user = (id: string, createdAt: number): UserMessage => ({
  id,
  role: 'user',
  text: id,
  createdAt,
  parentId: null,
});

/** A tab holding `local` as stored at revision 1, then reading `stored` (revision 2) from another tab. */
function takeIn(local: Conversation, stored: Conversation) {
  const stores = createAppStores();
  stores.conversations.getState().hydrate([local], local.id);
  const known = new KnownState(stores, undefined);
  known.bases.set(local.id, { revision: 2, conversation: stored });
  applyStoredConversations(stores.conversations, known, [stored], [], new Map([[local.id, local]]));
  const { conversations } = stores.conversations.getState();
  return { shown: conversations[local.id]!, changed: known.changed(conversations) };
}

const conversation = (selected: Record<string, string>, ...messages: UserMessage[]): Conversation => ({
  id: 'c',
  title: 'T',
  createdAt: 1,
  updatedAt: 2,
  messages,
  selected,
});

describe('a copy another tab stored, taken in', () => {
  it('keeps this tab’s choice at a fork both chose, without writing it back', () => {
    const mine = conversation({ '': 'mine' }, user('mine', 1));
    const theirs = conversation({ '': 'theirs' }, user('mine', 1), user('theirs', 2));
    const { shown, changed } = takeIn(mine, theirs);
    expect(shown.messages).toBe(theirs.messages);
    expect(shownBranch(shown).map((m) => m.id)).toEqual(['mine']);
    expect(changed).toEqual([]);
  });

  it('keeps this tab’s choice when it changed the conversation meanwhile (an answer streaming) too', () => {
    const base = conversation({ '': 'mine' }, user('mine', 1));
    const stores = createAppStores();
    const changedSince = { ...base, title: 'Renamed meanwhile' };
    stores.conversations.getState().hydrate([changedSince], base.id);
    const known = new KnownState(stores, undefined);
    const theirs = conversation({ '': 'theirs' }, user('mine', 1), user('theirs', 2));
    applyStoredConversations(stores.conversations, known, [theirs], [], new Map([[base.id, base]]));
    const shown = stores.conversations.getState().conversations[base.id]!;
    expect(shown.title).toBe('Renamed meanwhile');
    expect(shownBranch(shown).map((m) => m.id)).toEqual(['mine']);
  });

  it('takes the other tab’s choice where this tab made none', () => {
    const mine = conversation({}, user('first', 1));
    const theirs = conversation({ '': 'first' }, user('first', 1), user('second', 2));
    expect(takeIn(mine, theirs).shown).toBe(theirs);
  });
});
