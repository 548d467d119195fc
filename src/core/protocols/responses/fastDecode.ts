/**
 * OpenAI Responses deltas by exact template, before `JSON.parse` (see `../jsonScanner.ts`): the three delta
 * events in OpenAI's field order,
 * `{"type":T,"sequence_number":N,"item_id":S,"output_index":N[,"content_index"|"summary_index":N],"delta":S}`,
 * optionally followed by `"logprobs":[]` and `"obfuscation":S`.
 */
import { JsonScanner } from '../jsonScanner.ts';

const CLOSE = 125; // }

/**
 * What a delta adds: `response.output_text.delta`, `response.reasoning_summary_text.delta`,
 * `response.function_call_arguments.delta`.
 */
export type ResponsesDeltaKind = 'text' | 'reasoning' | 'toolArgs';

/** Each template up to its first number, told apart by the character after `{"type":"response.`. */
const heads: Record<ResponsesDeltaKind, string> = {
  text: '{"type":"response.output_text.delta","sequence_number":',
  toolArgs: '{"type":"response.function_call_arguments.delta","sequence_number":',
  reasoning: '{"type":"response.reasoning_summary_text.delta","sequence_number":',
};
const KIND_AT = '{"type":"response.'.length;

/** From the item id to the delta: the text and the values it holds. */
interface Middle {
  text: string;
  itemId: string;
  outputIndex: number;
  part: number;
}

/**
 * From the item id to the delta, consecutive events of an item repeat the same text: the last few are
 * remembered per kind (parallel tool calls interleave their argument deltas). The entry hit last is tried
 * first; a new one replaces the oldest.
 */
const MIDDLES = 4;
class MiddleCache {
  entries: Middle[] = [];
  /** The entry hit or added last. */
  last = 0;
  /** Where the next new entry goes once the cache is full (the oldest). */
  next = 0;
}

/** One stream's template reader: the fields of the last match, and the middles its deltas repeat. */
export class ResponsesFastDecoder {
  private readonly json = new JsonScanner();
  private readonly middles: Record<ResponsesDeltaKind, MiddleCache> = {
    text: new MiddleCache(),
    toolArgs: new MiddleCache(),
    reasoning: new MiddleCache(),
  };
  /** How many deltas had to be read in full (the middle cache's misses): for tests. */
  middleMisses = 0;

  // The fields of the last match.
  sequenceNumber = 0;
  itemId = '';
  outputIndex = 0;
  /** `content_index` of a text delta, `summary_index` of a reasoning one; 0 for tool arguments. */
  part = 0;
  value = '';
  logprobs = false;
  obfuscation: string | undefined = undefined;

  private cachedMiddle(kind: ResponsesDeltaKind): Middle | undefined {
    const cache = this.middles[kind];
    const entries = cache.entries;
    const n = entries.length;
    for (let k = 0; k < n; k++) {
      const i = (cache.last + k) % n;
      const entry = entries[i]!;
      if (this.json.lit(entry.text)) {
        cache.last = i;
        return entry;
      }
    }
    return undefined;
  }

  /** Reads the middle in full and remembers it. */
  private readMiddle(kind: ResponsesDeltaKind): Middle | undefined {
    const json = this.json;
    const from = json.pos;
    if (!json.lit(',"item_id":')) return undefined;
    const itemId = json.str();
    if (itemId === undefined || !json.lit(',"output_index":')) return undefined;
    const outputIndex = json.int();
    if (outputIndex < 0) return undefined;
    let part = 0;
    if (kind !== 'toolArgs') {
      if (!json.lit(kind === 'text' ? ',"content_index":' : ',"summary_index":')) return undefined;
      part = json.int();
      if (part < 0) return undefined;
    }
    if (!json.lit(',"delta":')) return undefined;
    this.middleMisses++;
    const entry: Middle = { text: json.src.slice(from, json.pos), itemId, outputIndex, part };
    const cache = this.middles[kind];
    cache.last = cache.next;
    cache.entries[cache.next] = entry;
    cache.next = (cache.next + 1) % MIDDLES;
    return entry;
  }

  /** The template `data` matches (the fields above set); null: not a template, use JSON.parse. */
  match(data: string): ResponsesDeltaKind | null {
    const c = data.charCodeAt(KIND_AT);
    const kind: ResponsesDeltaKind | null =
      c === 111 /* o */ ? 'text' : c === 102 /* f */ ? 'toolArgs' : c === 114 /* r */ ? 'reasoning' : null;
    const json = this.json;
    if (kind === null || !json.begin(data, heads[kind])) return null;
    const sequenceNumber = json.int();
    if (sequenceNumber < 0) return null;
    const middle = this.cachedMiddle(kind) ?? this.readMiddle(kind);
    if (middle === undefined) return null;
    const value = json.str();
    if (value === undefined) return null;
    // OpenAI's own order, both present, is the common case: one comparison.
    let logprobs = true;
    let hasObfuscation = true;
    if (!json.lit(',"logprobs":[],"obfuscation":')) {
      logprobs = json.lit(',"logprobs":[]');
      hasObfuscation = json.lit(',"obfuscation":');
    }
    const obfuscation = hasObfuscation ? json.str() : undefined;
    if ((hasObfuscation && obfuscation === undefined) || !json.ch(CLOSE) || !json.done()) return null;
    this.sequenceNumber = sequenceNumber;
    this.itemId = middle.itemId;
    this.outputIndex = middle.outputIndex;
    this.part = middle.part;
    this.value = value;
    this.logprobs = logprobs;
    this.obfuscation = obfuscation;
    return kind;
  }
}
