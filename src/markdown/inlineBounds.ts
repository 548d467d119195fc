import type { Element, RootContent } from 'hast';
import { splitChunks } from './codeChunks.ts';
import { fenceAfter } from './nesting.ts';

/**
 * Hostile inline markdown must not freeze or crash the page: 4,000 `*` around a letter take the parser
 * seconds and then overflow the stack, and the work grows with the square of such openers; an opener never
 * closed (a code span, an HTML comment, a link's destination) is searched for up to the paragraph's end.
 * So each run of inline content (a paragraph, a list item's first paragraph, a heading) is measured as the
 * parser will work on it before it is parsed, and from the first line that takes a run past a bound the
 * rest of the block is shown as written.
 *
 * Two measures of work, counted in one pass:
 * - pairs: each closing delimiter (`*`, `_`, `~` that can close, `]`) walks back to its opener, and the
 *   text between is worked on again, as often as the run closes: the syntax units (delimiter characters,
 *   brackets, backticks, `<`) between them. This bounds how deeply emphasis and links nest, too: n levels
 *   cost about n² units;
 * - searches: each opener searching forward for its closer (a code span's backticks, `<` of HTML or an
 *   autolink, a link's `(`): the characters up to the closer, or to the run's end while there is none;
 *   and each closing delimiter without an opener: the units back to the run's start.
 * Ordinary answers stay far below the bounds: their openers close within a few words.
 */
export const INLINE_BOUNDS = {
  /** Longer runs of one delimiter (or backticks): `***` is the longest any answer needs. */
  maxRun: 16,
  /** Lines in one run of inline content: each costs the parser as much as a few units. */
  maxLines: 500,
  /** Units walked back over by closing delimiters in one run of inline content. */
  maxPairWork: 2_000,
  /** Characters searched by openers in one run of inline content. */
  maxScanWork: 40_000,
  /** Characters in one run of inline content: a paragraph of 20,000 characters is not one anybody reads. */
  maxLength: 20_000,
} as const;

/** What one run of inline content costs the parser. */
export interface InlineMeasure {
  units: number;
  lines: number;
  longestRun: number;
  pairWork: number;
  /** Characters searched by openers that found their closer. */
  scanWork: number;
  length: number;
}

/** One run of inline content being measured. */
interface RunState {
  measure: InlineMeasure;
  /** Openers of emphasis by marker, and of links, as the unit count when they came. */
  openers: Map<string, number[]>;
  /** Openers searching for their closer, by closer: how many, and the sum of their offsets in the run. */
  searching: Map<string, { count: number; sum: number }>;
}

const WHITESPACE = /\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;
const BULLET = /^[-+*][ \t]/;
const FIRST_ORDERED = /^0*1[.)](?:[ \t]|$)/;
const ORDERED = /^\d{1,9}[.)](?:[ \t]|$)/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const LITERAL_LINK = /^(?:www\.|:\/\/|@)/;
/** What a `<` starts, and the closer the parser searches for. */
const ANGLE_CLOSERS: [RegExp, string][] = [
  [/^<!--/, '-->'],
  [/^<\?/, '?>'],
  [/^<!\[CDATA\[/, ']]>'],
  [/^<[!/]?[A-Za-z]/, '>'],
];

type Kind = 'space' | 'punctuation' | 'other';

function kindOf(char: string | undefined): Kind {
  if (char === undefined || WHITESPACE.test(char)) return 'space';
  return PUNCTUATION.test(char) ? 'punctuation' : 'other';
}

/** Whether a run of `marker` between `before` and `after` can open and close emphasis (CommonMark's flanking). */
function flanking(marker: string, before: Kind, after: Kind): { open: boolean; close: boolean } {
  const left = after !== 'space' && (after !== 'punctuation' || before !== 'other');
  const right = before !== 'space' && (before !== 'punctuation' || after !== 'other');
  // Inside a word, `_` does neither (snake_case); `*` does.
  if (marker === '_')
    return {
      open: left && (!right || before === 'punctuation'),
      close: right && (!left || after === 'punctuation'),
    };
  return { open: left, close: right };
}

function search(state: RunState, closer: string, at: number): void {
  const group = state.searching.get(closer) ?? { count: 0, sum: 0 };
  group.count++;
  group.sum += at;
  state.searching.set(closer, group);
}

/** Openers searching for `closer` find it at `at`. */
function found(state: RunState, closer: string, at: number): void {
  const group = state.searching.get(closer);
  if (!group) return;
  state.measure.scanWork += group.count * at - group.sum;
  state.searching.delete(closer);
}

/**
 * A closing delimiter walks back to its opener (or the run's start) and pairs with it, once per pair of
 * delimiters it can take from a run (`****` closes twice).
 */
function close(state: RunState, opener: string, run: number): boolean {
  const from = state.openers.get(opener)?.pop();
  // Only a walk back that finds nothing: a search.
  if (from === undefined) state.measure.scanWork += state.measure.units;
  else state.measure.pairWork += (state.measure.units - from) * Math.ceil(run / 2);
  return from !== undefined;
}

function open(state: RunState, opener: string): void {
  const stack = state.openers.get(opener);
  if (stack) stack.push(state.measure.units);
  else state.openers.set(opener, [state.measure.units]);
}

/** Counts one line of inline content into `state`; `offset` is the line's start in the run. */
function measureLine(line: string, offset: number, state: RunState): void {
  const measure = state.measure;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    const at = offset + i;
    // A backtick after a backslash still ends a code span (where backslashes are text).
    if (c === '\\' && line[i + 1] !== '`') {
      i += 2;
    } else if (c === '*' || c === '_' || c === '~' || c === '`') {
      let end = i + 1;
      while (line[end] === c) end++;
      const run = end - i;
      if (c === '`') {
        const closer = '`'.repeat(run);
        if (state.searching.has(closer)) found(state, closer, at);
        else search(state, closer, at);
      }
      const can = c === '`' ? null : flanking(c, kindOf(line[i - 1]), kindOf(line[end]));
      if (can === null || can.open || can.close) {
        measure.units += run;
        if (run > measure.longestRun) measure.longestRun = run;
      }
      // A run that can do both opens when it closes nothing (`2*3*4`).
      if (!(can?.close && close(state, c, run)) && can?.open) open(state, c);
      i = end;
    } else {
      if (c === '[') {
        measure.units++;
        open(state, '[');
      } else if (c === ']') {
        measure.units++;
        close(state, '[', 1);
        if (line[i + 1] === '(') search(state, ')', at);
      } else if (c === '<') {
        const closer = ANGLE_CLOSERS.find(([opening]) => opening.test(line.slice(i, i + 9)))?.[1];
        if (closer) {
          measure.units++;
          search(state, closer, at);
        }
      } else if (c === '>') {
        if (line[i - 1] === '-' && line[i - 2] === '-') found(state, '-->', at);
        if (line[i - 1] === '?') found(state, '?>', at);
        if (line[i - 1] === ']' && line[i - 2] === ']') found(state, ']]>', at);
        found(state, '>', at);
      } else if (c === ')') {
        found(state, ')', at);
      } else if ((c === 'w' || c === ':' || c === '@') && LITERAL_LINK.test(line.slice(i, i + 4))) {
        measure.units++;
      }
      i++;
    }
  }
  measure.lines++;
  measure.length += line.length + 1;
}

/** Whether `state` is within INLINE_BOUNDS, its openers still searching counted to its end. */
function withinBounds(state: RunState): boolean {
  const { measure } = state;
  let searching = 0;
  for (const { count, sum } of state.searching.values()) searching += count * measure.length - sum;
  return (
    measure.longestRun <= INLINE_BOUNDS.maxRun &&
    measure.lines <= INLINE_BOUNDS.maxLines &&
    measure.length <= INLINE_BOUNDS.maxLength &&
    measure.pairWork <= INLINE_BOUNDS.maxPairWork &&
    measure.scanWork + searching <= INLINE_BOUNDS.maxScanWork
  );
}

/** Columns of indentation of `line` after its block quote markers, and where its content starts. */
function indentation(line: string): { columns: number; at: number } {
  let columns = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i]!;
    if (c === '>') columns = 0;
    else if (c === ' ') columns++;
    else if (c === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return { columns, at: i };
}

export interface InlineRun {
  /** Offset of its first line in the block. */
  start: number;
  measure: InlineMeasure;
}

/**
 * The runs of inline content in `block` as the parser will see them, in order, and where the block first
 * goes past a bound (the offset of that line's start, the runs measured up to and with it), or -1. Lines
 * inside fenced code are left out (they are not parsed as markdown). A run ends at a blank line, at a list
 * item (an ordered one only where it cannot be a paragraph's text; not when indented enough to be the
 * paragraph's text) and around a heading: an estimate that never ends one earlier than the parser does.
 */
export function inlineRuns(block: string): { runs: InlineRun[]; cut: number } {
  const runs: InlineRun[] = [];
  let current: RunState | null = null;
  // The indentation of the current run's first line: a list marker indented 4 columns more is its text.
  let runIndent = 0;
  let fence: string | null = null;
  let inList = false;
  // In a GFM table each row's cells are inline content of their own.
  let inTable = false;
  let previous: { line: string; startsRun: boolean } | null = null;
  let start = 0;
  while (start <= block.length) {
    let end = block.indexOf('\n', start);
    if (end === -1) end = block.length;
    const line = block.slice(start, end);
    const after = fenceAfter(line, fence);
    if (fence !== null || after !== null) {
      if (fence === null) previous = null;
      fence = after;
      current = null;
    } else {
      const { columns, at } = indentation(line);
      const text = line.slice(at);
      if (text.trim() === '') {
        current = null;
        previous = null;
        inTable = false;
      } else {
        const marker = BULLET.test(text) || FIRST_ORDERED.test(text) || (inList && ORDERED.test(text));
        const item = marker && (current === null || columns < runIndent + 4);
        const heading = HEADING.test(text) && (current === null || columns < runIndent + 4);
        if (item) inList = true;
        if (item || heading) inTable = false;
        // A table: its header the first line of a run, and as many cells in it as in the delimiter row.
        if (
          previous?.startsRun &&
          TABLE_DELIMITER.test(text) &&
          text.includes('|') &&
          cellCount(text) === cellCount(previous.line)
        )
          inTable = true;
        const startsRun = current === null || item || heading || inTable;
        previous = { line: text, startsRun };
        if (startsRun || current === null) {
          const measure = { units: 0, lines: 0, longestRun: 0, pairWork: 0, scanWork: 0, length: 0 };
          current = { measure, openers: new Map(), searching: new Map() };
          runs.push({ start, measure });
          runIndent = columns;
        }
        measureLine(line, current.measure.length, current);
        if (!withinBounds(current)) return { runs, cut: start };
        if (heading || inTable) current = null;
      }
    }
    start = end + 1;
  }
  return { runs, cut: -1 };
}

/** The cells of a table row: its `|` not escaped, without a leading and a trailing one. */
function cellCount(row: string): number {
  const trimmed = row.trim();
  let pipes = 0;
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed[i] === '\\') i++;
    else if (trimmed[i] === '|') pipes++;
  }
  return (
    pipes + 1 - (trimmed.startsWith('|') ? 1 : 0) - (trimmed.endsWith('|') && trimmed.length > 1 ? 1 : 0)
  );
}

/**
 * Where `block` first goes past the inline bounds: the offset of that line's start, or -1. The parser then
 * gets the block up to there, and the rest is shown as written.
 */
export function inlineBoundAt(block: string): number {
  return inlineRuns(block).cut;
}

const AS_WRITTEN = 'md-too-deep';

/** Whether `node` is text shown as written, from `asWritten`. */
export function isAsWritten(node: RootContent): boolean {
  return (
    node.type === 'element' &&
    Array.isArray(node.properties.className) &&
    node.properties.className[0] === AS_WRITTEN
  );
}

/**
 * `text` shown as written, as the nesting bound shows what it does not parse (`md-too-deep`), in chunks of
 * lines so that while it grows only its last chunk changes.
 */
export function asWritten(text: string): Element {
  return {
    type: 'element',
    tagName: 'p',
    properties: { className: [AS_WRITTEN] },
    children: splitChunks(text).map(
      (chunk): Element => ({
        type: 'element',
        tagName: 'span',
        properties: { className: ['md-code-chunk'] },
        children: [{ type: 'text', value: chunk }],
      }),
    ),
  };
}
