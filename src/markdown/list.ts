import type { Element as HastElement, Root as HastRoot, RootContent } from 'hast';
import { isAsWritten } from './inlineBounds.ts';
import { fenceAfter } from './nesting.ts';

/**
 * A list is one block, and was parsed whole on every frame while its items streamed in (a 20-item list of
 * one sentence each: 4 ms a parse in Node, over 10 on a busy page). An item parses the same alone as in its
 * list, once the list's looseness is known, so a list is parsed item by item: a finished item is parsed
 * once and kept; only the last one again. What this split cannot be sure of (lazy continuation lines,
 * a second list, a thematic break, an empty item before the end) is left to one parse of the whole block.
 */
export interface ListSource {
  /** The markdown the list interrupts, in the same block (`Steps:` right above `1. …`), or ''. */
  lead: string;
  /** Each item's lines, the blank lines between items left out. */
  items: string[];
  /** The first item's marker: `-`, `+`, `*`, or a number and its delimiter. */
  marker: string;
  /** An ordered list's first number: the list's `start`. */
  start: number | null;
  /** A blank line between two items: the whole list is loose (its paragraphs are `<p>`s). */
  blankBetween: boolean;
}

const MARKER = /^( {0,3})(?:([-+*])|(\d{1,9})([.)]))(?: ( *)|$)/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?: *\1){2,} *$/;
/** Lines that may stand before the list in its block: they start no HTML, table, code or container. */
const LEAD_LINE = /^[^\s<|>]/;

interface Marker {
  indent: number;
  /** The bullet, or an ordered list's delimiter: a different one starts a different list. */
  kind: string;
  number: number | null;
  /** Where the item's content starts: a line indented this far belongs to the item. */
  column: number;
  empty: boolean;
}

function markerOf(line: string): Marker | null {
  const match = MARKER.exec(line);
  if (!match || THEMATIC_BREAK.test(line)) return null;
  const [whole, indent, bullet, digits, delimiter, spaces] = match;
  const markerEnd = indent!.length + (bullet ?? `${digits}${delimiter}`).length;
  const empty = whole.length === line.length;
  // Content indented five or more past the marker is code starting one column after it (CommonMark).
  const gap = empty || spaces === undefined || spaces.length >= 4 ? 1 : spaces.length + 1;
  return {
    indent: indent!.length,
    kind: bullet ?? delimiter!,
    number: digits === undefined ? null : Number.parseInt(digits, 10),
    column: markerEnd + gap,
    empty,
  };
}

/** The marker kind (`-`, `+`, `*`, `.` or `)`) of a line that starts a list item, or null. */
export function listMarkerKind(line: string): string | null {
  return markerOf(line)?.kind ?? null;
}

/** Whether `line`, still arriving, may yet start an item of a list whose markers are of `kind`. */
export function mayStartItem(line: string, kind: string): boolean {
  return line === kind || listMarkerKind(line) === kind || (/[.)]/.test(kind) && /^\d{1,9}$/.test(line));
}

const isBlank = (line: string) => /^[ \t]*$/.test(line);

/** The column a line's text starts at: a tab goes on to the next multiple of four (CommonMark). */
function indentOf(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === ' ') column++;
    else if (char === '\t') column += 4 - (column % 4);
    else break;
  }
  return column;
}

/** The list in `block` split into its items, or null when the block is not one list this split is sure of. */
export function listSource(block: string): ListSource | null {
  if (block.includes('\r')) return null;
  const lines = block.split('\n');
  const first = lines.findIndex((line) => markerOf(line) !== null);
  if (first === -1) return null;
  const lead = lines.slice(0, first);
  const opening = markerOf(lines[first]!)!;
  let current = opening;
  // Only a bullet with content, or an ordered item numbered 1, may interrupt a paragraph; and a list
  // nested at the start of that item is read differently there than in the item alone.
  const interrupts =
    !current.empty &&
    (current.number === null || current.number === 1) &&
    markerOf(lines[first]!.slice(current.column)) === null;
  if (lead.length > 0 && !interrupts) return null;
  if (!lead.every((line) => LEAD_LINE.test(line))) return null;

  const { indent, kind } = current;
  const items: string[] = [];
  let start = first;
  let end = first + 1; // past the item's last non-blank line
  let blankBetween = false;
  let fence = fenceAfter(lines[first]!, null);
  for (let i = first + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) continue;
    if (indentOf(line) >= current.column && !current.empty) {
      fence = fenceAfter(line, fence);
      end = i + 1;
      continue;
    }
    const next = markerOf(line);
    // An item's fence left open is closed by the next item, the blank lines before it then its code.
    if (next === null || next.indent !== indent || next.kind !== kind || current.empty || fence !== null)
      return null;
    items.push(lines.slice(start, end).join('\n'));
    if (end < i) blankBetween = true;
    current = next;
    fence = fenceAfter(line, null);
    start = i;
    end = i + 1;
  }
  items.push(lines.slice(start, end).join('\n'));
  return {
    lead: lead.join('\n'),
    items,
    marker: opening.number === null ? kind : `${opening.number}${kind}`,
    start: opening.number,
    blankBetween,
  };
}

/** The list's parts as one parse of the whole block would give them: what comes before it, and its items. */
export interface ListParts {
  /** The lead's nodes (none without a lead). */
  lead: RootContent[];
  /** The `ul` or `ol`, without its children. */
  list: HastElement;
  /** Its `li` elements. */
  items: HastElement[];
}

/** How a list's items are parsed: as in a tight list, or as in a loose one. */
type Form = 'tight' | 'loose';

/** Each part's parse, by its source (and the form it was parsed in). */
export type ListCache = Map<string, HastElement | RootContent[] | null>;

/** An item's key in a `ListCache`. */
const keyOf = (form: Form, item: string) => `${form}\n${item}`;

function onlyChild(root: HastRoot): HastElement | null {
  const [node, ...rest] = root.children;
  return rest.length === 0 && node?.type === 'element' ? node : null;
}

function listItemsOf(root: HastRoot): HastElement[] | null {
  const list = onlyChild(root);
  if (!list || (list.tagName !== 'ul' && list.tagName !== 'ol')) return null;
  const items = list.children.filter((child) => child.type === 'element');
  return items.every((item) => item.tagName === 'li') ? items : null;
}

const hasParagraph = (item: HastElement) =>
  item.children.some((child) => child.type === 'element' && child.tagName === 'p');

const isTask = (item: HastElement) =>
  Array.isArray(item.properties.className) && item.properties.className.includes('task-list-item');

/**
 * The list's parts, from its items parsed apart: `parse` turns markdown into a tree, `cache` keeps each
 * item's `li` by its source. Null when a part does not parse as expected (the block is then parsed whole).
 */
export function listParts(
  source: ListSource,
  parse: (markdown: string) => HastRoot,
  cache: ListCache,
): ListParts | null {
  const used = new Set<string>();
  const cached = <T extends HastElement | RootContent[]>(key: string, make: () => T | null): T | null => {
    used.add(key);
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key) as T | null;
  };
  // Tight, an item is loose only if it is spread itself (blank lines between its own blocks). Loose, after a
  // first item and a blank line, it is in a loose list, as in a whole list that is loose.
  const parseItems = (form: Form, items: string[]): HastElement[] | null => {
    const skip = form === 'tight' ? 0 : 1;
    const markdown = form === 'tight' ? items.join('\n') : `${source.marker} x\n\n${items.join('\n\n')}`;
    const parsed = listItemsOf(parse(markdown));
    return parsed?.length === items.length + skip ? parsed.slice(skip) : null;
  };
  const inForm = (form: Form, items: string[]) => {
    const key = (item: string) => keyOf(form, item);
    // New items (a burst, or a whole list shown at once) are parsed together: one parse costs less than
    // one per item. Tight items parsed together are all loose if one is spread: then each is parsed alone.
    const missing = items.filter((item) => !cache.has(key(item)));
    const together = missing.length > 1 ? parseItems(form, missing) : null;
    if (together && !(form === 'tight' && together.some(hasParagraph)))
      for (const [i, item] of missing.entries()) cache.set(key(item), together[i]!);
    return items.map((item) => cached(key(item), () => parseItems(form, [item])?.[0] ?? null));
  };
  const spread = (items: (HastElement | null)[]) => items.some((item) => item !== null && hasParagraph(item));
  const lead = source.lead === '' ? [] : cached(`lead\n${source.lead}`, () => parse(source.lead).children);

  // One spread item makes the whole list loose. Once a finished item is known to be, the growing last one is
  // not parsed as a tight item on every frame only to be parsed again as a loose one.
  const finished = source.items.slice(0, -1);
  const looseAlready =
    finished.every((item) => cache.has(keyOf('tight', item))) && spread(inForm('tight', finished));
  let items = source.blankBetween || looseAlready ? null : inForm('tight', source.items);
  if (items === null || spread(items)) items = inForm('loose', source.items);
  // Items no longer in the list (the last one grew past them) are dropped from the cache.
  for (const key of cache.keys()) if (!used.has(key)) cache.delete(key);

  // A part cut short by the inline bounds ends in text shown as written: the whole block is parsed instead.
  if (lead === null || lead.some(isAsWritten) || items.some((item) => item === null)) return null;
  const parsed = items as HastElement[];
  const properties: HastElement['properties'] = {};
  if (source.start !== null && source.start !== 1) properties.start = source.start;
  if (parsed.some(isTask)) properties.className = ['contains-task-list'];
  return {
    lead,
    list: { type: 'element', tagName: source.start === null ? 'ul' : 'ol', properties, children: [] },
    items: parsed,
  };
}
