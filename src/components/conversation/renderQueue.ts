import { flushSync } from 'react-dom';

/**
 * Renders finished answers' markdown as they come near the view, one answer per task, so that opening a
 * long conversation is never one long task. Until its turn an answer shows its text as plain text (found by
 * find-in-page, copied as is), offscreen where nobody sees it.
 *
 * Nothing starts when this is made: the IntersectionObserver is created by the first `observe` (from an
 * effect). Without IntersectionObserver (tests' DOM) everything renders at once.
 */
export interface RenderQueue {
  /** Calls `show` once `element` comes within about a screen of the view; returns the unsubscribe. */
  observe(element: Element, show: () => void): () => void;
  dispose(): void;
}

/** How far beyond the visible part an answer starts to render: about a screen either way. */
const MARGIN = '120% 0px';

export function createRenderQueue(root: () => Element | null): RenderQueue {
  let observer: IntersectionObserver | null = null;
  const waiting = new Map<Element, () => void>();
  const ready: Element[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const drain = () => {
    timer = null;
    const element = ready.shift();
    if (!element) return;
    const show = waiting.get(element);
    waiting.delete(element);
    observer?.unobserve(element);
    // Its own render and commit, in its own task: the next one waits for the next task.
    if (show) flushSync(show);
    if (ready.length > 0) timer = setTimeout(drain, 0);
  };

  const ensureObserver = (): IntersectionObserver | null => {
    if (observer || typeof IntersectionObserver === 'undefined') return observer;
    observer = new IntersectionObserver(
      (entries) => {
        // Nearest to the view first: the ones that may show soonest.
        const near = entries.filter((e) => e.isIntersecting && waiting.has(e.target));
        near.sort((a, b) => distance(a) - distance(b));
        for (const entry of near) if (!ready.includes(entry.target)) ready.push(entry.target);
        if (ready.length > 0 && timer === null) timer = setTimeout(drain, 0);
      },
      { root: root(), rootMargin: MARGIN },
    );
    return observer;
  };

  return {
    observe(element, show) {
      const io = ensureObserver();
      if (!io) {
        show();
        return () => {};
      }
      waiting.set(element, show);
      io.observe(element);
      return () => {
        waiting.delete(element);
        io.unobserve(element);
        const index = ready.indexOf(element);
        if (index >= 0) ready.splice(index, 1);
      };
    },
    dispose() {
      observer?.disconnect();
      observer = null;
      waiting.clear();
      ready.length = 0;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

function distance(entry: IntersectionObserverEntry): number {
  const root = entry.rootBounds;
  if (!root) return 0;
  const box = entry.boundingClientRect;
  if (box.bottom < root.top) return root.top - box.bottom;
  if (box.top > root.bottom) return box.top - root.bottom;
  return 0;
}
