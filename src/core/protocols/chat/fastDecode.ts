/**
 * OpenAI Chat Completions chunks by exact template, before `JSON.parse` (see `../jsonScanner.ts`): a chunk is
 * `{HEADER"choices":[CHOICE]TAIL}`. The header (id, object, created, model, fingerprint… in the provider's
 * own order) is the same text in every chunk of a stream, so it is parsed once by JSON.parse and reused
 * while it repeats. CHOICE is one choice whose delta carries only content, reasoning or one tool call's
 * argument piece; TAIL is optional `"usage":null`, `"obfuscation":S`.
 */
import { keepShape } from '../../keepShape.ts';
import { JsonScanner } from '../jsonScanner.ts';

const CLOSE = 125; // }
const CHOICES = '"choices":[';

/** What a delta adds; `finish`: the chunk that ends the choice, with an empty delta and its finish reason. */
export type ChatDeltaKind = 'text' | 'reasoning' | 'toolArgs' | 'finish';

/** The exact delta object, for rebuilding the chunk (tests); `kind` is what readers need. */
export type ChatDeltaTemplate =
  | 'content' // {"content":S}
  | 'content+nullReasoningContent' // {"content":S,"reasoning_content":null}
  | 'nullContent+reasoningContent' // {"content":null,"reasoning_content":S}
  | 'reasoningContent' // {"reasoning_content":S}
  | 'reasoning' // {"reasoning":S}
  | 'toolArgs' // {"tool_calls":[{"index":N,"function":{"arguments":S}}]}
  | 'finish'; // {}, and "finish_reason":S in place of null

/** The chunk's text around the delta's string, remembered with what it says. */
class Around {
  constructor(
    /** From the chunk's start to the delta's string: the header, the choice and the delta up to `:`. */
    readonly before: string,
    /** From after the string to the end of the choices (`}` or `,"reasoning_content":null}`, then `…}]`). */
    readonly after: string,
    readonly fields: Record<string, unknown>,
    readonly plainHeader: boolean,
    readonly id: string | undefined,
    readonly model: string | undefined,
    readonly choiceIndex: number,
    readonly template: ChatDeltaTemplate,
    readonly kind: ChatDeltaKind,
    readonly toolIndex: number,
  ) {}
}

keepShape(new Around('', '', {}, true, undefined, undefined, 0, 'content', 'text', 0));

/**
 * Consecutive chunks of a stream differ only in the delta's string and the tail (`obfuscation`): the text
 * around the string is remembered for the last few kinds of delta (text, reasoning, each tool call's
 * arguments interleave), so that a chunk is checked with three comparisons instead of eight.
 */
const AROUND = 4;

/** One stream's template reader: the fields of the last match, and the header its chunks repeat. */
export class ChatFastDecoder {
  private readonly json = new JsonScanner();
  private readonly around: Around[] = [];
  /** The entry of `around` hit or added last (tried first), and where the next goes (the oldest). */
  private lastAround = 0;
  private nextAround = 0;
  /** The last header's text, up to and with `"choices":[`. */
  private header = '';
  private headerFields: Record<string, unknown> | null = null;
  /** Whether the header leaves a chunk a plain delta: no `error`, `usage` or `x_groq` field in it. */
  private headerPlain = true;
  private headerId: string | undefined = undefined;
  private headerModel: string | undefined = undefined;

  // The fields of the last match.
  /** The header fields (id, model…), parsed once per distinct header. */
  fields: Record<string, unknown> = {};
  /** See `headerPlain`. */
  plainHeader = true;
  /** The header's `id` and `model`, as they are in `fields`. */
  id: string | undefined = undefined;
  model: string | undefined = undefined;
  choiceIndex = 0;
  template: ChatDeltaTemplate = 'content';
  value = '';
  /** The tool call's `index`, for `toolArgs`. */
  toolIndex = 0;
  /** Whether `"usage":null` followed the choices. */
  usageNull = false;
  obfuscation: string | undefined = undefined;

  /**
   * Puts the scanner just after `data`'s header (after `"choices":[`): whether it is the last header read
   * (checked first), or the chunk has one that may be new (not parsed yet: see `newHeader`).
   */
  private findHeader(data: string): 'known' | 'new' | null {
    const json = this.json;
    if (this.headerFields !== null && json.begin(data, this.header)) return 'known';
    const at = data.indexOf(CHOICES);
    // Only a header of plain values at the top level is reused: `{…,` closed with `}` must parse as an object.
    if (at <= 0 || data.charCodeAt(at - 1) !== 44 || data.charCodeAt(0) !== 123) return null;
    json.begin(data, '');
    json.pos = at + CHOICES.length;
    return 'new';
  }

  /**
   * The header fields of `data`, whose header ends at `end`, parsed and remembered; or null. Parsed only
   * once the rest of the chunk matched: the first chunks of a stream (the role, and any chunk not a
   * template) go to JSON.parse whole, and a header parsed for them too cost a second parse, the costliest
   * work of a short answer right after a GC (JSON.parse makes the objects' shapes again then).
   */
  private newHeader(data: string, end: number): Record<string, unknown> | null {
    let fields: unknown;
    try {
      fields = JSON.parse(`${data.slice(0, end - CHOICES.length - 1)}}`);
    } catch {
      return null;
    }
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return null;
    // `__proto__` is left to JSON.parse: a copy of these fields would set the prototype instead of a key.
    if (Object.hasOwn(fields, '__proto__')) return null;
    for (const value of Object.values(fields)) if (value !== null && typeof value === 'object') return null;
    // An id or model of another type is left to the slow path, which reports it.
    const { id, model } = fields as { id?: unknown; model?: unknown };
    if ((id != null && typeof id !== 'string') || (model != null && typeof model !== 'string')) return null;
    this.header = data.slice(0, end);
    this.headerFields = fields as Record<string, unknown>;
    this.headerPlain = !('error' in fields || 'usage' in fields || 'x_groq' in fields);
    this.headerId = (fields as { id?: string }).id;
    this.headerModel = (fields as { model?: string }).model;
    return this.headerFields;
  }

  /** The chunk's header (the one remembered, or this one read) and choice index become the decoded ones. */
  private takeHeader(
    data: string,
    header: 'known' | 'new',
    headerEnd: number,
    index: number,
  ): Record<string, unknown> | null {
    const fields = header === 'known' ? this.headerFields : this.newHeader(data, headerEnd);
    if (fields === null) return null;
    this.fields = fields;
    this.plainHeader = this.headerPlain;
    this.id = this.headerId;
    this.model = this.headerModel;
    this.choiceIndex = index;
    return fields;
  }

  /** The rest of a `finish` chunk, the scanner at its finish reason. */
  private finish(data: string, header: 'known' | 'new', headerEnd: number, index: number): 'finish' | null {
    const json = this.json;
    const value = json.str();
    if (value === undefined || !json.lit('}]') || !this.tail()) return null;
    if (this.takeHeader(data, header, headerEnd, index) === null) return null;
    this.template = 'finish';
    this.value = value;
    return 'finish';
  }

  /** Where the last delta's string starts, and where the template's text after it starts. */
  private valueStart = 0;
  private valueEnd = 0;

  /** The delta's string literal, its bounds remembered. */
  private deltaString(): string | undefined {
    const json = this.json;
    this.valueStart = json.pos;
    const value = json.str();
    this.valueEnd = json.pos;
    return value;
  }

  /** One of the delta templates into `template`, `value`, `toolIndex`; null when none. */
  private readDelta(): ChatDeltaKind | null {
    const json = this.json;
    let template: ChatDeltaTemplate;
    let kind: ChatDeltaKind;
    let value: string | undefined;
    if (json.lit('{"content":')) {
      if (json.lit('null,"reasoning_content":')) {
        template = 'nullContent+reasoningContent';
        kind = 'reasoning';
        value = this.deltaString();
        if (value === undefined || !json.ch(CLOSE)) return null;
      } else {
        kind = 'text';
        value = this.deltaString();
        if (value === undefined) return null;
        if (json.ch(CLOSE)) template = 'content';
        else if (json.lit(',"reasoning_content":null}')) template = 'content+nullReasoningContent';
        else return null;
      }
    } else if (json.lit('{"reasoning_content":')) {
      template = 'reasoningContent';
      kind = 'reasoning';
      value = this.deltaString();
      if (value === undefined || !json.ch(CLOSE)) return null;
    } else if (json.lit('{"reasoning":')) {
      template = 'reasoning';
      kind = 'reasoning';
      value = this.deltaString();
      if (value === undefined || !json.ch(CLOSE)) return null;
    } else if (json.lit('{"tool_calls":[{"index":')) {
      template = 'toolArgs';
      kind = 'toolArgs';
      const index = json.int();
      if (index < 0 || !json.lit(',"function":{"arguments":')) return null;
      value = this.deltaString();
      if (value === undefined || !json.lit('}}]}')) return null;
      this.toolIndex = index;
    } else return null;
    this.template = template;
    this.value = value;
    return kind;
  }

  /** The kind of delta `data` carries by template (the fields above set); null: not a template, use JSON.parse. */
  match(data: string): ChatDeltaKind | null {
    const around = this.around;
    const json = this.json;
    const n = around.length;
    for (let k = 0; k < n; k++) {
      const i = (this.lastAround + k) % n;
      const entry = around[i]!;
      if (!json.begin(data, entry.before)) continue;
      const value = json.str();
      // The text around matched, the rest did not: read it in full (it may still be a template).
      if (value === undefined || !json.lit(entry.after) || !this.tail()) break;
      this.lastAround = i;
      this.fields = entry.fields;
      this.plainHeader = entry.plainHeader;
      this.id = entry.id;
      this.model = entry.model;
      this.choiceIndex = entry.choiceIndex;
      this.template = entry.template;
      this.toolIndex = entry.toolIndex;
      this.value = value;
      return entry.kind;
    }
    return this.matchFully(data);
  }

  /** After the choices: optional `"usage":null` and `"obfuscation":S`, then the end. */
  private tail(): boolean {
    const json = this.json;
    let usageNull = true;
    let hasObfuscation = true;
    // OpenAI's own order, both present, is the common case: one comparison.
    if (!json.lit(',"usage":null,"obfuscation":')) {
      usageNull = json.lit(',"usage":null');
      hasObfuscation = json.lit(',"obfuscation":');
    }
    let obfuscation: string | undefined;
    if (hasObfuscation) {
      obfuscation = json.str();
      if (obfuscation === undefined) return false;
    }
    if (!json.ch(CLOSE) || !json.done()) return false;
    this.usageNull = usageNull;
    this.obfuscation = obfuscation;
    return true;
  }

  /** `match` without the remembered text around the string; remembers it for the next chunks. */
  private matchFully(data: string): ChatDeltaKind | null {
    const header = this.findHeader(data);
    const json = this.json;
    const headerEnd = json.pos;
    if (header === null || !json.lit('{"index":')) return null;
    const index = json.int();
    if (index < 0 || !json.lit(',"delta":')) return null;
    // Once per answer: not remembered.
    if (json.lit('{},"logprobs":null,"finish_reason":')) return this.finish(data, header, headerEnd, index);
    const kind = this.readDelta();
    if (kind === null) return null;
    const afterFrom = this.valueEnd;
    if (!json.lit(',"logprobs":null,"finish_reason":null}]')) return null;
    const afterTo = json.pos;
    if (!this.tail()) return null;
    const fields = this.takeHeader(data, header, headerEnd, index);
    if (fields === null) return null;
    const entry = new Around(
      data.slice(0, this.valueStart),
      data.slice(afterFrom, afterTo),
      fields,
      this.headerPlain,
      this.headerId,
      this.headerModel,
      index,
      this.template,
      kind,
      this.toolIndex,
    );
    this.lastAround = this.nextAround;
    this.around[this.nextAround] = entry;
    this.nextAround = (this.nextAround + 1) % AROUND;
    return kind;
  }
}
