import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { shownBranch, versionOf } from '../../state/domain/branches.ts';
import type { ChatMessage, Conversation } from '../../state/domain/types.ts';
import { answerMessage, conversationViewActions } from '../../testing/builders.ts';
import { createTestApp } from '../../testing/testApp.tsx';
import { markdownRenderer } from '../markdown/LazyMarkdown.tsx';
import { ConversationView } from './ConversationView.tsx';

// The tree's functions, counted: the pane must not walk the conversation again on each frame of an answer.
vi.mock('../../state/domain/branches.ts', async (actual) => {
  const branches = await actual<typeof import('../../state/domain/branches.ts')>();
  return { ...branches, shownBranch: vi.fn(branches.shownBranch), versionOf: vi.fn(branches.versionOf) };
});

/** Twenty questions and answers, the first question edited once, and the last answer still streaming. */
function conversation(): Conversation {
  const messages: ChatMessage[] = [];
  let parentId: string | null = null;
  for (let i = 0; i < 20; i++) {
    messages.push({ id: `u${i}`, role: 'user', text: `Question ${i}`, createdAt: 0, parentId });
    if (i === 0)
      messages.push({ id: 'u0b', role: 'user', text: 'Question 0, edited', createdAt: 0, parentId });
    parentId = i === 0 ? 'u0b' : `u${i}`;
    const turn =
      i === 19 ? { status: 'streaming' as const, text: '' } : { status: 'complete' as const, text: `A${i}` };
    messages.push({ ...answerMessage(`a${i}`, turn), parentId });
    parentId = `a${i}`;
  }
  return { id: 'c1', title: 'Long', createdAt: 0, updatedAt: 0, messages };
}

describe('ConversationView while an answer streams', () => {
  it('derives the branch and the versions once per change of the tree, not once per frame', async () => {
    const app = createTestApp();
    // As main.tsx does at startup: the markdown renderer is loaded before the first answer shows.
    await markdownRenderer(app.markdown).load();
    const store = app.stores.conversations;
    store.getState().hydrate([conversation()], 'c1');
    const current = () => store.getState().conversations.c1!;
    const props = conversationViewActions();
    const view = app.render(<ConversationView {...props} conversation={current()} />);
    // The first question, with its two versions, is mounted a few tasks after the end.
    expect(await screen.findByRole('group', { name: 'Versions of your message' })).toBeInTheDocument();

    vi.mocked(shownBranch).mockClear();
    vi.mocked(versionOf).mockClear();
    let text = '';
    for (let frame = 0; frame < 10; frame++) {
      text += `word${frame} `;
      store.getState().updateAttempt('c1', 'a19', 'a19_att', (a) => ({ ...a, turn: { ...a.turn, text } }));
      view.rerender(<ConversationView {...props} conversation={current()} />);
    }
    expect(screen.getAllByTestId('turn-text').at(-1)).toHaveTextContent('word9');
    expect(shownBranch).not.toHaveBeenCalled();
    expect(versionOf).not.toHaveBeenCalled();

    // A message added changes the tree: derived again, once.
    store.getState().addUserMessage('c1', 'One more');
    vi.mocked(shownBranch).mockClear();
    view.rerender(<ConversationView {...props} conversation={current()} />);
    expect(screen.getAllByTestId('user-message').at(-1)).toHaveTextContent('One more');
    expect(shownBranch).toHaveBeenCalledTimes(1);
  });
});
