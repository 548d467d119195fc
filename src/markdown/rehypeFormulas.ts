import type { ElementContent, Element as HastElement, Root as HastRoot, Parents } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import katex from 'katex';

/*
 * KaTeX, in a chunk of its own with its stylesheets (components/markdown/mathRenderer.ts; about 125 kB gzip,
 * and its fonts): fetched when an answer first shows a formula, never for the first screen or for answers
 * without one.
 */

/**
 * Formulas come from a model, so KaTeX reads them as untrusted input: no `\href`, `\url` or `\html…`
 * (trust off), sizes capped (a `\rule{1e9em}` cannot make a huge box), macro expansion capped (a `\def`
 * that doubles itself cannot run away), and bad TeX is shown as written, in the error colour, never thrown.
 */
const options = {
  trust: false,
  strict: 'ignore',
  maxSize: 50,
  maxExpand: 200,
  output: 'htmlAndMathml',
  errorColor: 'var(--danger, #c81e1e)',
  throwOnError: false,
} as const;

/**
 * KaTeX's markup for one formula, as a syntax tree. Parsed in JavaScript (parse5), never by the browser:
 * markup the browser parses has its `style` attributes refused by the page's CSP, where React sets
 * them through the CSSOM, which the CSP allows. (rehype-katex has the browser parse it.)
 */
function render(tex: string, displayMode: boolean): ElementContent[] {
  try {
    const nodes = fromHtml(katex.renderToString(tex, { ...options, displayMode }), { fragment: true })
      .children as ElementContent[];
    // A displayed formula wider than the column scrolls sideways: from the keyboard too (WCAG 2.1.1).
    for (const node of nodes) if (displayMode && node.type === 'element') node.properties.tabIndex = 0;
    return nodes;
  } catch (error) {
    // Not bad TeX, which KaTeX shows itself, but e.g. nesting that overflows its stack: shown as written.
    return [
      {
        type: 'element',
        tagName: 'span',
        properties: { className: ['katex-error'], title: String(error) },
        children: [{ type: 'text', value: tex }],
      },
    ];
  }
}

/** A formula `placeMath` left: `code.math-inline` or `code.math-display`, its TeX as its text. */
function formulaOf(node: ElementContent): { tex: string; display: boolean } | null {
  if (node.type !== 'element' || node.tagName !== 'code') return null;
  const classes = node.properties.className;
  if (!Array.isArray(classes) || !classes.includes('language-math')) return null;
  const text = node.children[0];
  return { tex: text?.type === 'text' ? text.value : '', display: classes.includes('math-display') };
}

function renderIn(parent: Parents): void {
  parent.children = (parent.children as ElementContent[]).flatMap((child) => {
    const formula = formulaOf(child);
    if (formula) return render(formula.tex, formula.display);
    if (child.type === 'element') renderIn(child as HastElement);
    return [child];
  }) as typeof parent.children;
}

/** Rehype plugin: every formula rendered with KaTeX. */
export function rehypeFormulas() {
  return (tree: HastRoot): void => renderIn(tree);
}
