import { common, createLowlight } from 'lowlight';
import { CHUNK_LINES, type Run } from './codeChunks.ts';

/** What highlighting needs of lowlight's syntax tree. */
interface HastLike {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: readonly HastLike[];
}

let lowlight: ReturnType<typeof createLowlight> | null = null;

/** The 37 common grammars, registered once (on first use, not on import). */
function instance(): ReturnType<typeof createLowlight> {
  lowlight ??= createLowlight(common);
  return lowlight;
}

function knowsLanguage(language: string): boolean {
  return instance().registered(language);
}

/**
 * Highlights `code` as `language` and cuts the result into the same chunks as `splitChunks`: runs of text
 * with the innermost highlight.js classes (the stylesheet colours by those alone). Null for a language
 * that is not registered: such code stays plain, as before.
 */
export function highlightChunks(code: string, language: string): Run[][] | null {
  if (!language || !knowsLanguage(language)) return null;
  const tree = instance().highlight(language, code) as unknown as HastLike;
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
