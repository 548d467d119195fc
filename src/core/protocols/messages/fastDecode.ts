/**
 * Anthropic Messages deltas by exact template, before `JSON.parse` (see `../jsonScanner.ts`):
 * `{"type":"content_block_delta","index":N,"delta":{"type":T,F:S}}`, padded before the last brace, for the
 * three delta types that carry content; the ping; and the ends of a block and of the message,
 * `{"type":"content_block_stop","index":N}` and `{"type":"message_stop"}`, padded too (read once per block,
 * but each through JSON.parse and the shape checks cost a short answer more than its deltas right after a GC).
 */
import { JsonScanner } from '../jsonScanner.ts';

const CLOSE = 125; // }

/** What a content delta adds: `text_delta`, `thinking_delta`, `input_json_delta`. */
export type MessagesDeltaKind = 'text' | 'reasoning' | 'toolArgs';

/** The other events read by template. */
type MessagesOtherKind = 'ping' | 'blockStop' | 'messageStop';

const BLOCK_STOP = '{"type":"content_block_stop","index":';
const MESSAGE_STOP = '{"type":"message_stop"';

/** One stream's template reader: the fields of the last match, and the prefix its deltas repeat. */
export class MessagesFastDecoder {
  private readonly json = new JsonScanner();
  // Consecutive deltas of a block share everything up to the string: that prefix is remembered, so that
  // most events are checked with one comparison.
  private prefix = '';
  private prefixIndex = 0;
  private prefixKind: MessagesDeltaKind = 'text';

  /** The block index of the last delta or block stop matched. */
  index = 0;
  /** The string of the last delta matched. */
  value = '';

  /** The template `data` matches (the fields above set for a delta); null: not a template, use JSON.parse. */
  match(data: string): MessagesDeltaKind | MessagesOtherKind | null {
    if (data === '{"type": "ping"}' || data === '{"type":"ping"}') return 'ping';
    const json = this.json;
    // The ends, told apart from deltas by the character after `{"type":"`.
    const c = data.charCodeAt(9);
    if (c === 109 /* m */) return json.begin(data, MESSAGE_STOP) && this.closed() ? 'messageStop' : null;
    if (c === 99 /* c */ && data.charCodeAt(23) === 115 /* s: content_block_stop or _start */) {
      if (!json.begin(data, BLOCK_STOP)) return null;
      const index = json.int();
      if (index < 0 || !this.closed()) return null;
      this.index = index;
      return 'blockStop';
    }
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
    if (value === undefined || !json.ch(CLOSE) || !this.closed()) return null;
    this.index = index;
    this.value = value;
    return kind;
  }

  /** The padding and the last brace, to the end. */
  private closed(): boolean {
    const json = this.json;
    json.spaces();
    return json.ch(CLOSE) && json.done();
  }
}
