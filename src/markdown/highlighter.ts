import type { Run } from './codeChunks.ts';
import type { HighlightRequest } from './highlight.worker.ts';
import type { HighlightChunks } from './highlightCore.ts';

/** Highlights finished code blocks for one app: in a worker where there is one, else on the page. */
export interface Highlighter {
  /** The code's chunks with their colours, or null when the language is not one we highlight. */
  highlight(code: string, language: string): Promise<Run[][] | null>;
  /** Terminates the worker; what is still waiting, and anything asked later, stays plain. */
  dispose(): void;
}

interface Waiting {
  code: string;
  language: string;
  resolve(chunks: Run[][] | null): void;
}

/** The highlighting worker, or null where the page cannot have one (tests' DOM, Node). */
function moduleWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  return new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module' });
}

/**
 * `startWorker` makes the worker, by the first request (never before: an app that shows no code never
 * starts one). A worker that cannot start, or dies, hands what is waiting to the page, with the same code.
 */
export function createHighlighter(startWorker: () => Worker | null = moduleWorker): Highlighter {
  let worker: Worker | null = null;
  let broken = false;
  let disposed = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  let onPage: Promise<HighlightChunks> | null = null;

  const highlightOnPage = async (code: string, language: string): Promise<Run[][] | null> => {
    onPage ??= import('./highlightCore.ts').then(({ createHighlightChunks }) => createHighlightChunks());
    const highlightChunks = await onPage;
    if (disposed) return null;
    try {
      return highlightChunks(code, language);
    } catch {
      return null;
    }
  };

  const started = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = startWorker();
    } catch {
      broken = true;
      return null;
    }
    worker?.addEventListener('message', (event: MessageEvent<{ id: number; chunks: Run[][] | null }>) => {
      const request = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      request?.resolve(event.data.chunks);
    });
    worker?.addEventListener('error', () => {
      worker?.terminate();
      worker = null;
      broken = true;
      for (const { code, language, resolve } of waiting.values())
        void highlightOnPage(code, language).then(resolve);
      waiting.clear();
    });
    return worker;
  };

  return {
    highlight(code, language) {
      if (!language || disposed) return Promise.resolve(null);
      const target = started();
      if (!target) return highlightOnPage(code, language);
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, { code, language, resolve });
        const request: HighlightRequest = { id, code, language };
        target.postMessage(request);
      });
    },
    dispose() {
      disposed = true;
      worker?.terminate();
      worker = null;
      for (const { resolve } of waiting.values()) resolve(null);
      waiting.clear();
    },
  };
}
