import type { Root as HastRoot } from 'hast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { asWritten, inlineBoundAt } from './inlineBounds.ts';
import { placeMath } from './mathNodes.ts';
import { extractMath } from './mathSyntax.ts';
import type { rehypeFormulas } from './rehypeFormulas.ts';
import { remarkHtmlAsText } from './remarkHtmlAsText.ts';

/** KaTeX's chunk, as the pipeline needs it. */
export interface MathRenderer {
  rehypeFormulas: typeof rehypeFormulas;
}

function build(math: MathRenderer | null) {
  const pipeline = unified().use(remarkParse).use(remarkGfm).use(remarkHtmlAsText).use(remarkRehype);
  return (math ? pipeline.use(math.rehypeFormulas) : pipeline).freeze();
}

type Pipeline = ReturnType<typeof build>;

export interface MarkdownProcessor {
  /**
   * Markdown source to an HTML syntax tree (raw HTML already turned into text). Formulas are rendered with
   * `math` (KaTeX) when given, else left as their TeX in `code` elements of class `math-inline`/`math-display`.
   * From the first line past the inline bounds (inlineBounds.ts) on, the source is shown as written.
   */
  toHast(source: string, math?: MathRenderer | null): HastRoot;
  /**
   * `source` (without formulas) parsed ahead of the render that will ask for it: the next `toHast(source)`
   * takes this tree instead of parsing again. A conversation's first screen is parsed so, in short tasks,
   * before the render that shows it (prepare.ts), which is then not one long task.
   */
  prepare(source: string): HastRoot;
}

/** Trees prepared and not yet taken, at most: more means they were for a render that never came. */
const PREPARED_MAX = 500;

/**
 * The markdown pipeline of one app, built by its first use and reused for every block of every answer
 * (react-markdown built a new one on each render). Highlighting is not part of it: code blocks are
 * highlighted once closed, off the main thread. Formulas are rendered by a second pipeline, the same plus
 * KaTeX, built once KaTeX has been fetched.
 */
export function createMarkdownProcessor(): MarkdownProcessor {
  let plain: Pipeline | null = null;
  let withMath: Pipeline | null = null;
  const pipelineFor = (math: MathRenderer | null): Pipeline => {
    if (!math) {
      plain ??= build(null);
      return plain;
    }
    withMath ??= build(math);
    return withMath;
  };
  const parse = (block: string, math: MathRenderer | null): HastRoot => {
    // Inline syntax past its bounds is not parsed: the rest of the block is shown as written.
    const cut = inlineBoundAt(block);
    const source = cut === -1 ? block : block.slice(0, cut);
    const formulas = extractMath(source);
    const pipeline = pipelineFor(formulas && math);
    const tree = pipeline.parse(formulas ? formulas.text : source);
    // Before the pipeline's own steps: raw HTML must become text with its formulas as written.
    if (formulas) placeMath(tree, formulas.formulas);
    const hast = pipeline.runSync(tree) as HastRoot;
    if (cut !== -1) hast.children.push(asWritten(block.slice(cut)));
    return hast;
  };
  // Taken once: a tree is made into elements by one render, and may be changed by it (footnote ids).
  const prepared = new Map<string, HastRoot>();
  return {
    toHast(block, math = null) {
      const ready = math ? undefined : prepared.get(block);
      if (!ready) return parse(block, math);
      prepared.delete(block);
      return ready;
    },
    prepare(source) {
      if (prepared.size >= PREPARED_MAX) prepared.clear();
      const tree = parse(source, null);
      prepared.set(source, tree);
      return tree;
    },
  };
}

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * A URL from model output, or '' when it is not safe to follow (`javascript:`, `data:` …): relative URLs
 * and http(s), mailto, irc and xmpp only, as react-markdown's default did.
 */
export function safeUrl(value: string): string {
  const colon = value.indexOf(':');
  const questionMark = value.indexOf('?');
  const numberSign = value.indexOf('#');
  const slash = value.indexOf('/');
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (questionMark !== -1 && colon > questionMark) ||
    (numberSign !== -1 && colon > numberSign) ||
    SAFE_PROTOCOL.test(value.slice(0, colon))
  ) {
    return value;
  }
  return '';
}
