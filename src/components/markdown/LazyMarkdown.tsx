import { lazy, Suspense } from 'react';
import './lazyMarkdown.css';

type MarkdownModule = typeof import('./Markdown.tsx');
let loaded: MarkdownModule | null = null;

/**
 * The markdown renderer (with syntax highlighting, half of the app's code) lives in its own chunk, so the
 * app shell paints without waiting for it. `preloadMarkdown` starts the download at startup.
 */
export function preloadMarkdown(): Promise<MarkdownModule> {
  return import('./Markdown.tsx').then((module) => {
    loaded = module;
    return module;
  });
}

const Pending = lazy(() => preloadMarkdown().then((module) => ({ default: module.Markdown })));

/** Markdown once the renderer is here; until then the text as plain text, never hidden. */
export function LazyMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // Once loaded, rendered directly: a lazy component would still suspend on its first render in each place.
  if (loaded) return <loaded.Markdown text={text} streaming={streaming} />;
  return (
    <Suspense fallback={<div className="md-loading">{text}</div>}>
      <Pending text={text} streaming={streaming} />
    </Suspense>
  );
}
