import { type Formula, PLACEHOLDER } from './mathSyntax.ts';

/** A markdown syntax tree node, as far as formulas need it. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  [field: string]: unknown;
}

/**
 * A formula as remark-math makes it: a `code` element of class `math-inline` or `math-display`, which
 * `rehypeFormulas` renders with KaTeX (until KaTeX is here, the TeX shows as it is).
 */
function mathNode({ tex, display }: Formula): MdNode {
  return {
    type: 'inlineMath',
    value: tex,
    data: {
      hName: 'code',
      hProperties: { className: ['language-math', display ? 'math-display' : 'math-inline'] },
      hChildren: [{ type: 'text', value: tex }],
    },
  };
}

/** Text with formulas in it, as text and formula nodes. */
function split(value: string, formulas: readonly Formula[]): MdNode[] {
  const nodes: MdNode[] = [];
  let from = 0;
  for (const match of value.matchAll(PLACEHOLDER)) {
    const formula = formulas[Number(match[1])];
    if (!formula) continue;
    if (match.index > from) nodes.push({ type: 'text', value: value.slice(from, match.index) });
    nodes.push(mathNode(formula));
    from = match.index + match[0].length;
  }
  if (from < value.length) nodes.push({ type: 'text', value: value.slice(from) });
  return nodes;
}

const NOT_TEXT = new Set(['type', 'children', 'data', 'position']);

function place(node: MdNode, formulas: readonly Formula[]): void {
  for (const field of Object.keys(node)) {
    const value = node[field];
    if (!NOT_TEXT.has(field) && typeof value === 'string' && value.includes('\uE000'))
      node[field] = value.replace(PLACEHOLDER, (match, index) => formulas[Number(index)]?.source ?? match);
  }
  if (!node.children) return;
  node.children = node.children.flatMap((child) =>
    child.type === 'text' && child.value?.includes('\uE000') ? split(child.value, formulas) : [child],
  );
  for (const child of node.children) place(child, formulas);
}

/**
 * Puts the formulas `extractMath` took out back into the parsed tree: as formula nodes in text, and as
 * written anywhere else a placeholder ended up (code, raw HTML, a link's URL or title, a label).
 */
export function placeMath(tree: { type: string }, formulas: readonly Formula[]): void {
  place(tree as MdNode, formulas);
}
