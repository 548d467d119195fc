import { yieldToEventLoop } from '../core/index.ts';
import { pacing } from './pacing.ts';

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
  /**
   * Resolves in a task after the frame that applies what was pushed has been painted (in a new task at once
   * when no frame is due, or the page is hidden): the stream reader's yield, so that a fast stream's
   * first output shows in the next frame and its reading is spread over frames, not run between them.
   */
  shown(): Promise<void>;
}

/** Makes the batchers of one session and flushes them all when its page is hidden. */
export interface FrameScheduler {
  batcher<T>(apply: (value: T) => void): FrameBatcher<T>;
  /** Whether the page is hidden: what is applied then may be the last the page ever applies. */
  hidden(): boolean;
  /**
   * Resolves in the next animation frame, so that what the caller then changes is laid out in that frame's
   * task and not in the caller's; at once when the page is hidden (no frame to wait for), and after
   * `maxFrameWaitMs` when no frame comes.
   */
  nextFrame(): Promise<void>;
  /** Stops listening to the page. */
  dispose(): void;
}

/** The part of `document` the scheduler needs: whether the page is hidden, and when that changes. */
export type PageVisibility = Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;

export function createFrameScheduler(page: PageVisibility | undefined = globalThis.document): FrameScheduler {
  const active = new Set<{ flush(): void }>();
  const hidden = () => page?.hidden === true;
  /** Readers waiting for the next frame to be painted, and the timer that lets them go if it never is. */
  let waiters: (() => void)[] = [];
  let waitLimit: ReturnType<typeof setTimeout> | null = null;
  const release = () => {
    if (waitLimit !== null) clearTimeout(waitLimit);
    waitLimit = null;
    const released = waiters;
    waiters = [];
    // A task posted while a frame runs comes after that frame is painted.
    if (!released.length) return;
    void yieldToEventLoop().then(() => {
      for (const resolve of released) resolve();
    });
  };
  const onVisibility = () => {
    if (!hidden()) return;
    for (const batcher of active) batcher.flush();
    release();
  };
  page?.addEventListener('visibilitychange', onVisibility);
  const schedule = (run: () => void) => {
    if (typeof requestAnimationFrame === 'function' && !hidden()) requestAnimationFrame(run);
    else setTimeout(run, hidden() ? pacing.hiddenFrameMs : pacing.timerFrameMs);
  };

  return {
    hidden,
    nextFrame() {
      if (hidden()) return Promise.resolve();
      return new Promise((resolve) => {
        const limit = setTimeout(resolve, pacing.maxFrameWaitMs);
        schedule(() => {
          clearTimeout(limit);
          resolve();
        });
      });
    },
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
              release();
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
        shown() {
          if (!scheduled || hidden()) return yieldToEventLoop();
          return new Promise((resolve) => {
            waiters.push(resolve);
            waitLimit ??= setTimeout(release, pacing.maxFrameWaitMs);
          });
        },
      };
      return batcher;
    },
    dispose() {
      page?.removeEventListener('visibilitychange', onVisibility);
      active.clear();
      release();
    },
  };
}
