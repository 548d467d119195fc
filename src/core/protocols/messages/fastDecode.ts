/**
 * Anthropic Messages deltas by exact template, before `JSON.parse` (see `../jsonScanner.ts`):
 * `{"type":"content_block_delta","index":N,"delta":{"type":T,F:S}}`, padded before the last brace, for the
 * three delta types that carry content; and the ping.
 */
import { JsonScanner } from '../jsonScanner.ts';

const CLOSE = 125; // }

/** What a content delta adds: `text_delta`, `thinking_delta`, `input_json_delta`. */
export type MessagesDeltaKind = 'text' | 'reasoning' | 'toolArgs';

/** One stream's template reader: the fields of the last match, and the prefix its deltas repeat. */
export class MessagesFastDecoder {
  private readonly json = new JsonScanner();
  // Consecutive deltas of a block share everything up to the string: that prefix is remembered, so that
  // most events are checked with one comparison.
  private prefix = '';
  private prefixIndex = 0;
  private prefixKind: MessagesDeltaKind = 'text';

  /** The block index of the last delta matched. */
  index = 0;
  /** The string of the last delta matched. */
  value = '';

  /** The template `data` matches (the fields above set for a delta); null: not a template, use JSON.parse. */
  match(data: string): MessagesDeltaKind | 'ping' | null {
    if (data === '{"type": "ping"}' || data === '{"type":"ping"}') return 'ping';
    const json = this.json;
    let index = this.prefixIndex;
    let kind = this.prefixKind;
    if (!json.begin(data, this.prefix) || this.prefix === '') {
      if (!json.begin(data, '{"type":"content_block_delta","index":')) return null;
      index = json.int();
      if (index < 0) return null;
      if (json.lit(',"delta":{"type":"text_delta","text":')) kind = 'text';
      else if (json.lit(',"delta":{"type":"input_json_delta","partial_json":')) kind = 'toolArgs';
      else if (json.lit(',"delta":{"type":"thinking_delta","thinking":')) kind = 'reasoning';
      else return null;
      this.prefix = data.slice(0, json.pos);
      this.prefixIndex = index;
      this.prefixKind = kind;
    }
    const value = json.str();
    if (value === undefined || !json.ch(CLOSE)) return null;
    json.spaces();
    if (!json.ch(CLOSE) || !json.done()) return null;
    this.index = index;
    this.value = value;
    return kind;
  }
}
