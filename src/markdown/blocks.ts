/**
 * Splits markdown into top-level blocks so a streaming answer can be rendered block by block:
 * finished blocks never change, so they are parsed once; only the growing last block is re-parsed.
 *
 * A boundary is a run of blank lines followed by a line that starts at column 0. Blank lines inside
 * a fenced code block never split, and neither do blank lines followed by an indented line (a list
 * item's next paragraph, or an indented code block), which belong to the block above, nor blank lines
 * followed by the next item of a list at the margin: a loose list is one list (list.ts parses it item by
 * item). GFM tables end at the first blank line, so a table is never split either. A fenced code block at
 * the margin is a block of its own (it interrupts any paragraph, list or quote), from its opening to its
 * closing line.
 *
 * Reference-style link definitions and footnotes only resolve within their block: `Markdown` parses a
 * finished answer that has any as a whole.
 */

import { listMarkerKind, mayStartItem } from './list.ts';

interface Fence {
  char: '`' | '~';
  length: number;
  /** A top-level fence is a block of its own: its closing line ends the block. */
  own: boolean;
}

/** Everything needed to resume scanning where the previous call stopped. */
export interface BlockScan {
  /** The text this scan describes. */
  readonly text: string;
  /** Finished blocks. The array is reused (same reference) while no new block finishes. */
  readonly closed: readonly string[];
  /** The still-open last block (may be empty). */
  readonly tail: string;
  /** Where the open block starts. */
  readonly tailStart: number;
  /** Start of the first line not yet scanned completely (a line is complete once its `\n` arrived). */
  readonly pos: number;
  /** The fenced code block open at `pos`, if any. */
  readonly fence: Fence | null;
  /** Offset of the first blank line after the open block's content, while blank lines are pending. */
  readonly blankSince: number;
  /** Whether the open block has a non-blank line yet (leading blank lines are skipped). */
  readonly hasContent: boolean;
  /** The marker kind of the list item the open block's last line at the margin starts, if it does. */
  readonly listKind: string | null;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

function fenceOpening(line: string): Fence | null {
  const match = FENCE_OPEN.exec(line);
  if (!match) return null;
  const marks = match[1]!;
  const char = marks[0] as '`' | '~';
  // CommonMark: a backtick fence's info string may not contain backticks (that is inline code).
  if (char === '`' && match[2]!.includes('`')) return null;
  return { char, length: marks.length, own: false };
}

function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return !!match && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

function isBlank(line: string): boolean {
  return /^[ \t]*\r?$/.test(line);
}

/** A block that starts as raw HTML may hold a fence line as text: it is never split there. */
function startsHtml(text: string, start: number): boolean {
  return /^ {0,3}</.test(text.slice(start, start + 4));
}

function isIndented(line: string): boolean {
  return line[0] === ' ' || line[0] === '\t';
}

const initial = (text: string): BlockScan => ({
  text,
  closed: [],
  tail: '',
  tailStart: 0,
  pos: 0,
  fence: null,
  blankSince: -1,
  hasContent: false,
  listKind: null,
});

/**
 * Scans `text`, resuming from `previous` when `text` extends `previous.text` (the streaming case),
 * so the work per call is proportional to the new text plus the last line, not to the whole answer.
 * Anything else (a different or shorter text) is rescanned from the start.
 */
export function scanMarkdownBlocks(text: string, previous?: BlockScan | null): BlockScan {
  if (previous && previous.text === text) return previous;
  const state = previous && isContinuation(text, previous) ? previous : initial(text);

  let closed = state.closed;
  let { tailStart, pos, fence, blankSince, hasContent, listKind } = state;
  const newlyClosed: string[] = [];

  const closeBlockAt = (end: number, nextStart: number) => {
    newlyClosed.push(text.slice(tailStart, end).trimEnd());
    tailStart = nextStart;
    blankSince = -1;
    hasContent = false;
    listKind = null;
  };

  for (;;) {
    const newline = text.indexOf('\n', pos);
    if (newline === -1) {
      // The last line is incomplete: it may still grow, so it is not scanned for fences. But its first
      // character is final, so a boundary before it can already be decided. A CR at its end may be the
      // first half of a CRLF: read without it, as the line will be once its LF comes.
      const line = text.slice(pos, text.endsWith('\r') ? -1 : undefined);
      const decided = line !== '' && !isBlank(line) && !isIndented(line);
      if (
        fence === null &&
        blankSince >= 0 &&
        decided &&
        !(listKind !== null && mayStartItem(line, listKind))
      ) {
        closeBlockAt(blankSince, pos);
      }
      break;
    }
    const line = text.slice(pos, text[newline - 1] === '\r' ? newline - 1 : newline);
    if (fence !== null) {
      if (closesFence(line, fence)) {
        if (fence.own) closeBlockAt(newline, newline + 1);
        fence = null;
      }
    } else if (isBlank(line)) {
      if (hasContent && blankSince < 0) blankSince = pos;
    } else {
      const margin = !isIndented(line);
      const kind = margin ? listMarkerKind(line) : null;
      if (blankSince >= 0 && margin && (listKind === null || kind !== listKind))
        closeBlockAt(blankSince, pos);
      if (margin) listKind = kind;
      blankSince = -1;
      fence = fenceOpening(line);
      // A fence at the margin interrupts whatever block is open (CommonMark), so it starts a block of its
      // own: a long code block is then rendered without the markdown parser (see Markdown.tsx).
      if (fence && hasContent && !isIndented(line) && !startsHtml(text, tailStart)) closeBlockAt(pos, pos);
      if (fence && !hasContent) fence.own = true;
      if (!hasContent) {
        tailStart = pos; // skip leading blank lines
        hasContent = true;
      }
    }
    pos = newline + 1;
  }

  if (newlyClosed.length > 0) closed = [...closed, ...newlyClosed];
  return {
    text,
    closed,
    // Before any content, everything up to `pos` is blank lines: leave them out.
    tail: text.slice(hasContent ? tailStart : pos).trimEnd(),
    tailStart,
    pos,
    fence,
    blankSince,
    hasContent,
    listKind,
  };
}

/** Whether `text` is `previous.text` plus more, checking only the open block (the rest is final). */
function isContinuation(text: string, previous: BlockScan): boolean {
  if (text.length < previous.text.length) return false;
  return text.startsWith(previous.text.slice(previous.tailStart), previous.tailStart);
}

/** The top-level blocks of `text`, in order, without empty ones. */
export function splitMarkdownBlocks(text: string): string[] {
  const scan = scanMarkdownBlocks(text);
  return scan.tail === '' ? [...scan.closed] : [...scan.closed, scan.tail];
}
