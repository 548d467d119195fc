/**
 * Exact-shape readers for the hottest stream events, tried before `JSON.parse`.
 *
 * Why: every delta of a long answer is one small JSON object, and `JSON.parse` of it was the largest
 * single cost of reading a stream. The payloads servers send for deltas follow a few fixed templates
 * whose only variable parts are integers and string literals; comparing the fixed text with
 * `startsWith` and slicing the strings out is several times faster than a general parse.
 *
 * Contract (property-tested against `JSON.parse`): each `fast…` function returns either `undefined`
 * ("not this template: use JSON.parse") or an object deep-equal to `JSON.parse(data)`. Anything that
 * deviates from a template in any way — other field order, extra whitespace, a negative or float
 * number, an invalid escape, trailing text — gives `undefined`, so `JSON.parse` decides every case
 * that is not a template, errors included.
 */

const QUOTE = 34;
const CLOSE = 125; // }
const BACKSLASH = 92;
const ZERO = 48;
const NINE = 57;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
/** Up to 15 digits, an integer accumulated digit by digit is exact (below 2^53). */
const MAX_INT_DIGITS = 15;

// The scanner's state: the text being matched and the position in it (one match at a time, synchronous).
let src = '';
let pos = 0;

function begin(data: string, prefix: string): boolean {
  src = data;
  pos = 0;
  return lit(prefix);
}

/**
 * Consumes `text` if it comes next. Slicing and comparing with `===` is the fastest check here: several
 * times faster than a `charCodeAt` loop or `startsWith`, whose fixed cost per call dominates.
 */
function lit(text: string): boolean {
  const end = pos + text.length;
  if (src.slice(pos, end) !== text) return false;
  pos = end;
  return true;
}

/** Consumes the character `code` if it comes next. */
function ch(code: number): boolean {
  if (src.charCodeAt(pos) !== code) return false;
  pos++;
  return true;
}

/** A non-negative JSON integer of at most 15 digits, or -1. */
function int(): number {
  let i = pos;
  let value = 0;
  let c = src.charCodeAt(i);
  while (c >= ZERO && c <= NINE) {
    value = value * 10 + (c - ZERO);
    c = src.charCodeAt(++i);
  }
  const digits = i - pos;
  if (digits === 0 || digits > MAX_INT_DIGITS || (digits > 1 && src.charCodeAt(pos) === ZERO)) return -1;
  // A fraction or exponent continues the number: not a template integer.
  if (c === 46 || c === 101 || c === 69) return -1;
  pos = i;
  return value;
}

/** The value of a hex digit, or -1. */
function hex(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The characters an escape stands for, by the letter after the backslash (`u` is handled apart). */
const ESCAPES: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};

/**
 * The decoded text of `src[start, end)`, a string literal's body with escapes; undefined for an invalid
 * escape. By hand because a quarter of real deltas hold one (a quote, a newline) and `JSON.parse` of the
 * literal costs more than the rest of the template. `\uXXXX` gives one UTF-16 unit, as JSON says: a pair of
 * them makes a surrogate pair, and a lone surrogate stays lone, exactly as `JSON.parse` has it.
 */
function unescapeString(start: number, end: number): string | undefined {
  let out = '';
  let from = start;
  let i = src.indexOf('\\', start);
  while (i !== -1 && i < end) {
    out += src.slice(from, i);
    const letter = src.charCodeAt(i + 1);
    if (letter === 117 /* u */) {
      const a = hex(src.charCodeAt(i + 2));
      const b = hex(src.charCodeAt(i + 3));
      const c = hex(src.charCodeAt(i + 4));
      const d = hex(src.charCodeAt(i + 5));
      // The literal's closing quote is not a hex digit: four digits never run past `end`.
      if ((a | b | c | d) < 0) return undefined;
      out += String.fromCharCode((a << 12) | (b << 8) | (c << 4) | d);
      from = i + 6;
    } else {
      const text = ESCAPES[letter];
      if (text === undefined) return undefined;
      out += text;
      from = i + 2;
    }
    i = src.indexOf('\\', from);
  }
  return out + src.slice(from, end);
}

/** A JSON string literal starting at `pos`: sliced out when plain, decoded by hand when it has escapes. */
function str(): string | undefined {
  if (src.charCodeAt(pos) !== QUOTE) return undefined;
  const start = pos + 1;
  const len = src.length;
  let escaped = false;
  let i = start;
  for (;;) {
    if (i >= len) return undefined;
    const c = src.charCodeAt(i);
    if (c === QUOTE) break;
    if (c < SPACE) return undefined; // raw control characters are not allowed in JSON strings
    if (c === BACKSLASH) {
      escaped = true;
      i += 2;
    } else i++;
  }
  pos = i + 1;
  return escaped ? unescapeString(start, i) : src.slice(start, i);
}

/** JSON whitespace (Anthropic pads its payloads with spaces before the closing brace). */
function spaces(): void {
  let c = src.charCodeAt(pos);
  while (c === SPACE || c === LF || c === CR || c === TAB) c = src.charCodeAt(++pos);
}

/** The template matched to the last character. */
function done(): boolean {
  const ok = pos === src.length;
  src = '';
  return ok;
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic Messages: `{"type":"content_block_delta","index":N,"delta":{"type":T,F:S}}`, padded before the
// last brace, for the three delta types that carry content; and the ping.

// Consecutive deltas of a block share everything up to the string: that prefix is remembered, so that
// most events are checked with one comparison.
let messagesPrefix = '';
let messagesIndex = 0;
let messagesKind: MessagesDeltaKind = 'text';

export type MessagesDeltaKind = 'text' | 'json' | 'thinking';

/**
 * The fields of the last successful `match…` call. The step functions read them directly: a delta then
 * costs no event object, and the hot path never meets the shapes of `JSON.parse`'s objects, which V8
 * recreates after each full GC (each new shape would deoptimize it again).
 */
export const matched = {
  messagesIndex: 0,
  messagesKind: 'text' as MessagesDeltaKind,
  value: '',
  responsesKind: 'text' as ResponsesDeltaKind,
  sequenceNumber: 0,
  itemId: '',
  outputIndex: 0,
  part: 0,
  logprobs: false,
  obfuscation: undefined as string | undefined,
  chatHeader: {} as Record<string, unknown>,
  /** Whether the header leaves the chunk a plain delta: no `error`, `usage` or `x_groq` field in it. */
  chatPlainHeader: true,
  choiceIndex: 0,
  chatDelta: 0,
  toolIndex: 0,
  usage: false,
};

export const NO_MATCH = 0;
export const PING = 1;
export const DELTA = 2;

/** A Messages template: `PING`, or `DELTA` with `matched.messagesIndex/messagesKind/value` set; or `NO_MATCH`. */
export function matchMessagesEvent(data: string): number {
  if (data === '{"type": "ping"}' || data === '{"type":"ping"}') return PING;
  let index = messagesIndex;
  let kind = messagesKind;
  if (!begin(data, messagesPrefix) || messagesPrefix === '') {
    if (!begin(data, '{"type":"content_block_delta","index":')) return NO_MATCH;
    index = int();
    if (index < 0) return NO_MATCH;
    if (lit(',"delta":{"type":"text_delta","text":')) kind = 'text';
    else if (lit(',"delta":{"type":"input_json_delta","partial_json":')) kind = 'json';
    else if (lit(',"delta":{"type":"thinking_delta","thinking":')) kind = 'thinking';
    else return NO_MATCH;
    messagesPrefix = data.slice(0, pos);
    messagesIndex = index;
    messagesKind = kind;
  }
  const value = str();
  if (value === undefined || !ch(CLOSE)) return NO_MATCH;
  spaces();
  if (!ch(CLOSE) || !done()) return NO_MATCH;
  matched.messagesIndex = index;
  matched.messagesKind = kind;
  matched.value = value;
  return DELTA;
}

export function fastMessagesEvent(data: string): object | undefined {
  const found = matchMessagesEvent(data);
  if (found === PING) return { type: 'ping' };
  if (found === NO_MATCH) return undefined;
  const { messagesIndex: index, messagesKind: kind, value } = matched;
  const delta =
    kind === 'text'
      ? { type: 'text_delta', text: value }
      : kind === 'json'
        ? { type: 'input_json_delta', partial_json: value }
        : { type: 'thinking_delta', thinking: value };
  return { type: 'content_block_delta', index, delta };
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI Responses: the three delta events in OpenAI's field order,
// `{"type":T,"sequence_number":N,"item_id":S,"output_index":N[,"content_index"|"summary_index":N],"delta":S}`,
// optionally followed by `"logprobs":[]` and `"obfuscation":S`.

interface ResponsesMiddle {
  text: string;
  item_id: string;
  output_index: number;
  part: number;
}

export type ResponsesDeltaKind = 'text' | 'args' | 'summary';

/** Each template up to its first number, told apart by the character after `{"type":"response.`. */
const responsesHead: Record<ResponsesDeltaKind, string> = {
  text: '{"type":"response.output_text.delta","sequence_number":',
  args: '{"type":"response.function_call_arguments.delta","sequence_number":',
  summary: '{"type":"response.reasoning_summary_text.delta","sequence_number":',
};
const KIND_AT = '{"type":"response.'.length;

/**
 * From the item id to the delta, consecutive events of an item repeat the same text: the last few are
 * remembered per kind (parallel tool calls interleave their argument deltas). The entry hit last is tried
 * first; a new one replaces the oldest.
 */
const MIDDLES = 4;
interface MiddleCache {
  entries: ResponsesMiddle[];
  /** The entry hit or added last. */
  last: number;
  /** Where the next new entry goes once the cache is full (the oldest). */
  next: number;
}
const responsesMiddles: Record<ResponsesDeltaKind, MiddleCache> = {
  text: { entries: [], last: 0, next: 0 },
  args: { entries: [], last: 0, next: 0 },
  summary: { entries: [], last: 0, next: 0 },
};
let middleMisses = 0;

/** How many Responses deltas had to be read in full so far (the cache's misses): for tests. */
export const responsesMiddleMisses = () => middleMisses;

function cachedMiddle(kind: ResponsesDeltaKind): ResponsesMiddle | undefined {
  const cache = responsesMiddles[kind];
  const { entries } = cache;
  const n = entries.length;
  for (let k = 0; k < n; k++) {
    const i = (cache.last + k) % n;
    const entry = entries[i]!;
    if (lit(entry.text)) {
      cache.last = i;
      return entry;
    }
  }
  return undefined;
}

/** Reads the middle in full and remembers it. */
function readMiddle(kind: ResponsesDeltaKind): ResponsesMiddle | undefined {
  const from = pos;
  if (!lit(',"item_id":')) return undefined;
  const item_id = str();
  if (item_id === undefined || !lit(',"output_index":')) return undefined;
  const output_index = int();
  if (output_index < 0) return undefined;
  let part = 0;
  if (kind !== 'args') {
    if (!lit(kind === 'text' ? ',"content_index":' : ',"summary_index":')) return undefined;
    part = int();
    if (part < 0) return undefined;
  }
  if (!lit(',"delta":')) return undefined;
  middleMisses++;
  const entry: ResponsesMiddle = { text: src.slice(from, pos), item_id, output_index, part };
  const cache = responsesMiddles[kind];
  cache.last = cache.next;
  cache.entries[cache.next] = entry;
  cache.next = (cache.next + 1) % MIDDLES;
  return entry;
}

/** A Responses delta template, with the `matched` fields set; false when not one. */
export function matchResponsesEvent(data: string): boolean {
  const c = data.charCodeAt(KIND_AT);
  const kind: ResponsesDeltaKind | null =
    c === 111 /* o */ ? 'text' : c === 102 /* f */ ? 'args' : c === 114 /* r */ ? 'summary' : null;
  if (kind === null || !begin(data, responsesHead[kind])) return false;
  const sequence_number = int();
  if (sequence_number < 0) return false;
  const middle = cachedMiddle(kind) ?? readMiddle(kind);
  if (middle === undefined) return false;
  const delta = str();
  if (delta === undefined) return false;
  // OpenAI's own order, both present, is the common case: one comparison.
  let logprobs = true;
  let hasObfuscation = true;
  if (!lit(',"logprobs":[],"obfuscation":')) {
    logprobs = lit(',"logprobs":[]');
    hasObfuscation = lit(',"obfuscation":');
  }
  const obfuscation = hasObfuscation ? str() : undefined;
  if ((hasObfuscation && obfuscation === undefined) || !ch(CLOSE) || !done()) return false;
  matched.responsesKind = kind;
  matched.sequenceNumber = sequence_number;
  matched.itemId = middle.item_id;
  matched.outputIndex = middle.output_index;
  matched.part = middle.part;
  matched.value = delta;
  matched.logprobs = logprobs;
  matched.obfuscation = obfuscation;
  return true;
}

export function fastResponsesEvent(data: string): object | undefined {
  if (!matchResponsesEvent(data)) return undefined;
  const {
    responsesKind: kind,
    sequenceNumber: sequence_number,
    itemId: item_id,
    outputIndex: output_index,
    part,
    value: delta,
  } = matched;
  const event: Record<string, unknown> =
    kind === 'text'
      ? {
          type: 'response.output_text.delta',
          sequence_number,
          item_id,
          output_index,
          content_index: part,
          delta,
        }
      : kind === 'summary'
        ? {
            type: 'response.reasoning_summary_text.delta',
            sequence_number,
            item_id,
            output_index,
            summary_index: part,
            delta,
          }
        : { type: 'response.function_call_arguments.delta', sequence_number, item_id, output_index, delta };
  if (matched.logprobs) event.logprobs = [];
  if (matched.obfuscation !== undefined) event.obfuscation = matched.obfuscation;
  return event;
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI Chat Completions: a chunk is `{HEADER"choices":[CHOICE]TAIL}`. The header (id, object, created,
// model, fingerprint… in the provider's own order) is the same text in every chunk of a stream, so it is
// parsed once by JSON.parse and reused while it repeats. CHOICE is one choice whose delta carries only
// content, reasoning or one tool call's argument piece; TAIL is optional `"usage":null`, `"obfuscation":S`.

const CHOICES = '"choices":[';
let header = '';
let headerFields: Record<string, unknown> | null = null;

/**
 * The header fields of `data`, with `pos` just after `"choices":[`; or null. The last header is checked
 * first; only a new one is searched for and parsed.
 */
function chatHeader(data: string): Record<string, unknown> | null {
  src = data;
  pos = 0;
  if (headerFields !== null && lit(header)) return headerFields;
  const at = data.indexOf(CHOICES);
  // Only a header of plain values at the top level is reused: `{…,` closed with `}` must parse as an object.
  if (at <= 0 || data.charCodeAt(at - 1) !== 44 || data.charCodeAt(0) !== 123) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(`${data.slice(0, at - 1)}}`);
  } catch {
    return null;
  }
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return null;
  // Fields are copied with Object.assign, which would set the prototype for a `__proto__` key.
  if (Object.hasOwn(fields, '__proto__')) return null;
  for (const value of Object.values(fields)) if (value !== null && typeof value === 'object') return null;
  header = data.slice(0, at + CHOICES.length);
  headerFields = fields as Record<string, unknown>;
  matched.chatPlainHeader = !('error' in fields || 'usage' in fields || 'x_groq' in fields);
  src = data;
  pos = header.length;
  return headerFields;
}

// The delta templates, in `matched.chatDelta`.
export const CHAT_CONTENT = 0; // {"content":S}
export const CHAT_CONTENT_NULL_REASONING = 1; // {"content":S,"reasoning_content":null}
export const CHAT_NULL_CONTENT_REASONING = 2; // {"content":null,"reasoning_content":S}
export const CHAT_REASONING_CONTENT = 3; // {"reasoning_content":S}
export const CHAT_REASONING = 4; // {"reasoning":S}
export const CHAT_TOOL_ARGUMENTS = 5; // {"tool_calls":[{"index":N,"function":{"arguments":S}}]}

/** One of the delta templates into `matched.chatDelta/value/toolIndex`; false when none. */
function chatDelta(): boolean {
  let kind: number;
  let value: string | undefined;
  if (lit('{"content":')) {
    if (lit('null,"reasoning_content":')) {
      kind = CHAT_NULL_CONTENT_REASONING;
      value = str();
      if (value === undefined || !ch(CLOSE)) return false;
    } else {
      value = str();
      if (value === undefined) return false;
      if (ch(CLOSE)) kind = CHAT_CONTENT;
      else if (lit(',"reasoning_content":null}')) kind = CHAT_CONTENT_NULL_REASONING;
      else return false;
    }
  } else if (lit('{"reasoning_content":')) {
    kind = CHAT_REASONING_CONTENT;
    value = str();
    if (value === undefined || !ch(CLOSE)) return false;
  } else if (lit('{"reasoning":')) {
    kind = CHAT_REASONING;
    value = str();
    if (value === undefined || !ch(CLOSE)) return false;
  } else if (lit('{"tool_calls":[{"index":')) {
    kind = CHAT_TOOL_ARGUMENTS;
    const index = int();
    if (index < 0 || !lit(',"function":{"arguments":')) return false;
    value = str();
    if (value === undefined || !lit('}}]}')) return false;
    matched.toolIndex = index;
  } else return false;
  matched.chatDelta = kind;
  matched.value = value;
  return true;
}

/** A Chat chunk template, with the `matched` fields set (the header fields in `chatHeader`); false when not one. */
export function matchChatChunk(data: string): boolean {
  const fields = chatHeader(data);
  if (fields === null || !lit('{"index":')) return false;
  const index = int();
  if (index < 0 || !lit(',"delta":') || !chatDelta() || !lit(',"logprobs":null,"finish_reason":null}]'))
    return false;
  const usage = lit(',"usage":null');
  let obfuscation: string | undefined;
  if (lit(',"obfuscation":')) {
    obfuscation = str();
    if (obfuscation === undefined) return false;
  }
  if (!ch(CLOSE) || !done()) return false;
  matched.chatHeader = fields;
  matched.choiceIndex = index;
  matched.usage = usage;
  matched.obfuscation = obfuscation;
  return true;
}

export function fastChatChunk(data: string): object | undefined {
  if (!matchChatChunk(data)) return undefined;
  const value = matched.value;
  let delta: object;
  switch (matched.chatDelta) {
    case CHAT_CONTENT:
      delta = { content: value };
      break;
    case CHAT_CONTENT_NULL_REASONING:
      delta = { content: value, reasoning_content: null };
      break;
    case CHAT_NULL_CONTENT_REASONING:
      delta = { content: null, reasoning_content: value };
      break;
    case CHAT_REASONING_CONTENT:
      delta = { reasoning_content: value };
      break;
    case CHAT_REASONING:
      delta = { reasoning: value };
      break;
    default:
      delta = { tool_calls: [{ index: matched.toolIndex, function: { arguments: value } }] };
  }
  // Object.assign rather than a spread: several times faster for an object literal with more keys after it.
  const chunk: Record<string, unknown> = Object.assign({}, matched.chatHeader);
  chunk.choices = [{ index: matched.choiceIndex, delta, logprobs: null, finish_reason: null }];
  if (matched.usage) chunk.usage = null;
  if (matched.obfuscation !== undefined) chunk.obfuscation = matched.obfuscation;
  return chunk;
}
