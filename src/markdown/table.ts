import type { ElementContent, Element as HastElement, Root as HastRoot } from 'hast';
import { isAsWritten } from './inlineBounds.ts';

/**
 * A GFM table is one block, and was parsed whole on every frame while its rows streamed in (a 40-row table:
 * 15 ms a parse, more on a busy machine). Its rows parse the same in any grouping, as long as each group
 * comes with the table's header and delimiter rows (those alone decide columns and alignment), so a table
 * is parsed in groups of rows: a finished group is parsed once and kept; only the last one again.
 */
export const TABLE_ROWS_PER_GROUP = 8;

const DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** A line that would start another block (and so end the table), rather than be a row of it. */
const OTHER_BLOCK = /^(?: {4}|\t| {0,3}(?:[>#]|[-*+][ \t]|\d{1,9}[.)][ \t]|`{3}|~{3}|<))/;

/** A table's header and delimiter lines (`head`), and its rows. */
export interface TableSource {
  head: string;
  rows: string[];
}

/** The table's header and delimiter lines and its rows, when `block` is a GFM table and nothing else. */
export function tableRows(block: string): TableSource | null {
  const lines = block.split('\n');
  if (lines.length < 3 || !lines[0]!.includes('|') || !DELIMITER.test(lines[1]!)) return null;
  const rows = lines.slice(2);
  for (const row of rows) if (!row.includes('|') || OTHER_BLOCK.test(row)) return null;
  return { head: `${lines[0]}\n${lines[1]}`, rows };
}

function findTable(root: HastRoot): HastElement | null {
  for (const child of root.children) if (child.type === 'element' && child.tagName === 'table') return child;
  return null;
}

function tbodyOf(table: HastElement): HastElement | null {
  for (const child of table.children) if (child.type === 'element' && child.tagName === 'tbody') return child;
  return null;
}

/**
 * The table's syntax tree, from its groups of rows: `parse` turns markdown into a tree, `cache` keeps each
 * group's rows by its source. The same tree as one parse of the whole table, but for source positions.
 */
export function tableTree(
  table: TableSource,
  parse: (source: string) => HastRoot,
  cache: Map<string, HastRoot>,
): HastRoot | null {
  const groups: string[] = [];
  for (let i = 0; i < table.rows.length; i += TABLE_ROWS_PER_GROUP)
    groups.push(`${table.head}\n${table.rows.slice(i, i + TABLE_ROWS_PER_GROUP).join('\n')}`);
  const trees = groups.map((source) => {
    let tree = cache.get(source);
    if (!tree) {
      tree = parse(source);
      cache.set(source, tree);
    }
    return tree;
  });
  // Groups no longer in the table (it grew past them) are dropped from the cache.
  const live = new Set(groups);
  for (const key of cache.keys()) if (!live.has(key)) cache.delete(key);

  const first = trees[0] && findTable(trees[0]);
  const firstBody = first && tbodyOf(first);
  // A group cut short by the inline bounds ends in text shown as written: the whole table is parsed instead.
  if (!trees[0] || !first || !firstBody || trees.some((tree) => tree.children.some(isAsWritten))) return null;
  // One tbody: the first group's rows, then each next group's (its leading line feed left out, as a single
  // parse has one between rows).
  const rows: ElementContent[] = [...firstBody.children];
  for (const tree of trees.slice(1)) {
    const body = findTable(tree);
    const more = body && tbodyOf(body);
    if (!more) return null;
    rows.push(...(more.children[0]?.type === 'text' ? more.children.slice(1) : more.children));
  }
  const merged: HastElement = {
    ...first,
    children: first.children.map((child) => (child === firstBody ? { ...firstBody, children: rows } : child)),
  };
  return { ...trees[0], children: trees[0].children.map((child) => (child === first ? merged : child)) };
}
