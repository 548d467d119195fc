import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, Conversation } from '../../state/types.ts';
import { answerMessage, conversationViewActions } from '../../testing/builders.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { preloadMarkdown } from '../markdown/LazyMarkdown.tsx';
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
beforeAll(() => preloadMarkdown());
beforeEach(() => {
  app = createTestApp();
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => vi.unstubAllGlobals());

describe('a long conversation renders lazily', () => {
  const props = conversationViewActions();

  it('renders the answers near where it opens at once, the rest as plain text until they come near', async () => {
    app.render(<ConversationView {...props} conversation={longConversation()} />);
    const turns = screen.getAllByTestId('assistant-turn');
    expect(turns).toHaveLength(50);
    // Where it opens (its end): markdown at once, in the first render.
    expect(turns[49]!.querySelector('.md table')).not.toBeNull();
    expect(turns[48]!.querySelector('.md table')).not.toBeNull();
    // Far from it: the same text, as written (find-in-page and copy see it), not parsed.
    expect(turns[0]!.querySelector('.md')).toBeNull();
    expect(turns[0]!.querySelector('.md-deferred')?.textContent).toContain('| n | 0 |');
    expect(turns[0]).toHaveTextContent('findme-0');
    const rendered = document.querySelectorAll('.md').length;
    expect(rendered).toBeLessThan(10);

    // It comes near the view: rendered, in a task of its own.
    act(() => FakeObserver.reveal(turns[0]!.querySelector('.md-deferred')!));
    await waitFor(() => expect(turns[0]!.querySelector('.md table')).not.toBeNull());
    expect(document.querySelectorAll('.md')).toHaveLength(rendered + 1);
  });

  it('renders everything at once where there is no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    app.render(<ConversationView {...props} conversation={longConversation()} />);
    expect(document.querySelectorAll('.md table')).toHaveLength(50);
  });
});
