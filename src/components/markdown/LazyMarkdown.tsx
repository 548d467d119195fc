import { useState, useSyncExternalStore } from 'react';
import './lazyMarkdown.css';

type MarkdownModule = typeof import('./Markdown.tsx');

// The markdown renderer (with syntax highlighting, half of the app's code) lives in its own chunk, so the
// app shell paints without waiting for it. Until it is here an answer shows as plain text, never hidden.
let loaded: MarkdownModule | null = null;
let loading: Promise<MarkdownModule | null> | null = null;
const listeners = new Set<() => void>();

/**
 * Starts fetching the renderer (the app calls it at startup). Resolves with it, or with null when it could
 * not be fetched (offline, a deploy removed the chunk): answers then stay plain text, and the next answer
 * to appear tries again.
 */
export function preloadMarkdown(): Promise<MarkdownModule | null> {
  loading ??= import('./Markdown.tsx').then(
    (module) => {
      loaded = module;
      for (const listener of listeners) listener();
      return module;
    },
    () => {
      loading = null;
      return null;
    },
  );
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  void preloadMarkdown();
  return () => listeners.delete(listener);
}

const current = () => loaded;

/** How much of a streaming answer shows as plain text while the renderer is being fetched. */
const PLAIN_WHILE_LOADING = 4_000;

/** Markdown once the renderer is here; until then the text as plain text, its line breaks kept. */
export function LazyMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const module = useSyncExternalStore(subscribe, current, current);
  // An answer that appeared while streaming shows over a few frames, also when it finished (a fast
  // stream) before the renderer arrived.
  const [appearedLive] = useState(streaming);
  if (module === null) {
    // The renderer is a moment away: a fast stream's first burst is not laid out whole as plain text
    // just before it (the rest shows with the renderer, or at once if it cannot be fetched).
    const shown = loading !== null ? text.slice(0, PLAIN_WHILE_LOADING) : text;
    return <div className="md-loading">{shown}</div>;
  }
  return <module.Markdown text={text} streaming={streaming} catchUp={appearedLive} />;
}
