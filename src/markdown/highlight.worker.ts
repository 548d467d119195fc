/**
 * The highlighting worker: highlight.js (through lowlight) runs here, off the page's main thread, so a
 * 2,000-line block highlights without a long task; the page applies the result a few chunks per frame.
 */
import { createHighlightChunks } from './highlightCore.ts';

export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
}

declare const WorkerGlobalScope: (new () => unknown) | undefined;

// Only inside a worker: importing this file anywhere else starts nothing.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  const highlightChunks = createHighlightChunks();
  self.addEventListener('message', (event: MessageEvent<HighlightRequest>) => {
    const { id, code, language } = event.data;
    let chunks = null;
    try {
      chunks = highlightChunks(code, language);
    } catch {
      // A grammar that throws leaves the code plain.
    }
    self.postMessage({ id, chunks });
  });
}
