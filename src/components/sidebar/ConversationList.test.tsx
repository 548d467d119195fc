import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording } from '../../state/domain/recordings.ts';
import { answerInFlight } from '../../testing/builders.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ConversationList } from './ConversationList.tsx';

let app: TestApp;

const store = () => app.stores.conversations.getState();

beforeEach(() => {
  app = createTestApp();
});

/** Two conversations: "Older" then "Newer" (active). */
function seed() {
  const older = store().newConversation();
  store().addUserMessage(older, 'Older');
  const newer = store().newConversation();
  store().addUserMessage(newer, 'Newer');
  return { older, newer };
}

const items = () =>
  within(screen.getByRole('list'))
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.conversation-title')?.textContent);

describe('a long list', () => {
  it('renders a hundred rows, the rest a page at a time, and always the active conversation', async () => {
    const user = userEvent.setup();
    const now = Date.now();
    store().hydrate(
      Array.from({ length: 250 }, (_, i) => ({
        id: `conv_${i}`,
        title: `Trip ${i}`,
        createdAt: now - i,
        updatedAt: now - i,
        messages: [],
      })),
      'conv_180',
    );
    const { container } = app.render(<ConversationList />);
    const titles = () =>
      [...container.querySelectorAll('.conversation-title')].map((title) => title.textContent);
    // The list's last item, found as a person finds it (querying every row's buttons by role is slow in jsdom).
    const more = (name: string) =>
      within(container.querySelector<HTMLElement>('.conversation-list > li:last-child')!).getByRole(
        'button',
        {
          name,
        },
      );
    expect(titles()).toHaveLength(181);
    expect(titles().at(-1)).toBe('Trip 180');
    await user.click(more('Show 69 more conversations'));
    expect(titles()).toHaveLength(200);
    await user.click(more('Show 50 more conversations'));
    expect(titles()).toHaveLength(250);
    expect(container.querySelector('.more-conversations')).toBeNull();
  });

  it('makes the rows of a batch read in a render of their own, not in the task that read them', async () => {
    const { container } = app.render(<ConversationList />);
    const rows = () => container.querySelectorAll('.conversation-title').length;
    const now = Date.now();
    const batch = Array.from({ length: 100 }, (_, i) => ({
      id: `conv_${i}`,
      title: `Trip ${i}`,
      createdAt: now - i,
      updatedAt: now - i,
      messages: [],
    }));
    // Outside act, as the page's own reads change the store: React's work is scheduled as in a browser.
    const testGlobal = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    testGlobal.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      store().hydrate(batch, null);
      // A store change is rendered at once, before the task that made it ends: the rows are not in it.
      for (let i = 0; i < 3; i++) await Promise.resolve();
      expect(rows()).toBe(0);
      await waitFor(() => expect(rows()).toBe(100));
    } finally {
      testGlobal.IS_REACT_ACT_ENVIRONMENT = true;
    }
  });
});

describe('ConversationList', () => {
  it('says when there is nothing yet, and creates a conversation with "New chat"', async () => {
    const user = userEvent.setup();
    const onNavigate = vi.fn();
    app.render(<ConversationList onNavigate={onNavigate} />);
    expect(screen.getByRole('navigation', { name: 'Conversations' })).toBeInTheDocument();
    expect(screen.getByText('No conversations yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New chat' }));
    expect(store().order).toHaveLength(1);
    expect(store().activeId).toBe(store().order[0]);
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('No conversations yet.')).toBeNull();
    const item = within(screen.getByRole('list')).getByRole('button', { name: /^New chat/ });
    expect(item).toHaveTextContent('0 tokens');
    expect(item).toHaveAttribute('aria-current', 'page');
  });

  it('lists newest first and switches with aria-current', async () => {
    const { older, newer } = seed();
    const user = userEvent.setup();
    const onNavigate = vi.fn();
    app.render(<ConversationList onNavigate={onNavigate} />);
    expect(items()).toEqual(['Newer', 'Older']);
    const newerButton = screen.getByRole('button', { name: /^Newer/ });
    const olderButton = screen.getByRole('button', { name: /^Older/ });
    expect(newerButton).toHaveAttribute('aria-current', 'page');
    expect(olderButton).not.toHaveAttribute('aria-current');

    await user.click(olderButton);
    expect(store().activeId).toBe(older);
    expect(olderButton).toHaveAttribute('aria-current', 'page');
    expect(newerButton).not.toHaveAttribute('aria-current');
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(store().activeId).not.toBe(newer);
  });

  it('renames through "Rename <title>" and the "Conversation title" box', async () => {
    const { older } = seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.click(screen.getByRole('button', { name: 'Rename Older' }));
    const box = screen.getByRole('textbox', { name: 'Conversation title' });
    expect(box).toHaveValue('Older');
    expect(box).toHaveFocus();
    await user.clear(box);
    await user.type(box, '  Holiday plans {Enter}');
    expect(store().conversations[older]?.title).toBe('Holiday plans');
    expect(screen.queryByRole('textbox', { name: 'Conversation title' })).toBeNull();
    expect(items()).toEqual(['Newer', 'Holiday plans']);
    expect(screen.getByRole('button', { name: 'Rename Holiday plans' })).toBeInTheDocument();
  });

  it('keeps the title when the rename is emptied or cancelled with Escape', async () => {
    const { older } = seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.click(screen.getByRole('button', { name: 'Rename Older' }));
    await user.clear(screen.getByRole('textbox', { name: 'Conversation title' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(store().conversations[older]?.title).toBe('Older');

    await user.click(screen.getByRole('button', { name: 'Rename Older' }));
    await user.type(screen.getByRole('textbox', { name: 'Conversation title' }), ' changed{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Conversation title' })).toBeNull();
    expect(store().conversations[older]?.title).toBe('Older');
  });

  it('deletes a conversation; deleting the active one activates the next', async () => {
    const { older, newer } = seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.click(screen.getByRole('button', { name: 'Delete Newer' }));
    expect(store().conversations[newer]).toBeUndefined();
    expect(store().activeId).toBe(older);
    expect(items()).toEqual(['Older']);
    expect(screen.getByRole('button', { name: /^Older/ })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Delete Older' }));
    expect(screen.getByText('No conversations yet.')).toBeInTheDocument();
  });

  it('shows token totals and which conversation is streaming', () => {
    const { older } = seed();
    const messageId = store().addAssistantMessage(older, 'chat', 'm');
    store().addAttempt(older, messageId, {
      id: 'att_1',
      startedAt: 0,
      request: { url: '', path: '', headers: {}, body: {} },
      turn: {
        ...emptyTurn,
        status: 'complete',
        usage: { inputTokens: 1000, outputTokens: 234, totalTokens: 1234 },
      },
      sentHeaders: {},
      httpError: null,
      trace: emptyRecording(),
    });
    app.render(<ConversationList />);
    const olderButton = screen.getByRole('button', { name: /^Older/ });
    expect(olderButton).toHaveTextContent('1,234 tokens');
    expect(olderButton).not.toHaveTextContent('streaming');

    const message = store().conversations[older]!.messages.find((m) => m.id === messageId);
    if (message?.role !== 'assistant') throw new Error('no answer');
    act(() => app.stores.answers.getState().publish(answerInFlight(older, message)));
    expect(olderButton).toHaveTextContent('streaming… · 1,234 tokens');
    expect(screen.getByRole('button', { name: /^Newer/ })).not.toHaveTextContent('streaming');
    act(() => app.stores.answers.getState().remove(messageId));
    expect(olderButton).not.toHaveTextContent('streaming');
  });

  it('does not re-render while an answer streams, until a total it shows changes', () => {
    const { older } = seed();
    const messageId = store().addAssistantMessage(older, 'chat', 'm');
    store().addAttempt(older, messageId, {
      id: 'att_1',
      startedAt: 0,
      request: { url: '', path: '', headers: {}, body: {} },
      turn: emptyTurn,
      sentHeaders: {},
      httpError: null,
      trace: emptyRecording(),
    });
    const onRender = vi.fn();
    app.render(
      <Profiler id="sidebar" onRender={onRender}>
        <ConversationList />
      </Profiler>,
    );
    onRender.mockClear();
    for (const text of ['Once', 'Once upon', 'Once upon a time']) {
      act(() =>
        store().updateAttempt(older, messageId, 'att_1', (a) => ({ ...a, turn: { ...a.turn, text } })),
      );
    }
    expect(onRender).not.toHaveBeenCalled();

    act(() =>
      store().updateAttempt(older, messageId, 'att_1', (a) => ({
        ...a,
        turn: { ...a.turn, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
      })),
    );
    expect(onRender).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: /^Older/ })).toHaveTextContent('15 tokens');
  });

  it('is inert when told (a closed drawer), and carries the id its toggle controls', () => {
    seed();
    const { rerender } = app.render(<ConversationList id="side" inert />);
    const nav = screen.getByRole('navigation', { hidden: true });
    expect(nav).toHaveAttribute('id', 'side');
    expect(nav).toHaveAttribute('inert');
    rerender(<ConversationList id="side" inert={false} />);
    expect(nav).not.toHaveAttribute('inert');
  });
});
