import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFollowStream } from './useFollowStream.ts';

/**
 * A ResizeObserver that reports when the test says the browser has laid out (`layout`): each target
 * observed since the last report, as a real one reports a new observation after the next layout.
 */
class LayoutObserver {
  static current: LayoutObserver | null = null;
  private readonly due = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    LayoutObserver.current = this;
  }
  observe(target: Element) {
    this.due.add(target);
  }
  unobserve(target: Element) {
    this.due.delete(target);
  }
  disconnect() {
    this.due.clear();
  }
  /** The browser laid out (the content `height` pixels tall): the observations due are reported. */
  static layout(height = 5_000) {
    const observer = LayoutObserver.current;
    if (!observer?.due.size) return;
    const entries = [...observer.due].map(
      (target) =>
        ({
          target,
          contentRect: { height },
          borderBoxSize: [{ blockSize: height }],
        }) as unknown as ResizeObserverEntry,
    );
    observer.due.clear();
    act(() => observer.callback(entries, observer as unknown as ResizeObserver));
  }
}

function Pane({ conversation = 'conv_1' }: { conversation?: string }) {
  const { scrollerRef, contentRef, detached } = useFollowStream(conversation);
  return (
    <>
      <div ref={scrollerRef} data-testid="pane">
        <div ref={contentRef}>
          <p data-message-id="m1">Question</p>
          <p data-message-id="m2">Answer</p>
        </div>
      </div>
      {detached && <button type="button">Jump to latest</button>}
    </>
  );
}

/** Reads of the pane's layout (each forces one where the page changed since the last). */
let layoutReads: string[] = [];

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', LayoutObserver);
  layoutReads = [];
  const measured = (name: string, value: number) =>
    vi.spyOn(HTMLElement.prototype, name as 'scrollHeight', 'get').mockImplementation(() => {
      layoutReads.push(name);
      return value;
    });
  measured('scrollHeight', 5_000);
  measured('clientHeight', 500);
  measured('offsetTop', 0);
  measured('offsetHeight', 2_500);
});
afterEach(() => {
  cleanup();
  LayoutObserver.current = null;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const jump = () => screen.queryByRole('button', { name: 'Jump to latest' });

describe('useFollowStream', () => {
  it('reads no layout in the scroll event: it learns where the person scrolled after the next layout', () => {
    render(<Pane />);
    const pane = screen.getByTestId('pane');
    LayoutObserver.layout();
    expect(pane.scrollTop).toBe(5_000);

    // The person scrolls up: the event only asks for a measurement after the next layout.
    layoutReads = [];
    pane.scrollTop = 1_000;
    act(() => pane.dispatchEvent(new Event('scroll')));
    act(() => pane.dispatchEvent(new Event('scroll')));
    expect(layoutReads).toEqual([]);
    expect(jump()).toBeNull();
    LayoutObserver.layout();
    expect(layoutReads).toContain('scrollHeight');
    expect(jump()).not.toBeNull();
    // No longer following: the view stays where the person left it.
    expect(pane.scrollTop).toBe(1_000);

    // Back at the end by hand: following again, after the next layout too.
    layoutReads = [];
    pane.scrollTop = 4_500;
    act(() => pane.dispatchEvent(new Event('scroll')));
    expect(layoutReads).toEqual([]);
    expect(jump()).not.toBeNull();
    LayoutObserver.layout();
    expect(jump()).toBeNull();
  });

  /** The pane scrolled up by hand and no longer following, the content 5,000 tall with 500 shown. */
  function scrolledUp(): HTMLElement {
    const { rerender } = render(<Pane />);
    switched = (conversation) => rerender(<Pane conversation={conversation} />);
    const pane = screen.getByTestId('pane');
    LayoutObserver.layout();
    pane.scrollTop = 1_000;
    act(() => pane.dispatchEvent(new Event('scroll')));
    LayoutObserver.layout();
    expect(jump()).not.toBeNull();
    return pane;
  }

  let switched: (conversation: string) => void = () => {};

  /** The person scrolls to `top`, and 300 pixels of output come before the next layout. */
  function scrollWhileOutputArrives(pane: HTMLElement, top: number) {
    pane.scrollTop = top;
    act(() => pane.dispatchEvent(new Event('scroll')));
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(() => 5_300);
    LayoutObserver.layout(5_300);
  }

  it('back at the end by hand while output arrives before the next layout: following again', () => {
    scrollWhileOutputArrives(scrolledUp(), 4_500);
    expect(jump()).toBeNull();
  });

  it('short of the end, output arriving meanwhile does not count as reaching it', () => {
    scrollWhileOutputArrives(scrolledUp(), 4_000);
    expect(jump()).not.toBeNull();
  });

  it('back to a conversation left mid-way: its position is restored, the other one’s height not taken for output', () => {
    const pane = scrolledUp();
    // A shorter conversation in between, followed at its end.
    switched('conv_2');
    LayoutObserver.layout(1_490);
    // Back: the position is restored; the browser's own adjustment of it fires a scroll before the layout.
    switched('conv_1');
    pane.scrollTop = 990;
    act(() => pane.dispatchEvent(new Event('scroll')));
    LayoutObserver.layout(5_000);
    expect(jump()).not.toBeNull();
  });
});
