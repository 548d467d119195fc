import { useState, useSyncExternalStore } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import type { LazyChunk } from '../../markdown/lazyChunk.ts';
import type { MarkdownResources } from '../../markdown/resources.ts';
import { pacing } from '../../session/pacing.ts';
import type { Renderer } from './Markdown.tsx';
// The rendered answers' styles come with the first screen's, not with the renderer's chunk: a reload's
// snapshot of answers (src/app/firstScreen) paints with them before the renderer is fetched.
import './highlight.css';
import './lazyMarkdown.css';
import './markdown.css';

// The markdown renderer lives in its own chunk, fetched when the first answer needs it, so the app shell
// paints without waiting for it. Until it is here a live answer shows as plain text, never hidden.
const fetchRenderer = () => import('./Markdown.tsx').then((chunk) => chunk.createRenderer());

/**
 * The app's renderer, fetched by `load()` as the first message is typed or sent, or at startup when the
 * first screen shows an answer. That resolves null when it could not be fetched (offline, a deploy removed
 * the chunk): answers then stay plain text, and the next answer to appear tries again.
 */
export function markdownRenderer(resources: MarkdownResources): LazyChunk<Renderer> {
  return resources.chunk(fetchRenderer);
}

/** Markdown once the renderer is here; until then the text as plain text, its line breaks kept. */
export function LazyMarkdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const renderer = markdownRenderer(useServices().markdown);
  const { module, failed } = useSyncExternalStore(renderer.subscribe, renderer.current, renderer.current);
  // An answer that appeared while streaming shows over a few frames, also when it finished (a fast
  // stream) before the renderer arrived.
  const [appearedLive] = useState(streaming);
  if (module === null) {
    // The renderer is a moment away: a fast stream's first burst is not laid out whole as plain text
    // just before it (the rest shows with the renderer, or at once if it cannot be fetched). A saved
    // answer waits, invisible but in its place, rather than flash as plain text.
    return (
      <div className={failed || appearedLive ? 'md-loading' : 'md-loading md-pending'}>
        {failed ? text : text.slice(0, pacing.charsPerFrame)}
      </div>
    );
  }
  return <module.Markdown engine={module.engine} text={text} streaming={streaming} catchUp={appearedLive} />;
}
