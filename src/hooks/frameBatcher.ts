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

const hiddenDelayMs = 250;
const active = new Set<{ flush(): void }>();

globalThis.document?.addEventListener('visibilitychange', () => {
  if (document.hidden) for (const batcher of active) batcher.flush();
});

function hidden(): boolean {
  return globalThis.document?.hidden === true;
}

export function createFrameBatcher<T>(apply: (value: T) => void): FrameBatcher<T> {
  let pending: { value: T } | null = null;
  let scheduled = false;
  const schedule = (run: () => void) => {
    if (typeof requestAnimationFrame === 'function' && !hidden()) requestAnimationFrame(run);
    else setTimeout(run, hidden() ? hiddenDelayMs : 16);
  };
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
}
