import rehypeKatex from 'rehype-katex';
import 'katex/dist/katex.min.css';
import './math.css';

/**
 * KaTeX, in a chunk of its own (about 80 kB gzip, and its fonts): fetched when an answer first shows a
 * formula, never for the first screen or for answers without one.
 */
export { rehypeKatex };

/**
 * Formulas come from a model, so KaTeX reads them as untrusted input: no `\href`, `\url` or `\html…`
 * (trust off), sizes capped (a `\rule{1e9em}` cannot make a huge box), macro expansion capped (a `\def`
 * that doubles itself cannot run away), and bad TeX is shown as written, in the error colour, never thrown.
 */
export const katexOptions = {
  trust: false,
  strict: 'ignore',
  maxSize: 50,
  maxExpand: 200,
  output: 'htmlAndMathml',
  errorColor: 'var(--danger, #c81e1e)',
} as const;
