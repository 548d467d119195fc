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

/** A JSON string literal starting at `pos`: sliced out when plain, decoded by `JSON.parse` when it has escapes. */
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
  if (!escaped) return src.slice(start, i);
  try {
    return JSON.parse(src.slice(start - 1, i + 1)) as string;
  } catch {
    return undefined;
  }
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
let messagesKind: 'text' | 'json' | 'thinking' = 'text';

export function fastMessagesEvent(data: string): object | undefined {
  if (data === '{"type": "ping"}' || data === '{"type":"ping"}') return { type: 'ping' };
  let index = messagesIndex;
  let kind = messagesKind;
  if (!begin(data, messagesPrefix) || messagesPrefix === '') {
    if (!begin(data, '{"type":"content_block_delta","index":')) return undefined;
    index = int();
    if (index < 0) return undefined;
    if (lit(',"delta":{"type":"text_delta","text":')) kind = 'text';
    else if (lit(',"delta":{"type":"input_json_delta","partial_json":')) kind = 'json';
    else if (lit(',"delta":{"type":"thinking_delta","thinking":')) kind = 'thinking';
    else return undefined;
    messagesPrefix = data.slice(0, pos);
    messagesIndex = index;
    messagesKind = kind;
  }
  const value = str();
  if (value === undefined || !ch(CLOSE)) return undefined;
  spaces();
  if (!ch(CLOSE) || !done()) return undefined;
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
const responsesMiddle: Record<'text' | 'args' | 'summary', ResponsesMiddle> = {
  text: { text: '', item_id: '', output_index: 0, part: 0 },
  args: { text: '', item_id: '', output_index: 0, part: 0 },
  summary: { text: '', item_id: '', output_index: 0, part: 0 },
};

export function fastResponsesEvent(data: string): object | undefined {
  if (!begin(data, '{"type":"response.')) return undefined;
  const kind = lit('output_text.delta","sequence_number":')
    ? 'text'
    : lit('function_call_arguments.delta","sequence_number":')
      ? 'args'
      : lit('reasoning_summary_text.delta","sequence_number":')
        ? 'summary'
        : null;
  if (kind === null) return undefined;
  const sequence_number = int();
  if (sequence_number < 0) return undefined;
  // From the item id to the delta, consecutive events of an item repeat the same text: remembered per kind.
  const cache = responsesMiddle[kind];
  let { item_id, output_index, part } = cache;
  if (cache.text === '' || !lit(cache.text)) {
    const from = pos;
    if (!lit(',"item_id":')) return undefined;
    const id = str();
    if (id === undefined || !lit(',"output_index":')) return undefined;
    output_index = int();
    if (output_index < 0) return undefined;
    part = 0;
    if (kind !== 'args') {
      if (!lit(kind === 'text' ? ',"content_index":' : ',"summary_index":')) return undefined;
      part = int();
      if (part < 0) return undefined;
    }
    if (!lit(',"delta":')) return undefined;
    item_id = id;
    Object.assign(cache, { text: src.slice(from, pos), item_id, output_index, part });
  }
  const delta = str();
  if (delta === undefined) return undefined;
  const logprobs = lit(',"logprobs":[]');
  let obfuscation: string | undefined;
  if (lit(',"obfuscation":')) {
    obfuscation = str();
    if (obfuscation === undefined) return undefined;
  }
  if (!ch(CLOSE) || !done()) return undefined;

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
  if (logprobs) event.logprobs = [];
  if (obfuscation !== undefined) event.obfuscation = obfuscation;
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
  src = data;
  pos = header.length;
  return headerFields;
}

function chatDelta(): object | undefined {
  if (lit('{"content":')) {
    if (lit('null,"reasoning_content":')) {
      const reasoning_content = str();
      return reasoning_content !== undefined && ch(CLOSE) ? { content: null, reasoning_content } : undefined;
    }
    const content = str();
    if (content === undefined) return undefined;
    if (ch(CLOSE)) return { content };
    return lit(',"reasoning_content":null}') ? { content, reasoning_content: null } : undefined;
  }
  if (lit('{"reasoning_content":')) {
    const reasoning_content = str();
    return reasoning_content !== undefined && ch(CLOSE) ? { reasoning_content } : undefined;
  }
  if (lit('{"reasoning":')) {
    const reasoning = str();
    return reasoning !== undefined && ch(CLOSE) ? { reasoning } : undefined;
  }
  if (lit('{"tool_calls":[{"index":')) {
    const index = int();
    if (index < 0 || !lit(',"function":{"arguments":')) return undefined;
    const args = str();
    return args !== undefined && lit('}}]}')
      ? { tool_calls: [{ index, function: { arguments: args } }] }
      : undefined;
  }
  return undefined;
}

export function fastChatChunk(data: string): object | undefined {
  const fields = chatHeader(data);
  if (fields === null || !lit('{"index":')) return undefined;
  const index = int();
  if (index < 0 || !lit(',"delta":')) return undefined;
  const delta = chatDelta();
  if (delta === undefined || !lit(',"logprobs":null,"finish_reason":null}]')) return undefined;
  const usage = lit(',"usage":null');
  let obfuscation: string | undefined;
  if (lit(',"obfuscation":')) {
    obfuscation = str();
    if (obfuscation === undefined) return undefined;
  }
  if (!ch(CLOSE) || !done()) return undefined;
  // Object.assign rather than a spread: several times faster for an object literal with more keys after it.
  const chunk: Record<string, unknown> = Object.assign({}, fields);
  chunk.choices = [{ index, delta, logprobs: null, finish_reason: null }];
  if (usage) chunk.usage = null;
  if (obfuscation !== undefined) chunk.obfuscation = obfuscation;
  return chunk;
}
