import { type ListSource, listSource } from './list.ts';
import { tooDeepAt } from './nesting.ts';
import { type TableSource, tableRows } from './table.ts';

/**
 * How one top-level block of prose (not fenced code) is parsed: a table in groups of rows (table.ts), a
 * list item by item (list.ts), a block nested past the limit up to its too-deep line (the rest shown as
 * written), anything else in one parse.
 */
export type BlockPlan =
  | { kind: 'table'; table: TableSource }
  | { kind: 'list'; list: ListSource }
  | { kind: 'too-deep'; at: number }
  | { kind: 'prose' };

export function blockPlan(source: string): BlockPlan {
  const table = tableRows(source);
  if (table) return { kind: 'table', table };
  const at = tooDeepAt(source);
  if (at !== -1) return { kind: 'too-deep', at };
  const list = listSource(source);
  return list ? { kind: 'list', list } : { kind: 'prose' };
}

/**
 * A line that starts a reference-style link definition (`[label]: url`) or a footnote (`[^1]: note`),
 * also inside list items and quotes. A false match only costs one parse of the whole answer.
 */
const DEFINITION = /^[ \t]*(?:(?:[>*+-]|\d{1,9}[.)])[ \t]*)*\[[^\]\n]+\]:/m;

/**
 * Whether a finished answer is parsed whole, once: definitions (citations at its end) only resolve within
 * one parse. Not when it nests too deeply to parse whole.
 */
export function parsedWhole(text: string): boolean {
  return DEFINITION.test(text) && tooDeepAt(text) === -1;
}
