import { fenceAfter } from './nesting.ts';

/**
 * Formulas in model output, found before the markdown parser sees them: `$…$` and `\(…\)` inline, `$$…$$`
 * and `\[…\]` displayed. Each is replaced by a placeholder the parser passes through as text, so neither
 * markdown escapes nor emphasis can mangle the TeX, and a `|` in a formula does not split a table cell.
 *
 * A single `$` is math only as Pandoc reads it, so that prices stay text: the opening `$` is followed by a
 * non-space, the next `$` closes, and that one follows a non-space and is not followed by a digit
 * ("$5 and $10", "between $3 and $4 million" and "US$10" have no such pair). `\$` is a dollar sign. A
 * formula is never looked for in code (fenced blocks and code spans), never across a blank line, and one
 * without its closing delimiter (still streaming) stays text as written.
 */

export interface Formula {
  tex: string;
  display: boolean;
  /** As written, delimiters included: shown instead wherever a formula cannot be (a link's URL, code). */
  source: string;
}

export interface MathSource {
  /** The markdown with each formula replaced by its placeholder. */
  text: string;
  formulas: Formula[];
}

/**
 * KaTeX's work grows with the formula (1,000 characters of nested fractions or subscripts: 25–70 ms and
 * 150 kB of markup), so longer ones stay text: no real formula is that long, and a made-up one cannot
 * hold up the page.
 */
export const MAX_FORMULA_LENGTH = 1_500;
/** And so does it with their number: past this much TeX in one parse (a block), the rest stays text. */
export const MAX_MATH_PER_PARSE = 6_000;

const OPEN = '\uE000';
const CLOSE = '\uE001';
export const PLACEHOLDER = /\uE000(\d+)\uE001/g;

const MAY_HAVE_MATH = /\$|\\[([]/;
const BLANK_LINE = /\n[ \t]*\r?\n/g;
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const WHITESPACE = /\s/;
const DIGIT = /\d/;

/** Whether the character at `index` is escaped by an odd run of backslashes before it. */
function escaped(text: string, index: number): boolean {
  let count = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) count++;
  return count % 2 === 1;
}

/** The next unescaped `delimiter` at or after `from`, before `limit`; -1 if none. */
function findClosing(text: string, delimiter: string, from: number, limit: number): number {
  for (let at = text.indexOf(delimiter, from); at !== -1 && at < limit; at = text.indexOf(delimiter, at + 1))
    if (!escaped(text, at)) return at;
  return -1;
}

/**
 * The formulas of `source` and the text with placeholders, or null when it is to be parsed as it is: no
 * formula, no unclosed `\(` or `\[` (also when it holds the placeholder's own character: it is then
 * rendered without formulas, rather than lose that character).
 */
export function extractMath(source: string): MathSource | null {
  if (!MAY_HAVE_MATH.test(source) || source.includes(OPEN)) return null;
  const formulas: Formula[] = [];
  let text = '';
  let copied = 0;
  let budget = MAX_MATH_PER_PARSE;
  let fence: string | null = null;
  // Where the paragraph ends (no inline span crosses a blank line), found again only once passed.
  let paragraphEnd = -1;
  // Per closing delimiter (per backtick run length for code spans): the end of the last search that found
  // none. Openers only move forward, so a later search up to there would find none either: without this, a
  // long paragraph of unclosed openers would be searched to its end once per opener.
  const noClosing = new Map<string | number, number>();

  const closing = (delimiter: string, from: number, limit: number): number => {
    if ((noClosing.get(delimiter) ?? -1) >= limit) return -1;
    const at = findClosing(source, delimiter, from, limit);
    if (at === -1) noClosing.set(delimiter, limit);
    return at;
  };

  const endOfParagraph = (from: number) => {
    if (paragraphEnd < from) {
      BLANK_LINE.lastIndex = from;
      paragraphEnd = BLANK_LINE.exec(source)?.index ?? source.length;
    }
    return paragraphEnd;
  };

  /** A formula over several lines of a quote: its lines' `>` markers are not part of it. */
  const inQuote = (start: number, tex: string): string => {
    const lineStart = source.lastIndexOf('\n', start) + 1;
    return /^[ \t]*>/.test(source.slice(lineStart, start)) ? tex.replace(/\n[ \t]*(?:>[ \t]?)+/g, '\n') : tex;
  };

  /** Takes the formula from `start` to `end`, its TeX from `texStart` to `texEnd`, if it may be rendered. */
  const take = (start: number, texStart: number, texEnd: number, end: number, display: boolean): boolean => {
    const length = texEnd - texStart;
    if (length > MAX_FORMULA_LENGTH || length > budget) return false;
    const tex = source.slice(texStart, texEnd);
    if (tex.trim() === '') return false;
    budget -= length;
    text += source.slice(copied, start) + OPEN + formulas.length + CLOSE;
    formulas.push({
      tex: (tex.includes('\n') ? inQuote(start, tex) : tex).trim(),
      display,
      source: source.slice(start, end),
    });
    copied = end;
    return true;
  };

  /** A formula between `open` at `start` and the next unescaped `close`: where scanning resumes, or -1. */
  const delimited = (start: number, open: string, close: string, display: boolean): number => {
    const from = start + open.length;
    const end = closing(close, from, endOfParagraph(start));
    if (end === -1 || !take(start, from, end, end + close.length, display)) return -1;
    return end + close.length;
  };

  /** `$…$` as Pandoc reads it; see above. */
  const dollar = (start: number): number => {
    const next = source[start + 1] ?? ' ';
    if (WHITESPACE.test(next)) return -1;
    const end = closing('$', start + 1, endOfParagraph(start));
    if (end === -1 || WHITESPACE.test(source[end - 1]!) || DIGIT.test(source[end + 1] ?? '')) return -1;
    return take(start, start + 1, end, end + 1, false) ? end + 1 : -1;
  };

  /** A code span from the run of `length` backticks at `start`: where it ends, or -1 if it is not closed. */
  const codeSpan = (start: number, length: number): number => {
    const limit = endOfParagraph(start);
    if ((noClosing.get(length) ?? -1) >= limit) return -1;
    for (let at = source.indexOf('`', start + length); at !== -1 && at < limit; ) {
      let run = 1;
      while (source[at + run] === '`') run++;
      if (run === length) return at + run;
      at = source.indexOf('`', at + run);
    }
    noClosing.set(length, limit);
    return -1;
  };

  let i = 0;
  while (i < source.length) {
    if (i === 0 || source[i - 1] === '\n') {
      // Fenced code, also inside quotes and lists: its lines are skipped whole.
      let lineEnd = source.indexOf('\n', i);
      if (lineEnd === -1) lineEnd = source.length;
      const after = fenceAfter(source.slice(i, lineEnd), fence);
      if (fence !== null || after !== null) {
        fence = after;
        i = lineEnd + 1;
        continue;
      }
    }
    const c = source[i];
    let next = -1;
    if (c === '\\') {
      const after = source[i + 1] ?? '';
      if (after === '(' || after === '[') {
        next = after === '(' ? delimited(i, '\\(', '\\)', false) : delimited(i, '\\[', '\\]', true);
        if (next === -1) {
          // Not closed (yet): shown as written, its backslash kept rather than read as an escape.
          text += `${source.slice(copied, i)}\\`;
          copied = i;
        }
      }
      if (next === -1) next = ESCAPABLE.test(after) ? i + 2 : i + 1;
    } else if (c === '`') {
      let length = 1;
      while (source[i + length] === '`') length++;
      next = codeSpan(i, length);
      if (next === -1) next = i + length;
    } else if (c === '$') {
      next = source[i + 1] === '$' ? delimited(i, '$$', '$$', true) : dollar(i);
      if (next === -1) next = source[i + 1] === '$' ? i + 2 : i + 1;
    } else {
      next = i + 1;
    }
    i = next;
  }
  if (text === '') return null;
  return { text: text + source.slice(copied), formulas };
}

/** Whether `source` has a formula to render (what KaTeX is fetched for). */
export function hasFormulas(source: string): boolean {
  return (extractMath(source)?.formulas.length ?? 0) > 0;
}
