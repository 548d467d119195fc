import { keepShape } from '../keepShape.ts';

/**
 * Whether `bytes` (not empty) ends on a whole UTF-8 sequence: its last byte is ASCII, or its last lead byte has all the
 * continuation bytes it announces. Conservative: anything else (a sequence cut short, a run of
 * continuation bytes with no lead in the chunk, an invalid lead) counts as not whole.
 */
function endsWhole(bytes: Uint8Array): boolean {
  const n = bytes.length;
  if (bytes[n - 1]! < 0x80) return true;
  let k = 1;
  while (k <= 3 && k < n && (bytes[n - k]! & 0xc0) === 0x80) k++;
  const lead = bytes[n - k]!;
  const length = lead >= 0xf0 ? (lead < 0xf8 ? 4 : 0) : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  return length === k;
}

/**
 * From this many bytes a chunk decodes faster through the streaming decoder (ICU's converter) than through
 * Node's whole-input fast path (V8's UTF-8 decoder): 1.1 to 1.8 times as fast at 2 to 64 KB of mixed-script
 * text, about as fast at 1 KB, measured; at a few hundred bytes, a server's one-event chunk, the fast path
 * is up to twice as fast.
 */
const largeChunk = 1024;
/**
 * Large chunks go through the streaming decoder only once a stream has brought this many bytes: opening
 * it (its first streaming decode) costs 5–30 µs after a full GC, a few percent of a short answer's reading.
 */
const longStream = 1 << 16;

/**
 * A network chunk's bytes to text, as one streaming `TextDecoder` would give them (a BOM kept). A chunk
 * that ends on a whole character, with nothing held from the one before, goes through a decoder never used
 * in streaming mode: Node's decoder leaves its fast path for good at its first `{stream: true}`, and a
 * streaming decode of a server's small chunk cost about 60 % more. Chunks that cut a character go
 * through the streaming one, which holds the cut bytes until the next chunk, and so do large chunks of a
 * long stream (see `largeChunk`).
 */
export class ChunkDecoder {
  /** Made at the first small whole chunk (a decoder costs a microsecond or two to make). */
  private whole: TextDecoder | null = null;
  /** Made when a chunk first cuts a character, or a long stream brings a large chunk (see `longStream`). */
  private streaming: TextDecoder | null = null;
  /** Whether the streaming decoder may hold the start of a character. */
  private holding = false;
  /** Bytes decoded so far, counted up to `longStream`. */
  private decoded = 0;

  decode(bytes: Uint8Array): string {
    // An empty chunk changes nothing, not even what the streaming decoder holds.
    if (bytes.length === 0) return '';
    const whole = endsWhole(bytes);
    const long = this.decoded >= longStream;
    if (!long) this.decoded += bytes.length;
    if (whole && !this.holding && (bytes.length < largeChunk || !long)) {
      this.whole ??= new TextDecoder('utf-8', { ignoreBOM: true });
      return this.whole.decode(bytes);
    }
    this.streaming ??= new TextDecoder('utf-8', { ignoreBOM: true });
    const text = this.streaming.decode(bytes, streaming);
    this.holding = !whole;
    return text;
  }

  /** The end of the stream: a character cut short becomes U+FFFD. */
  end(): string {
    return this.holding && this.streaming !== null ? this.streaming.decode() : '';
  }
}

const streaming = { stream: true } as const;

keepShape(new ChunkDecoder());
