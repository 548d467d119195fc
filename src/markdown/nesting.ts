/**
 * Hostile markdown must not freeze or crash the page: 5,000 nested `>` overflow the parser's and React's
 * stacks, and a 500-level nested list takes seconds to parse. Nesting deeper than MAX_NESTING is not
 * parsed: from the first line that goes deeper, the rest of the block is shown as plain text, as written.
 */
export const MAX_NESTING = 24;

const ORDERED = /^\d{1,9}[.)](?=[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})/;

/**
 * The fence open after `line` (its marks), given the one open before it: a line opens a fence with its
 * marks after any quote or list markers and indentation, and closes one with as many marks or more of the
 * same kind and nothing after them (a line with an info string is code).
 */
export function fenceAfter(line: string, open: string | null): string | null {
  let i = 0;
  while (i < line.length && ' \t>*+-.)0123456789'.includes(line[i]!)) i++;
  const marks = FENCE.exec(line.slice(i, i + 64))?.[1];
  if (marks === undefined) return open;
  if (open === null) return marks;
  const closes =
    marks[0] === open[0] && marks.length >= open.length && line.slice(i + marks.length).trim() === '';
  return closes ? null : open;
}

/**
 * How deeply one line nests: block quote markers, list markers and indentation (a nested list item needs
 * at least two more columns than its parent). An estimate, generous to ordinary text: only absurd
 * nesting reaches the limit.
 */
export function lineNesting(line: string): number {
  let depth = 0;
  let columns = 0;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ') {
      columns++;
      i++;
    } else if (c === '\t') {
      columns += 4 - (columns % 4);
      i++;
    } else if (c === '>') {
      depth++;
      i++;
    } else if (
      (c === '-' || c === '*' || c === '+') &&
      (i + 1 === line.length || line[i + 1] === ' ' || line[i + 1] === '\t')
    ) {
      depth++;
      i++;
    } else {
      const ordered = c >= '0' && c <= '9' ? ORDERED.exec(line.slice(i, i + 11)) : null;
      if (!ordered) break;
      depth++;
      i += ordered[0].length;
    }
  }
  return depth + (columns >> 1);
}

/**
 * Where `block` first nests too deeply: the offset of that line's start, or -1. Lines inside fenced code
 * are code, not nesting.
 */
export function tooDeepAt(block: string): number {
  let fence: string | null = null;
  let start = 0;
  while (start <= block.length) {
    let end = block.indexOf('\n', start);
    if (end === -1) end = block.length;
    const line = block.slice(start, end);
    if (fence === null && lineNesting(line) > MAX_NESTING) return start;
    fence = fenceAfter(line, fence);
    start = end + 1;
  }
  return -1;
}
