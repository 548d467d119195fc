import { useSyncExternalStore } from 'react';
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

/** Markdown once the renderer is here; until then the text as plain text, its line breaks kept. */
export function LazyMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const module = useSyncExternalStore(subscribe, current, current);
  if (module === null) return <div className="md-loading">{text}</div>;
  return <module.Markdown text={text} streaming={streaming} />;
}
