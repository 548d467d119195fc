import type { Run } from './codeChunks.ts';
import type { HighlightRequest } from './highlight.worker.ts';

/**
 * Highlights a finished code block, once: in a worker where there is one, else (tests' DOM) on the main
 * thread, with the same code. The worker is made by the first request, never on import.
 */
let worker: Worker | null = null;
let broken = false;
let nextId = 1;
interface Waiting {
  code: string;
  language: string;
  resolve(chunks: Run[][] | null): void;
}
const waiting = new Map<number, Waiting>();

function startWorker(): Worker | null {
  if (worker || typeof Worker === 'undefined') return worker;
  try {
    worker = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  worker.addEventListener('message', (event: MessageEvent<{ id: number; chunks: Run[][] | null }>) => {
    const request = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    request?.resolve(event.data.chunks);
  });
  worker.addEventListener('error', () => {
    // The worker could not start (or died): what is waiting highlights on the main thread instead.
    worker = null;
    broken = true;
    for (const { code, language, resolve } of waiting.values())
      void onMainThread(code, language).then(resolve);
    waiting.clear();
  });
  return worker;
}

async function onMainThread(code: string, language: string): Promise<Run[][] | null> {
  const { highlightChunks } = await import('./highlightCore.ts');
  try {
    return highlightChunks(code, language);
  } catch {
    return null;
  }
}

/** The code's chunks with their colours, or null when the language is not one we highlight. */
export function highlightCode(code: string, language: string): Promise<Run[][] | null> {
  if (!language) return Promise.resolve(null);
  const target = broken ? null : startWorker();
  if (!target) return onMainThread(code, language);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, { code, language, resolve });
    const request: HighlightRequest = { id, code, language };
    target.postMessage(request);
  });
}
