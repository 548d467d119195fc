/**
 * OpenAI Chat Completions chunks by exact template, before `JSON.parse` (see `../jsonScanner.ts`): a chunk is
 * `{HEADER"choices":[CHOICE]TAIL}`. The header (id, object, created, model, fingerprint… in the provider's
 * own order) is the same text in every chunk of a stream, so it is parsed once by JSON.parse and reused
 * while it repeats. CHOICE is one choice whose delta carries only content, reasoning or one tool call's
 * argument piece; TAIL is optional `"usage":null`, `"obfuscation":S`.
 */
import { JsonScanner } from '../jsonScanner.ts';

const CLOSE = 125; // }
const CHOICES = '"choices":[';

/** What a delta adds. */
export type ChatDeltaKind = 'text' | 'reasoning' | 'toolArgs';

/** The exact delta object, for rebuilding the chunk (tests); `kind` is what readers need. */
export type ChatDeltaTemplate =
  | 'content' // {"content":S}
  | 'content+nullReasoningContent' // {"content":S,"reasoning_content":null}
  | 'nullContent+reasoningContent' // {"content":null,"reasoning_content":S}
  | 'reasoningContent' // {"reasoning_content":S}
  | 'reasoning' // {"reasoning":S}
  | 'toolArgs'; // {"tool_calls":[{"index":N,"function":{"arguments":S}}]}

/** One stream's template reader: the fields of the last match, and the header its chunks repeat. */
export class ChatFastDecoder {
  private readonly json = new JsonScanner();
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
   * The header fields of `data`, with the scanner just after `"choices":[`; or null. The last header is
   * checked first; only a new one is searched for and parsed.
   */
  private readHeader(data: string): Record<string, unknown> | null {
    const json = this.json;
    if (this.headerFields !== null && json.begin(data, this.header)) return this.headerFields;
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
    // `__proto__` is left to JSON.parse: a copy of these fields would set the prototype instead of a key.
    if (Object.hasOwn(fields, '__proto__')) return null;
    for (const value of Object.values(fields)) if (value !== null && typeof value === 'object') return null;
    // An id or model of another type is left to the slow path, which reports it.
    const { id, model } = fields as { id?: unknown; model?: unknown };
    if ((id != null && typeof id !== 'string') || (model != null && typeof model !== 'string')) return null;
    this.header = data.slice(0, at + CHOICES.length);
    this.headerFields = fields as Record<string, unknown>;
    this.headerPlain = !('error' in fields || 'usage' in fields || 'x_groq' in fields);
    this.headerId = (fields as { id?: string }).id;
    this.headerModel = (fields as { model?: string }).model;
    json.begin(data, this.header);
    return this.headerFields;
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
        value = json.str();
        if (value === undefined || !json.ch(CLOSE)) return null;
      } else {
        kind = 'text';
        value = json.str();
        if (value === undefined) return null;
        if (json.ch(CLOSE)) template = 'content';
        else if (json.lit(',"reasoning_content":null}')) template = 'content+nullReasoningContent';
        else return null;
      }
    } else if (json.lit('{"reasoning_content":')) {
      template = 'reasoningContent';
      kind = 'reasoning';
      value = json.str();
      if (value === undefined || !json.ch(CLOSE)) return null;
    } else if (json.lit('{"reasoning":')) {
      template = 'reasoning';
      kind = 'reasoning';
      value = json.str();
      if (value === undefined || !json.ch(CLOSE)) return null;
    } else if (json.lit('{"tool_calls":[{"index":')) {
      template = 'toolArgs';
      kind = 'toolArgs';
      const index = json.int();
      if (index < 0 || !json.lit(',"function":{"arguments":')) return null;
      value = json.str();
      if (value === undefined || !json.lit('}}]}')) return null;
      this.toolIndex = index;
    } else return null;
    this.template = template;
    this.value = value;
    return kind;
  }

  /** The kind of delta `data` carries by template (the fields above set); null: not a template, use JSON.parse. */
  match(data: string): ChatDeltaKind | null {
    const fields = this.readHeader(data);
    const json = this.json;
    if (fields === null || !json.lit('{"index":')) return null;
    const index = json.int();
    if (index < 0 || !json.lit(',"delta":')) return null;
    const kind = this.readDelta();
    if (kind === null || !json.lit(',"logprobs":null,"finish_reason":null}]')) return null;
    const usageNull = json.lit(',"usage":null');
    let obfuscation: string | undefined;
    if (json.lit(',"obfuscation":')) {
      obfuscation = json.str();
      if (obfuscation === undefined) return null;
    }
    if (!json.ch(CLOSE) || !json.done()) return null;
    this.fields = fields;
    this.plainHeader = this.headerPlain;
    this.id = this.headerId;
    this.model = this.headerModel;
    this.choiceIndex = index;
    this.usageNull = usageNull;
    this.obfuscation = obfuscation;
    return kind;
  }
}
