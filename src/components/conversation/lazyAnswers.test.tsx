import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, Conversation } from '../../state/domain/types.ts';
import { answerMessage, conversationViewActions } from '../../testing/builders.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { markdownRenderer } from '../markdown/LazyMarkdown.tsx';
import { ConversationView } from './ConversationView.tsx';

/** An IntersectionObserver the test drives: `reveal(element)` says it came near the view. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.observed.add(element);
  }
  unobserve(element: Element) {
    this.observed.delete(element);
  }
  disconnect() {
    this.observed.clear();
  }
  static reveal(element: Element) {
    for (const observer of FakeObserver.all.filter((o) => o.observed.has(element))) {
      const entry = {
        target: element,
        isIntersecting: true,
        rootBounds: null,
      } as unknown as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}

const answer = (id: string, text: string) =>
  answerMessage(id, { status: 'complete', text, parts: [{ kind: 'text', key: 't', text }] });

/** About a thousand characters of prose: an answer of ordinary length. */
const filler = 'Some words of an ordinary answer. '.repeat(30);

/** Fifty questions and answers, each answer with a table. */
function longConversation(): Conversation {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < 50; i++) {
    messages.push({ id: `u${i}`, role: 'user', text: `Question ${i}`, createdAt: 0 });
    messages.push(
      answer(`a${i}`, `## Answer ${i}\n\n${filler}\n\n| k | v |\n|---|---|\n| n | ${i} |\n\nfindme-${i}`),
    );
  }
  return { id: 'long', title: 'Long', createdAt: 0, updatedAt: 0, messages };
}

let app: TestApp;
beforeEach(async () => {
  app = createTestApp();
  await markdownRenderer(app.markdown).load();
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => vi.unstubAllGlobals());

describe('a long conversation renders lazily', () => {
  const props = conversationViewActions();

  // A loaded machine takes many seconds over fifty turns: the waits give it room, as a person would.
  const slow = { timeout: 60_000 };

  it(
    'renders what fills the view at once, the messages above it in the next tasks, their markdown as they come near',
    slow,
    async () => {
      app.render(<ConversationView {...props} conversation={longConversation()} />);
      // The first render: the end, what the view shows, with its markdown.
      const first = screen.getAllByTestId('assistant-turn');
      expect(first.length).toBeGreaterThan(0);
      expect(first.length).toBeLessThan(10);
      expect(first.at(-1)!.querySelector('.md table')).not.toBeNull();
      expect(first.at(-1)).toHaveTextContent('findme-49');

      // The rest follow, a few messages a task, in order.
      await waitFor(() => expect(screen.getAllByTestId('assistant-turn')).toHaveLength(50), {
        timeout: 30_000,
      });
      const turns = screen.getAllByTestId('assistant-turn');
      expect(screen.getAllByTestId('user-message').map((m) => m.textContent)).toEqual(
        Array.from({ length: 50 }, (_, i) => `Question ${i}`),
      );
      // Far from the view: the same text, as written (find-in-page and copy see it), not parsed.
      expect(turns[0]!.querySelector('.md')).toBeNull();
      expect(turns[0]!.querySelector('.md-deferred')?.textContent).toContain('| n | 0 |');
      expect(turns[0]).toHaveTextContent('findme-0');
      const rendered = document.querySelectorAll('.md').length;
      expect(rendered).toBeLessThan(10);

      // It comes near the view: rendered, in a task of its own (the turn as it is now, not as first found).
      const firstTurn = () => screen.getAllByTestId('assistant-turn')[0]!;
      const deferred = () => firstTurn().querySelector('.md-deferred')!;
      // Watched from its effect, which may run after its turn is on the page (the first turn is mounted last).
      await waitFor(() => expect(FakeObserver.all.some((o) => o.observed.has(deferred()))).toBe(true));
      act(() => FakeObserver.reveal(deferred()));
      await waitFor(() => expect(firstTurn().querySelector('.md table')).not.toBeNull(), { timeout: 30_000 });
      expect(document.querySelectorAll('.md')).toHaveLength(rendered + 1);
    },
  );

  it(
    'mounts the messages above the first screen only once the app’s first screen is on screen',
    slow,
    async () => {
      let painted = () => {};
      const firstPaint = new Promise<void>((resolve) => {
        painted = resolve;
      });
      app = createTestApp({ firstPaint });
      await markdownRenderer(app.markdown).load();
      app.render(<ConversationView {...props} conversation={longConversation()} />);
      const first = screen.getAllByTestId('assistant-turn').length;
      // Tasks go by (each would have mounted a few more): nothing more competes with the first paint.
      for (let i = 0; i < 5; i++) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
      expect(screen.getAllByTestId('assistant-turn')).toHaveLength(first);

      act(painted);
      await waitFor(() => expect(screen.getAllByTestId('assistant-turn')).toHaveLength(50), {
        timeout: 30_000,
      });
    },
  );

  it('renders every answer’s markdown where there is no IntersectionObserver', slow, async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    app.render(<ConversationView {...props} conversation={longConversation()} />);
    // Fifty tables parsed in this DOM take a while.
    await waitFor(() => expect(screen.getAllByTestId('assistant-turn')).toHaveLength(50), {
      timeout: 30_000,
    });
    await waitFor(() => expect(document.querySelectorAll('.md table')).toHaveLength(50), { timeout: 30_000 });
  });
});
