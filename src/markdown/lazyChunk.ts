/** Where a chunk fetched on demand is: here (`module`), not yet, or its last fetch failed. */
export interface ChunkState<T> {
  readonly module: T | null;
  /** The last fetch failed (offline, a deploy removed the chunk); it stays so until a fetch succeeds. */
  readonly failed: boolean;
}

/** A chunk of code fetched on demand, once, and what became of it, for one app. */
export interface LazyChunk<T> {
  /** Starts the fetch (again after a failure); resolves with the module, or null when it failed. */
  load(): Promise<T | null>;
  current(): ChunkState<T>;
  /** Calls `listener` when the state changes, and starts the fetch if the chunk is not here. */
  subscribe(listener: () => void): () => void;
  /** Disposes the module (if it has `dispose`), now or when it arrives (then no listener hears of it). */
  dispose(): void;
}

/**
 * `fetch` imports the chunk, and may make from it what the app keeps: a module with `dispose` (a worker's
 * owner) is disposed with the chunk, also one that arrives after.
 */
export function lazyChunk<T>(fetch: () => Promise<T>): LazyChunk<T> {
  let state: ChunkState<T> = { module: null, failed: false };
  let loading: Promise<T | null> | null = null;
  let disposed = false;
  const listeners = new Set<() => void>();
  const set = (next: ChunkState<T>) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const disposeOf = (module: T | null) => (module as { dispose?(): void } | null)?.dispose?.();

  // Kept once it succeeds: every later load has the module at once.
  const load = (): Promise<T | null> =>
    (loading ??= fetch().then(
      (module) => {
        if (disposed) disposeOf(module);
        else set({ module, failed: false });
        return module;
      },
      () => {
        loading = null;
        set({ module: null, failed: true });
        return null;
      },
    ));

  return {
    load,
    current: () => state,
    subscribe(listener) {
      listeners.add(listener);
      if (!state.module) void load();
      return () => listeners.delete(listener);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      disposeOf(state.module);
    },
  };
}
