import { createHighlighter, type Highlighter } from './highlighter.ts';
import { type LazyChunk, lazyChunk } from './lazyChunk.ts';
import { createMarkdownProcessor, type MarkdownProcessor, type MathRenderer } from './processor.ts';

/**
 * What renders one app's answers, React aside: made when the renderer's chunk arrives (it holds unified and
 * the rest), kept with the app's markdown resources and disposed with them.
 */
export interface MarkdownEngine {
  readonly processor: MarkdownProcessor;
  readonly highlighter: Highlighter;
  /** KaTeX, fetched by `fetchMath` when a block first has a formula (an answer without one never does). */
  readonly math: LazyChunk<MathRenderer>;
  /** Terminates the highlighting worker; KaTeX arriving later is dropped. */
  dispose(): void;
}

export function createMarkdownEngine(
  fetchMath: () => Promise<MathRenderer>,
  highlighter: Highlighter = createHighlighter(),
): MarkdownEngine {
  const math = lazyChunk(fetchMath);
  return {
    processor: createMarkdownProcessor(),
    highlighter,
    math,
    dispose() {
      highlighter.dispose();
      math.dispose();
    },
  };
}
