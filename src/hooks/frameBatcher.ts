/**
 * Coalesces values pushed faster than the screen refreshes into at most one `apply` per animation
 * frame, however fast deltas arrive. `flush` applies the last pending value at once.
 */
export function createFrameBatcher<T>(apply: (value: T) => void): { push(value: T): void; flush(): void } {
  let pending: { value: T } | null = null;
  let scheduled = false;
  const schedule =
    typeof requestAnimationFrame === 'function'
      ? (run: () => void) => requestAnimationFrame(run)
      : (run: () => void) => setTimeout(run, 16);
  const flush = () => {
    scheduled = false;
    if (pending) {
      const { value } = pending;
      pending = null;
      apply(value);
    }
  };
  return {
    push(value) {
      pending = { value };
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
