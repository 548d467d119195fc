import { useState, useSyncExternalStore } from 'react';
import './lazyMarkdown.css';

type MarkdownModule = typeof import('./Markdown.tsx');

// The markdown renderer lives in its own chunk, fetched when the first answer needs it, so the app shell
// paints without waiting for it. Until it is here a live answer shows as plain text, never hidden.
interface RendererState {
  module: MarkdownModule | null;
  /** The last fetch failed: answers stay plain text (until the next answer to appear tries again). */
  failed: boolean;
}

let state: RendererState = { module: null, failed: false };
let loading: Promise<MarkdownModule | null> | null = null;
const listeners = new Set<() => void>();

function set(next: RendererState): void {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * Starts fetching the renderer (as the first message is typed or sent, or at startup when the first
 * screen shows an answer). Resolves with it, or with null when it could not be fetched (offline, a deploy removed the
 * chunk): answers then stay plain text, and the next answer to appear tries again.
 */
export function preloadMarkdown(): Promise<MarkdownModule | null> {
  if (loading) return loading;
  if (state.failed) set({ module: null, failed: false });
  loading = import('./Markdown.tsx').then(
    (module) => {
      set({ module, failed: false });
      whenIdle(module.warmUp);
      return module;
    },
    () => {
      loading = null;
      set({ module: null, failed: true });
      return null;
    },
  );
  return loading;
}

/** Runs `work` when the page has nothing else to do (soon, where the browser cannot say when that is). */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 1_000 });
  else setTimeout(work, 0);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!state.module) void preloadMarkdown();
  return () => listeners.delete(listener);
}

const current = () => state;

/** How much of a streaming answer shows as plain text while the renderer is being fetched. */
const PLAIN_WHILE_LOADING = 4_000;

/** Markdown once the renderer is here; until then the text as plain text, its line breaks kept. */
export function LazyMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const { module, failed } = useSyncExternalStore(subscribe, current, current);
  // An answer that appeared while streaming shows over a few frames, also when it finished (a fast
  // stream) before the renderer arrived.
  const [appearedLive] = useState(streaming);
  if (module === null) {
    // The renderer is a moment away: a fast stream's first burst is not laid out whole as plain text
    // just before it (the rest shows with the renderer, or at once if it cannot be fetched).
    if (failed) return <div className="md-loading">{text}</div>;
    // A saved answer waits, invisible but in its place, rather than flash as plain text.
    if (!appearedLive)
      return <div className="md-loading md-pending">{text.slice(0, PLAIN_WHILE_LOADING)}</div>;
    return <div className="md-loading">{text.slice(0, PLAIN_WHILE_LOADING)}</div>;
  }
  return <module.Markdown text={text} streaming={streaming} catchUp={appearedLive} />;
}
