/**
 * Coalesces values pushed faster than the screen refreshes into at most one `apply` per animation
 * frame, however fast deltas arrive. Browsers pause animation frames in hidden tabs, so there a timer
 * takes over, and every pending value is applied when the page is hidden: what streamed in the
 * background reaches the store, and from there storage, even if the tab is then closed.
 */

export interface FrameBatcher<T> {
  push(value: T): void;
  /** Applies the pending value now. */
  flush(): void;
  /** Drops the pending value: the caller applies a final one itself. */
  cancel(): void;
}

/** Makes the batchers of one session and flushes them all when its page is hidden. */
export interface FrameScheduler {
  batcher<T>(apply: (value: T) => void): FrameBatcher<T>;
  /** Stops listening to the page. */
  dispose(): void;
}

/** The part of `document` the scheduler needs: whether the page is hidden, and when that changes. */
export type PageVisibility = Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;

const hiddenDelayMs = 250;

export function createFrameScheduler(page: PageVisibility | undefined = globalThis.document): FrameScheduler {
  const active = new Set<{ flush(): void }>();
  const hidden = () => page?.hidden === true;
  const onVisibility = () => {
    if (hidden()) for (const batcher of active) batcher.flush();
  };
  page?.addEventListener('visibilitychange', onVisibility);
  const schedule = (run: () => void) => {
    if (typeof requestAnimationFrame === 'function' && !hidden()) requestAnimationFrame(run);
    else setTimeout(run, hidden() ? hiddenDelayMs : 16);
  };

  return {
    batcher<T>(apply: (value: T) => void): FrameBatcher<T> {
      let pending: { value: T } | null = null;
      let scheduled = false;
      const batcher: FrameBatcher<T> = {
        push(value) {
          pending = { value };
          active.add(batcher);
          if (!scheduled) {
            scheduled = true;
            schedule(() => {
              scheduled = false;
              batcher.flush();
            });
          }
        },
        flush() {
          active.delete(batcher);
          if (pending) {
            const { value } = pending;
            pending = null;
            apply(value);
          }
        },
        cancel() {
          active.delete(batcher);
          pending = null;
        },
      };
      return batcher;
    },
    dispose() {
      page?.removeEventListener('visibilitychange', onVisibility);
      active.clear();
    },
  };
}
