import { common, createLowlight } from 'lowlight';
import { CHUNK_LINES, type Run } from './codeChunks.ts';

/** What highlighting needs of lowlight's syntax tree. */
interface HastLike {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: readonly HastLike[];
}

/**
 * Highlights `code` as `language` and cuts the result into the same chunks as `splitChunks`: runs of text
 * with the innermost highlight.js classes (the stylesheet colours by those alone). Null for a language
 * that is not registered: such code stays plain.
 */
export type HighlightChunks = (code: string, language: string) => Run[][] | null;

/** Highlighting with the 37 common grammars, registered by its first use (in the worker, or on the page). */
export function createHighlightChunks(): HighlightChunks {
  let lowlight: ReturnType<typeof createLowlight> | null = null;
  return (code, language) => {
    if (!language) return null;
    lowlight ??= createLowlight(common);
    return lowlight.registered(language) ? chunksOf(lowlight.highlight(language, code)) : null;
  };
}

function chunksOf(root: unknown): Run[][] {
  const tree = root as HastLike;
  const chunks: Run[][] = [];
  let chunk: Run[] = [];
  let lines = 0;
  const push = (text: string, className: string) => {
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      if (++lines === CHUNK_LINES) {
        add(text.slice(start, i + 1), className);
        chunks.push(chunk);
        chunk = [];
        lines = 0;
        start = i + 1;
      }
    }
    if (start < text.length) add(text.slice(start), className);
  };
  const add = (text: string, className: string) => {
    if (className === '') {
      const last = chunk[chunk.length - 1];
      if (typeof last === 'string') chunk[chunk.length - 1] = last + text;
      else chunk.push(text);
    } else {
      chunk.push([className, text]);
    }
  };
  const walk = (node: HastLike, className: string) => {
    if (node.type === 'text') {
      push(node.value ?? '', className);
      return;
    }
    const classes = node.properties?.className;
    const own = Array.isArray(classes) ? classes.join(' ') : className;
    for (const child of node.children ?? []) walk(child, own);
  };
  walk(tree, '');
  if (chunk.length > 0 || chunks.length === 0) chunks.push(chunk);
  return chunks;
}
