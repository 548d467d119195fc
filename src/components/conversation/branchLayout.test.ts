import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../state/domain/types.ts';
import { answerMessage } from '../../testing/builders.ts';
import { branchLayout, shownMessages } from './branchLayout.ts';

const user = (id: string, parentId: string | null): ChatMessage => ({
  id,
  role: 'user',
  text: id,
  createdAt: 0,
  parentId,
});
const answer = (id: string, parentId: string | null, text: string): ChatMessage => ({
  ...answerMessage(id, { status: 'streaming', text }),
  parentId,
});

/** A question edited once (u1, then u1b), each version answered; then a follow-up on the edit's branch. */
const tree: Pick<Conversation, 'messages' | 'selected'> = {
  messages: [
    user('u1', null),
    answer('a1', 'u1', 'First'),
    user('u1b', null),
    answer('a1b', 'u1b', 'Second'),
    user('u2', 'a1b'),
    answer('a2', 'u2', 'Hel'),
  ],
};

/** The conversation as the store leaves it after a frame of the streaming answer `id`: new objects, same tree. */
function streamed(conversation: typeof tree, id: string, text: string): typeof tree {
  return {
    ...conversation,
    messages: conversation.messages.map((m) => (m.id === id ? answer(m.id, m.parentId!, text) : m)),
  };
}

describe('branchLayout', () => {
  it('shows the branch chosen, with the versions where there are some', () => {
    const layout = branchLayout(tree, null);
    expect(shownMessages(layout, tree).map((m) => m.id)).toEqual(['u1b', 'a1b', 'u2', 'a2']);
    expect(layout.versions.map((v) => v && `${v.position}/${v.count}`)).toEqual(['2/2', null, null, null]);
    expect(layout.awaitingTools).toBe('a2');
  });

  it('is kept while an answer streams, and shows the answer as it is now', () => {
    const first = branchLayout(tree, null);
    const later = streamed(streamed(tree, 'a2', 'Hello'), 'a2', 'Hello, world');
    const layout = branchLayout(later, first);
    expect(layout).toBe(first);
    expect(layout.versions[0]).toBe(first.versions[0]);
    const last = shownMessages(layout, later).at(-1)!;
    expect(last.role === 'assistant' && last.attempts[0]!.turn.text).toBe('Hello, world');
  });

  it('is derived again when a message is added, another version chosen, or a tool result differs', () => {
    const first = branchLayout(tree, null);

    const added = { messages: [...tree.messages, user('u3', 'a2')] };
    const afterAdd = branchLayout(added, first);
    expect(afterAdd).not.toBe(first);
    expect(shownMessages(afterAdd, added).at(-1)!.id).toBe('u3');
    expect(afterAdd.awaitingTools).toBeNull();

    const chosen = { ...tree, selected: { '': 'u1' } };
    expect(shownMessages(branchLayout(chosen, first), chosen).map((m) => m.id)).toEqual(['u1', 'a1']);
    // The same choice in a new object (another tab's copy): nothing to derive.
    const again = branchLayout(chosen, null);
    expect(branchLayout({ ...chosen, selected: { '': 'u1' } }, again)).toBe(again);

    const result = (content: string): typeof tree => ({
      messages: [
        ...tree.messages,
        { id: 't1', role: 'tool', toolCallId: 'call_1', name: 'f', content, createdAt: 0, parentId: 'a2' },
      ],
    });
    const withResult = branchLayout(result('18°C'), null);
    expect(withResult.toolResults).toEqual({ call_1: '18°C' });
    expect(branchLayout(result('19°C'), withResult).toolResults).toEqual({ call_1: '19°C' });
  });

  it('follows a record from before versions, whose messages name no parent, and their naming later', () => {
    const legacy = {
      messages: tree.messages.slice(0, 2).map(({ parentId: _, ...m }) => m as ChatMessage),
    };
    const layout = branchLayout(legacy, null);
    expect(shownMessages(layout, legacy).map((m) => m.id)).toEqual(['u1', 'a1']);
    const named = { messages: tree.messages.slice(0, 2) };
    expect(branchLayout(named, layout)).not.toBe(layout);
  });
});
