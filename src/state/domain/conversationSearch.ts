import { fold, foldUnit, markdownToPlain, special } from '../../core/searchText.ts';
import { currentTurn } from '../stores/conversationStore.ts';
import type { ChatMessage, Conversation } from './types.ts';

/**
 * Searching conversations from the sidebar: titles and content (user messages, the current attempt's answer,
 * reasoning and refusal, tool calls and their results), case- and accent-insensitive, as a plain substring
 * match (no word splitting, so Chinese, Japanese and Korean text works as typed).
 *
 * Everything is compared in a folded form (`fold`); matches are mapped back to the original text to
 * highlight them. The folded text is an index derived from the conversations and cached by object
 * identity: the store replaces only what changed, so while one answer streams only its own message is
 * folded again, and every other conversation's index and match are reused as they are.
 */

/** A half-open range of UTF-16 offsets, `[start, end)`. */
export type Range = readonly [start: number, end: number];

/** Text with the parts that match highlighted. */
export interface Highlighted {
  text: string;
  ranges: Range[];
}

export type FieldKind = 'user' | 'answer' | 'reasoning' | 'refusal' | 'tool call' | 'tool result';

/** One searchable piece of a conversation: its plain text and that text folded. */
interface SearchField {
  kind: FieldKind;
  text: string;
  folded: string;
}

interface ConversationIndex {
  id: string;
  title: string;
  foldedTitle: string;
  fields: readonly SearchField[];
}

export interface SearchResult {
  id: string;
  title: Highlighted;
  /** Around the first match in the content; null when only the title matches. */
  snippet: (Highlighted & { kind: FieldKind }) | null;
}

export interface SearchOutcome {
  /** How many conversations match. */
  total: number;
  /** The first `limit` of them, in the order given (the sidebar's, newest first). */
  results: SearchResult[];
}

// ---------------------------------------------------------------------------------------------------------
// Folding (`core/searchText.ts`) mapped back

/**
 * Maps ranges of `fold(text)` (sorted, not overlapping) back to ranges of `text`. A range that starts or ends
 * inside a unit that folds to several characters (ß → ss) covers the whole unit.
 */
function toOriginal(text: string, ranges: readonly Range[]): Range[] {
  if (ranges.length === 0) return [];
  // ASCII with single whitespace characters folds one for one.
  if (!/\P{ASCII}|\s\s/u.test(text)) return ranges.map(([s, e]) => [s, e] as const);
  const out: Range[] = [];
  let r = 0;
  let pendingStart = -1;
  /** Offers one segment, original [oS, oE) folded to [fS, fE); `linear` when it maps character for character. */
  const visit = (oS: number, oE: number, fS: number, fE: number, linear: boolean) => {
    while (r < ranges.length) {
      const [fs, fe] = ranges[r] as Range;
      if (pendingStart < 0) {
        if (fs >= fE) return;
        pendingStart = linear ? oS + (fs - fS) : oS;
      }
      if (fe > fE) return;
      out.push([pendingStart, linear ? oS + (fe - fS) : oE]);
      pendingStart = -1;
      r++;
    }
  };
  const units = new RegExp(special.source, 'gu');
  let o = 0;
  let f = 0;
  for (let m = units.exec(text); m !== null && r < ranges.length; m = units.exec(text)) {
    const gap = m.index - o;
    if (gap > 0) visit(o, m.index, f, f + gap, true);
    o = m.index;
    f += gap;
    const length = foldUnit(m[0]).length;
    if (length > 0) visit(o, o + m[0].length, f, f + length, false);
    o += m[0].length;
    f += length;
  }
  if (r < ranges.length) visit(o, text.length, f, f + text.length - o, true);
  return out;
}

/** Every occurrence of `foldedQuery` (already folded) in `text`, as ranges of `text`; none for an empty query. */
export function highlightRanges(text: string, foldedQuery: string, folded = fold(text)): Range[] {
  if (!foldedQuery) return [];
  const found: Range[] = [];
  for (
    let at = folded.indexOf(foldedQuery);
    at >= 0;
    at = folded.indexOf(foldedQuery, at + foldedQuery.length)
  ) {
    found.push([at, at + foldedQuery.length]);
  }
  return toOriginal(text, found);
}

// ---------------------------------------------------------------------------------------------------------
// Snippets

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `text` with whitespace runs as one space and the ends trimmed, `ranges` moved to match. */
function collapseWhitespace(text: string, ranges: readonly Range[]): Highlighted {
  const at: number[] = new Array(text.length + 1);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    at[i] = out.length;
    const char = text[i] as string;
    if (/\s/.test(char)) {
      if (out.length > 0 && !out.endsWith(' ')) out += ' ';
    } else out += char;
  }
  at[text.length] = out.length;
  const trimmed = out.trimEnd();
  const clamp = (n: number) => Math.min(n, trimmed.length);
  return {
    text: trimmed,
    ranges: ranges
      .map(([s, e]): Range => [clamp(at[s] as number), clamp(at[e] as number)])
      .filter(([s, e]) => e > s),
  };
}

export interface SnippetOptions {
  /** Characters kept before the first match (about: the cut moves to a word boundary nearby). */
  before?: number;
  /** Characters in the whole excerpt (about). */
  length?: number;
}

/**
 * A short excerpt of `text` around the first match of `foldedQuery`, whitespace collapsed, cut at word
 * boundaries when there are any nearby (never inside a surrogate pair), "…" where cut, every match inside
 * highlighted. Null when nothing matches.
 */
export function snippet(
  text: string,
  foldedQuery: string,
  { before = 28, length = 110 }: SnippetOptions = {},
  folded = fold(text),
): Highlighted | null {
  const at = foldedQuery ? folded.indexOf(foldedQuery) : -1;
  if (at < 0) return null;
  const [[matchStart, matchEnd] = [0, 0]] = toOriginal(text, [[at, at + foldedQuery.length]]);
  const slack = 14;

  let start = Math.max(0, matchStart - before);
  if (start > 0) {
    const space = text.slice(start, Math.min(matchStart, start + slack)).search(/\s/);
    if (space >= 0) start += space + 1;
    else if (isHighSurrogate(text.charCodeAt(start - 1))) start--;
  }
  let end = Math.min(text.length, Math.max(matchEnd, start + length));
  if (end < text.length) {
    const window = text.slice(Math.max(matchEnd, end - slack), end);
    const space = window.search(/\s\S*$/);
    if (space >= 0) end = Math.max(matchEnd, end - slack) + space;
    else if (isHighSurrogate(text.charCodeAt(end - 1))) end++;
  }

  const excerpt = text.slice(start, end);
  const { text: body, ranges } = collapseWhitespace(excerpt, highlightRanges(excerpt, foldedQuery));
  const lead = start > 0 && body.length > 0 ? '…' : '';
  const tail = end < text.length ? '…' : '';
  return {
    text: `${lead}${body}${tail}`,
    ranges: ranges.map(([s, e]): Range => [s + lead.length, e + lead.length]),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The index

function field(kind: FieldKind, text: string): SearchField {
  return { kind, text, folded: fold(text) };
}

export interface ConversationSearch {
  /** A conversation's index, made once per conversation object (a changed conversation is a new object). */
  indexOf(conversation: Conversation): ConversationIndex;
  /**
   * Indexes the conversations in `order` not indexed yet, and matches `query` in those not matched yet, at
   * least one, then until `deadline` (a `performance.now()` time) has passed; whether all are done (then
   * `search` only gathers). The first search of a long history folds every conversation's text (seconds for
   * thousands), and a query that matches late in each scans megabytes: its caller does it a slice at a time.
   */
  prepare(
    conversations: Readonly<Record<string, Conversation>>,
    order: readonly string[],
    deadline: number,
    query?: string,
  ): boolean;
  /** The conversations in `order` that match `query` (an empty query matches none). */
  search(
    conversations: Readonly<Record<string, Conversation>>,
    order: readonly string[],
    query: string,
    limit?: number,
  ): SearchOutcome;
}

/** Where the first match of a query is in one index: the content field, or only the title. */
type Hit = { field: number; at: number } | 'title' | null;

/**
 * A search with its own caches, made once per sidebar (or test): every cache is keyed by the objects the
 * store holds, so a conversation's entries are dropped with the conversation and rebuilt only when it changes.
 */
export function createConversationSearch(): ConversationSearch {
  /** Fields per user or tool message, and per answer's current turn: what changes is folded again, no more. */
  const fieldsCache = new WeakMap<object, readonly SearchField[]>();
  const indexCache = new WeakMap<Conversation, ConversationIndex>();
  /** The last query's match per index (and its result once built), so an unchanged conversation is not searched again. */
  const matchCache = new WeakMap<ConversationIndex, { query: string; hit: Hit; result?: SearchResult }>();

  const fieldsOf = (message: ChatMessage): readonly SearchField[] => {
    if (message.role === 'assistant') {
      const turn = currentTurn(message);
      if (!turn) return [];
      let fields = fieldsCache.get(turn);
      if (!fields) {
        const list: SearchField[] = [];
        if (turn.reasoning) list.push(field('reasoning', markdownToPlain(turn.reasoning)));
        if (turn.text) list.push(field('answer', markdownToPlain(turn.text)));
        if (turn.refusal) list.push(field('refusal', turn.refusal));
        for (const call of turn.toolCalls) list.push(field('tool call', `${call.name} ${call.arguments}`));
        fields = list;
        fieldsCache.set(turn, fields);
      }
      return fields;
    }
    let fields = fieldsCache.get(message);
    if (!fields) {
      fields = [
        message.role === 'user' ? field('user', message.text) : field('tool result', message.content),
      ];
      fieldsCache.set(message, fields);
    }
    return fields;
  };

  const indexOf = (conversation: Conversation): ConversationIndex => {
    let index = indexCache.get(conversation);
    if (!index) {
      index = {
        id: conversation.id,
        title: conversation.title,
        foldedTitle: fold(conversation.title),
        fields: conversation.messages.flatMap(fieldsOf),
      };
      indexCache.set(conversation, index);
    }
    return index;
  };

  const find = (index: ConversationIndex, query: string): Hit => {
    for (let i = 0; i < index.fields.length; i++) {
      const at = (index.fields[i] as SearchField).folded.indexOf(query);
      if (at >= 0) return { field: i, at };
    }
    return index.foldedTitle.includes(query) ? 'title' : null;
  };

  const resultOf = (index: ConversationIndex, query: string, hit: Exclude<Hit, null>): SearchResult => {
    const title = {
      text: index.title,
      ranges: highlightRanges(index.title, query, index.foldedTitle),
    };
    if (hit === 'title') return { id: index.id, title, snippet: null };
    const { kind, text, folded } = index.fields[hit.field] as SearchField;
    const excerpt = snippet(text, query, {}, folded) as Highlighted;
    return { id: index.id, title, snippet: { kind, ...excerpt } };
  };

  /** `folded`'s match in `index`, found once per query. */
  const matchOf = (index: ConversationIndex, folded: string) => {
    let match = matchCache.get(index);
    if (match?.query !== folded) {
      match = { query: folded, hit: find(index, folded) };
      matchCache.set(index, match);
    }
    return match;
  };

  /** Whether `conversation` is indexed and, for a query (`folded` not empty), matched. */
  const done = (conversation: Conversation, folded: string) => {
    const index = indexCache.get(conversation);
    return index !== undefined && (folded === '' || matchCache.get(index)?.query === folded);
  };

  /**
   * Where the last slice of `prepare` stopped, for the same list and query: the next slice goes on from
   * there rather than passing over everything done again (thousands of lookups a slice). A conversation
   * that changed behind it is indexed by `search` itself.
   */
  let resume: { order: readonly string[]; folded: string; at: number } | null = null;

  return {
    indexOf,
    prepare(conversations, order, deadline, query = '') {
      const folded = fold(query).trim();
      const from = resume !== null && resume.order === order && resume.folded === folded ? resume.at : 0;
      resume = null;
      let worked = 0;
      for (let i = from; i < order.length; i++) {
        const conversation = conversations[order[i]!];
        if (!conversation || done(conversation, folded)) continue;
        if (worked > 0 && performance.now() > deadline) {
          resume = { order, folded, at: i };
          return false;
        }
        const index = indexOf(conversation);
        if (folded !== '') matchOf(index, folded);
        worked++;
      }
      return true;
    },
    search(conversations, order, query, limit = 50) {
      const folded = fold(query).trim();
      const results: SearchResult[] = [];
      let total = 0;
      if (!folded) return { total, results };
      for (const id of order) {
        const conversation = conversations[id];
        if (!conversation) continue;
        const index = indexOf(conversation);
        const match = matchOf(index, folded);
        if (match.hit === null) continue;
        total++;
        if (results.length < limit) {
          match.result ??= resultOf(index, folded, match.hit);
          results.push(match.result);
        }
      }
      return { total, results };
    },
  };
}
