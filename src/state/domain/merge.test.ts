import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { shownBranch } from './branches.ts';
import { mergeConversation, sameContent } from './merge.ts';
import { emptyRecording } from './recordings.ts';
import type { AssistantMessage, Attempt, Conversation, UserMessage } from './types.ts';

const user = (id: string, createdAt: number): UserMessage => ({ id, role: 'user', text: id, createdAt });

function attempt(id: string, bytes: number, status: Attempt['turn']['status'], code?: string): Attempt {
  return {
    id,
    startedAt: 1,
    request: { url: '', path: '', headers: {}, body: {} },
    sentHeaders: {},
    httpError: null,
    turn: { ...emptyTurn, status, text: 'x'.repeat(bytes), error: code ? { code, message: '' } : null },
    trace: { ...emptyRecording(), bytes },
  };
}

const answer = (createdAt: number, ...attempts: Attempt[]): AssistantMessage => ({
  id: 'answer',
  role: 'assistant',
  protocol: 'chat',
  model: 'm',
  source: { kind: 'gateway' },
  createdAt,
  attempts,
});

const conversation = (title: string, ...messages: Conversation['messages']): Conversation => ({
  id: 'c',
  title,
  createdAt: 1,
  updatedAt: Math.max(1, ...messages.map((m) => m.createdAt)),
  messages,
});

describe('mergeConversation', () => {
  it('keeps every message of both copies, in the order they were written', () => {
    const base = [user('start', 1)];
    const merged = mergeConversation(
      conversation('T', ...base, user('from-a', 5)),
      conversation('T', ...base, user('from-b', 3)),
    );
    expect(merged.messages.map((m) => m.id)).toEqual(['start', 'from-b', 'from-a']);
    expect(merged.updatedAt).toBe(5);
  });

  it('keeps the copy of an attempt that got further; a reload’s guess loses to the live copy', () => {
    const live = attempt('a1', 30, 'streaming');
    const guessed = attempt('a1', 30, 'interrupted', 'page_reloaded');
    const longer = attempt('a1', 50, 'streaming');
    const pick = (local: Attempt, remote: Attempt) =>
      (
        mergeConversation(conversation('T', answer(2, local)), conversation('T', answer(2, remote)))
          .messages[0] as AssistantMessage
      ).attempts[0];
    expect(pick(guessed, live)).toBe(live);
    expect(pick(live, longer)).toBe(longer);
    expect(pick(longer, live)).toBe(longer);
    const ended = attempt('a1', 30, 'complete');
    expect(pick(live, ended)).toBe(ended);
  });

  it('joins attempts added on either side', () => {
    const first = attempt('a1', 10, 'complete');
    const second = { ...attempt('a2', 5, 'complete'), startedAt: 9 };
    const merged = mergeConversation(
      conversation('T', answer(2, first)),
      conversation('T', answer(2, first, second)),
    );
    expect((merged.messages[0] as AssistantMessage).attempts.map((a) => a.id)).toEqual(['a1', 'a2']);
  });

  it('keeps a title changed on one side only; with both changed, or no base, the local one', () => {
    const base = { title: 'Old' };
    expect(mergeConversation(conversation('Old'), conversation('Theirs'), base).title).toBe('Theirs');
    expect(mergeConversation(conversation('Mine'), conversation('Old'), base).title).toBe('Mine');
    expect(mergeConversation(conversation('Mine'), conversation('Theirs'), base).title).toBe('Mine');
    expect(mergeConversation(conversation('Mine'), conversation('Theirs')).title).toBe('Mine');
  });

  it('returns the local copy itself when the other adds nothing', () => {
    const local = conversation('T', user('a', 1), user('b', 2));
    expect(mergeConversation(local, conversation('T', user('a', 1)))).toBe(local);
    const chosen = { ...local, selected: { '': 'a' } };
    expect(mergeConversation(chosen, { ...conversation('T', user('a', 1)), selected: { '': 'b' } })).toBe(
      chosen,
    );
  });

  it('keeps the versions both copies chose, the local one where both chose at the same fork', () => {
    const versions = [
      user('q1', 1),
      { ...user('q2', 2), parentId: null },
      { ...user('q3', 3), parentId: null },
    ];
    const local = { ...conversation('T', ...versions), selected: { '': 'q1' } };
    const remote = { ...conversation('T', ...versions), selected: { '': 'q2', q2: 'x' } };
    expect(mergeConversation(local, remote).selected).toEqual({ '': 'q1', q2: 'x' });
    expect(mergeConversation({ ...local, selected: undefined }, remote).selected).toBe(remote.selected);
    expect(mergeConversation(local, { ...remote, selected: undefined }).selected).toBe(local.selected);
  });

  it('joins versions made on either side into one tree', () => {
    const question = { ...user('q', 1), parentId: null };
    const mine = { ...answer(2), id: 'mine', parentId: 'q' };
    const theirs = { ...answer(3), id: 'theirs', parentId: 'q' };
    const merged = mergeConversation(
      { ...conversation('T', question, mine), selected: { q: 'mine' } },
      { ...conversation('T', question, theirs), selected: { q: 'theirs' } },
    );
    expect(merged.messages.map((m) => m.id)).toEqual(['q', 'mine', 'theirs']);
    expect(shownBranch(merged).map((m) => m.id)).toEqual(['q', 'mine']);
  });
});

describe('sameContent', () => {
  it('compares data, not objects or key order', () => {
    expect(sameContent({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameContent({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameContent({ a: [1] }, { a: [1, 2] })).toBe(false);
    expect(sameContent([], {})).toBe(false);
  });
});
