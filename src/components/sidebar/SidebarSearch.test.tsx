import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Turn } from '../../core/index.ts';
import { answeredChat } from '../../testing/builders.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ConversationList } from './ConversationList.tsx';

let app: TestApp;
const store = () => app.stores.conversations.getState();

beforeEach(() => {
  app = createTestApp();
});

/** A conversation with a question and its answer (the answer's turn as given); returns its ids. */
const chat = (question: string, turn: Partial<Turn>) =>
  answeredChat(app.stores.conversations, question, turn);

function seed() {
  const paris = chat('Where should we eat in Paris?', { text: 'Try the **Café de Flore**.' });
  const tokyo = chat('東京のおすすめは？', {
    text: '東京タワーに行きましょう。',
    reasoning: 'Think about sights.',
  });
  const oslo = chat('Weather in Oslo?', {
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
  });
  return { paris, tokyo, oslo };
}

const box = () => screen.getByRole('searchbox', { name: 'Search conversations' });
const results = () => screen.findByRole('list', { name: 'Search results' });
const marks = (element: HTMLElement) => [...element.querySelectorAll('mark')].map((m) => m.textContent);
const titles = () =>
  within(screen.getByRole('list'))
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.conversation-title')?.textContent);

describe('searching conversations', () => {
  it('says while older conversations are still being read, and that they will be searched', async () => {
    seed();
    app.stores.storage.getState().readingRest({ kind: 'uncounted' });
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.type(box(), 'oslo');
    await results();
    expect(screen.getByRole('status')).toHaveTextContent(
      '1 conversation matches. Older conversations are still being read: the results will include them.',
    );
    act(() => app.stores.storage.getState().readingRest({ kind: 'counted', count: 1_200 }));
    expect(screen.getByRole('status')).toHaveTextContent(
      '1 conversation matches. 1,200 older conversations are still being read: the results will include them.',
    );
    act(() => app.stores.storage.getState().readingRest({ kind: 'none' }));
    expect(screen.getByRole('status')).toHaveTextContent(/^1 conversation matches\.$/);
  });

  it('finds an answer by an accent-free word, highlights it, and Escape restores the list', async () => {
    const { paris } = seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    expect(box()).toHaveAttribute('placeholder', 'Search (Ctrl+K or /)');
    expect(box()).toHaveAttribute('aria-keyshortcuts', 'Control+K /');

    await user.type(box(), 'CAFE');
    const list = await results();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(item).toHaveTextContent('Where should we eat in Paris?');
    expect(item).toHaveTextContent('Answer: Try the Café de Flore.');
    expect(marks(item)).toEqual(['Café']);
    expect(screen.getByRole('status')).toHaveTextContent('1 conversation matches.');

    await user.click(within(item).getByRole('button'));
    expect(store().activeId).toBe(paris.id);

    await user.type(box(), '{Escape}');
    expect(box()).toHaveValue('');
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
    expect(titles()).toEqual(['Weather in Oslo?', '東京のおすすめは？', 'Where should we eat in Paris?']);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it.each([
    ['タワー', '東京のおすすめは？', 'Answer: 東京タワーに行きましょう。', ['タワー']],
    ['sights', '東京のおすすめは？', 'Reasoning: Think about sights.', ['sights']],
    ['"city":"oslo"', 'Weather in Oslo?', 'Tool call: get_weather {"city":"Oslo"}', ['"city":"Oslo"']],
    ['paris', 'Where should we eat in Paris?', 'You: Where should we eat in Paris?', ['Paris', 'Paris']],
  ])('%j finds %j with the snippet %j', async (query, title, snippet, highlighted) => {
    seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.type(box(), query);
    const items = within(await results()).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.conversation-title')?.textContent)).toEqual([title]);
    expect(items[0]!.querySelector('.search-snippet')).toHaveTextContent(snippet);
    expect(marks(items[0]!)).toEqual(highlighted);
  });

  it('says when nothing matches, and clearing the box restores the list', async () => {
    seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.type(box(), 'zebra');
    expect(await screen.findByText('No conversation matches “zebra”.')).toBeInTheDocument();
    expect(within(await results()).queryAllByRole('listitem')).toHaveLength(0);
    await user.clear(box());
    expect(titles()).toHaveLength(3);
  });

  it('Enter opens the first result; the arrows move between results and back to the box', async () => {
    const { oslo, paris } = seed();
    const onNavigate = vi.fn();
    const user = userEvent.setup();
    app.render(<ConversationList onNavigate={onNavigate} />);
    await user.type(box(), 'o');
    const buttons = within(await results()).getAllByRole('button');
    expect(buttons.length).toBe(3);
    await user.keyboard('{ArrowDown}');
    expect(buttons[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(buttons[1]).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(box()).toHaveFocus();

    act(() => store().selectConversation(paris.id));
    await user.keyboard('{Enter}');
    expect(store().activeId).toBe(oslo.id);
    expect(onNavigate).toHaveBeenCalledTimes(1);
  });

  it('updates while an answer streams', async () => {
    const { tokyo } = seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    await user.type(box(), 'snow');
    expect(await screen.findByText('No conversation matches “snow”.')).toBeInTheDocument();
    act(() =>
      store().updateAttempt(tokyo.id, tokyo.messageId, tokyo.attemptId, (a) => ({
        ...a,
        turn: { ...a.turn, text: `${a.turn.text} Snow is likely.` },
      })),
    );
    const items = within(await results()).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(marks(items[0]!)).toEqual(['Snow']);
  });

  it('Ctrl+K focuses the box from anywhere; "/" only outside text fields', async () => {
    seed();
    const user = userEvent.setup();
    app.render(
      <>
        <ConversationList />
        <textarea aria-label="Message" />
      </>,
    );
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.click(message);
    await user.keyboard('/');
    expect(message).toHaveValue('/');
    expect(message).toHaveFocus();

    await user.keyboard('{Control>}k{/Control}');
    expect(box()).toHaveFocus();

    await user.type(box(), 'tok');
    await user.click(message);
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('/');
    expect(box()).toHaveFocus();
    // The box's text is selected, ready to be replaced.
    expect([(box() as HTMLInputElement).selectionStart, (box() as HTMLInputElement).selectionEnd]).toEqual([
      0, 3,
    ]);
  });

  it('does nothing while a modal dialog is open', () => {
    app.render(
      <>
        <ConversationList />
        <div role="dialog" aria-modal="true" aria-label="Settings" />
      </>,
    );
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(box()).not.toHaveFocus();
  });

  it('opens the drawer first when the sidebar is hidden, then focuses the box', () => {
    const onRequestOpen = vi.fn();
    const { rerender } = app.render(<ConversationList inert onRequestOpen={onRequestOpen} />);
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(onRequestOpen).toHaveBeenCalledTimes(1);
    rerender(<ConversationList inert={false} onRequestOpen={onRequestOpen} />);
    expect(box()).toHaveFocus();
  });
});
