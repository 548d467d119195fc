import { type LazyChunk, lazyChunk } from './lazyChunk.ts';

/**
 * What the markdown renderer of one app fetches and keeps: made once at startup (`src/app/main.tsx`), one
 * per test app (`src/testing/testApp.tsx`), handed down with the app's services and disposed with the app.
 * Nothing of it lives in a module: a new app starts with nothing fetched.
 */
export interface MarkdownResources {
  /**
   * The chunk `fetch` imports, fetched once for this app: the same function, the same chunk. The renderer's
   * is in `components/markdown/LazyMarkdown.tsx` (the React layer knows its own chunks; this one keeps them).
   */
  chunk<T>(fetch: () => Promise<T>): LazyChunk<T>;
  /** Disposes every chunk and what it made: the highlighting worker is terminated. */
  dispose(): void;
}

export function createMarkdownResources(): MarkdownResources {
  const chunks = new Map<() => Promise<unknown>, LazyChunk<unknown>>();
  return {
    chunk<T>(fetch: () => Promise<T>): LazyChunk<T> {
      return (chunks.get(fetch) ?? chunks.set(fetch, lazyChunk(fetch)).get(fetch)) as LazyChunk<T>;
    },
    dispose() {
      for (const chunk of chunks.values()) chunk.dispose();
    },
  };
}
