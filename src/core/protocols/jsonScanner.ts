/**
 * The primitives of the exact-template readers (`<protocol>/fastDecode.ts`): a cursor over one event's
 * data that consumes fixed text, non-negative integers and string literals.
 *
 * Why templates: every delta of a long answer is one small JSON object, and `JSON.parse` of it was the
 * largest single cost of reading a stream. The payloads servers send for deltas follow a few fixed
 * templates whose only variable parts are integers and string literals; comparing the fixed text and
 * slicing the strings out is several times faster than a general parse.
 *
 * Contract of every reader built on this (property-tested against `JSON.parse`): a template matches only
 * text that `JSON.parse` reads to exactly the values taken out. Anything that deviates in any way — other
 * field order, extra whitespace, a negative or float number, an invalid escape, trailing text — does not
 * match, so `JSON.parse` decides every case that is not a template, errors included.
 *
 * One scanner per stream (its reader owns it): nothing here is shared between streams.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const ZERO = 48;
const NINE = 57;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
/** Up to 15 digits, an integer accumulated digit by digit is exact (below 2^53). */
const MAX_INT_DIGITS = 15;

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
function unescapeString(src: string, start: number, end: number): string | undefined {
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

export class JsonScanner {
  /** The text being matched. */
  src = '';
  /** The position in it. */
  pos = 0;

  /** Starts on `data` and consumes `prefix` if `data` begins with it. */
  begin(data: string, prefix: string): boolean {
    this.src = data;
    this.pos = 0;
    return this.lit(prefix);
  }

  /**
   * Consumes `text` if it comes next. Slicing and comparing with `===` is the fastest check here: several
   * times faster than a `charCodeAt` loop or `startsWith`, whose fixed cost per call dominates.
   */
  lit(text: string): boolean {
    const end = this.pos + text.length;
    if (this.src.slice(this.pos, end) !== text) return false;
    this.pos = end;
    return true;
  }

  /** Consumes the character `code` if it comes next. */
  ch(code: number): boolean {
    if (this.src.charCodeAt(this.pos) !== code) return false;
    this.pos++;
    return true;
  }

  /** A non-negative JSON integer of at most 15 digits, or -1. */
  int(): number {
    const src = this.src;
    const start = this.pos;
    let i = start;
    let value = 0;
    let c = src.charCodeAt(i);
    while (c >= ZERO && c <= NINE) {
      value = value * 10 + (c - ZERO);
      c = src.charCodeAt(++i);
    }
    const digits = i - start;
    if (digits === 0 || digits > MAX_INT_DIGITS || (digits > 1 && src.charCodeAt(start) === ZERO)) return -1;
    // A fraction or exponent continues the number: not a template integer.
    if (c === 46 || c === 101 || c === 69) return -1;
    this.pos = i;
    return value;
  }

  /** A JSON string literal: sliced out when plain, decoded by hand when it has escapes; or undefined. */
  str(): string | undefined {
    const src = this.src;
    if (src.charCodeAt(this.pos) !== QUOTE) return undefined;
    const start = this.pos + 1;
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
    this.pos = i + 1;
    return escaped ? unescapeString(src, start, i) : src.slice(start, i);
  }

  /** JSON whitespace (Anthropic pads its payloads with spaces before the closing brace). */
  spaces(): void {
    const src = this.src;
    let i = this.pos;
    let c = src.charCodeAt(i);
    while (c === SPACE || c === LF || c === CR || c === TAB) c = src.charCodeAt(++i);
    this.pos = i;
  }

  /** Whether the template matched to the last character; lets go of the text either way. */
  done(): boolean {
    const ok = this.pos === this.src.length;
    this.src = '';
    return ok;
  }
}
