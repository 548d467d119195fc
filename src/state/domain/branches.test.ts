import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import {
  chooseVersion,
  nextParentId,
  parentOf,
  pathTo,
  shownBranch,
  versionOf,
  withParents,
} from './branches.ts';
import type { ChatMessage, Conversation } from './types.ts';

type Branching = Pick<Conversation, 'messages' | 'selected'>;

/** A message placed after `parentId` (undefined: a record from before branches). */
function user(id: string, parentId?: string | null): ChatMessage {
  return { id, role: 'user', text: id, createdAt: 0, ...(parentId !== undefined && { parentId }) };
}

function answer(id: string, parentId?: string | null): ChatMessage {
  return { ...answerMessage(id, { status: 'complete' }), ...(parentId !== undefined && { parentId }) };
}

function tool(id: string, parentId: string): ChatMessage {
  return { id, role: 'tool', toolCallId: `call_${id}`, name: 'f', content: 'r', createdAt: 0, parentId };
}

const ids = (messages: ChatMessage[]) => messages.map((m) => m.id);

/** u1 → a1, then u1 edited (u2 → a2), then a2 regenerated (a3). */
const forked: Branching = {
  messages: [user('u1', null), answer('a1', 'u1'), user('u2', null), answer('a2', 'u2'), answer('a3', 'u2')],
};

describe('shownBranch', () => {
  it('shows a record from before branches as one branch, in its order', () => {
    const old = { messages: [user('u1'), answer('a1'), user('u2'), answer('a2')] };
    expect(ids(shownBranch(old))).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('follows the newest child at a fork nobody chose', () => {
    expect(ids(shownBranch(forked))).toEqual(['u2', 'a3']);
  });

  it('follows the version chosen at each fork', () => {
    expect(ids(shownBranch({ ...forked, selected: { '': 'u1' } }))).toEqual(['u1', 'a1']);
    expect(ids(shownBranch({ ...forked, selected: { u2: 'a2' } }))).toEqual(['u2', 'a2']);
  });

  it('takes the newest child when the choice names no child of that fork', () => {
    expect(ids(shownBranch({ ...forked, selected: { '': 'a1', u2: 'gone' } }))).toEqual(['u2', 'a3']);
  });

  it('chains tool results like any message', () => {
    const loop = {
      messages: [
        user('u1', null),
        answer('a1', 'u1'),
        tool('t1', 'a1'),
        tool('t2', 't1'),
        answer('a2', 't2'),
      ],
    };
    expect(ids(shownBranch(loop))).toEqual(['u1', 'a1', 't1', 't2', 'a2']);
  });

  it('continues a record from before branches with the messages placed after it', () => {
    const upgraded = { messages: [user('u1'), answer('a1'), user('u2', 'a1'), user('u3', 'a1')] };
    expect(ids(shownBranch(upgraded))).toEqual(['u1', 'a1', 'u3']);
  });

  it('ends rather than loops on a damaged record (an id twice)', () => {
    const damaged = { messages: [user('u1', null), user('u1', 'u1')] };
    expect(ids(shownBranch(damaged))).toEqual(['u1']);
  });

  it('is empty for a conversation without messages', () => {
    expect(shownBranch({ messages: [] })).toEqual([]);
  });
});

describe('pathTo', () => {
  it('is the branch from the first message to the one given', () => {
    expect(ids(pathTo(forked, 'a2'))).toEqual(['u2', 'a2']);
    expect(ids(pathTo(forked, 'a1'))).toEqual(['u1', 'a1']);
    expect(ids(pathTo({ messages: [user('u1'), answer('a1'), user('u2')] }, 'u2'))).toEqual([
      'u1',
      'a1',
      'u2',
    ]);
  });

  it('is empty for an unknown message', () => {
    expect(pathTo(forked, 'nope')).toEqual([]);
  });
});

describe('versionOf', () => {
  it('places a message among its siblings, oldest first', () => {
    expect(versionOf(forked, 'u1')).toEqual({ position: 1, count: 2, previousId: null, nextId: 'u2' });
    expect(versionOf(forked, 'u2')).toEqual({ position: 2, count: 2, previousId: 'u1', nextId: null });
    expect(versionOf(forked, 'a3')).toEqual({ position: 2, count: 2, previousId: 'a2', nextId: null });
  });

  it('is 1 of 1 for a message without siblings, and for an unknown one', () => {
    const single = { position: 1, count: 1, previousId: null, nextId: null };
    expect(versionOf(forked, 'a1')).toEqual(single);
    expect(versionOf(forked, 'nope')).toEqual(single);
  });
});

describe('chooseVersion', () => {
  it('chooses the message at its fork, keeping the other choices', () => {
    expect(chooseVersion(forked, 'u1')).toEqual({ '': 'u1' });
    expect(chooseVersion({ ...forked, selected: { '': 'u1' } }, 'a2')).toEqual({ '': 'u1', u2: 'a2' });
  });

  it('returns the same choices when that one is made already', () => {
    const selected = { '': 'u1' };
    expect(chooseVersion({ ...forked, selected }, 'u1')).toBe(selected);
  });
});

describe('nextParentId and parentOf', () => {
  it('places the next message after the last one shown', () => {
    expect(nextParentId(forked)).toBe('a3');
    expect(nextParentId({ ...forked, selected: { '': 'u1' } })).toBe('a1');
    expect(nextParentId({ messages: [] })).toBeNull();
  });

  it('names a message’s parent, from its order in a record from before branches', () => {
    expect(parentOf(forked, 'a3')).toBe('u2');
    expect(parentOf(forked, 'u2')).toBeNull();
    expect(parentOf({ messages: [user('u1'), answer('a1')] }, 'a1')).toBe('u1');
    expect(parentOf(forked, 'nope')).toBeNull();
  });
});

describe('withParents', () => {
  it('names each parent from the order of a record from before branches', () => {
    const upgraded = withParents([user('u1'), answer('a1'), user('u2', 'a1'), answer('a2')]);
    expect(upgraded.map((m) => m.parentId)).toEqual([null, 'u1', 'a1', 'u2']);
  });

  it('returns the same list when every message names its parent', () => {
    expect(withParents(forked.messages)).toBe(forked.messages);
  });
});
