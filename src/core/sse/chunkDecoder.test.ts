/**
 * `ChunkDecoder` gives exactly what one streaming `TextDecoder` gives, however the bytes are cut: valid
 * UTF-8 of every length, invalid and truncated sequences, a BOM, cuts inside characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkDecoder } from './chunkDecoder.ts';

/** A random seed each run (fast-check prints it on failure); `FC_SEED=<n>` replays one. */
const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

function streamed(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let out = '';
  for (const chunk of chunks) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}

function chunked(chunks: Uint8Array[]): string {
  const decoder = new ChunkDecoder();
  let out = '';
  for (const chunk of chunks) out += decoder.decode(chunk);
  return out + decoder.end();
}

function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const at = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    out.push(bytes.subarray(from, to));
    from = to;
  }
  return out;
}

const encoder = new TextEncoder();
/** Text with characters of one to four bytes, and a BOM now and then. */
const text = fc
  .array(fc.constantFrom('a', '\n', 'é', 'ж', '世', '€', '🚀', '𝄞', '\uFEFF', ' "q"'), { maxLength: 40 })
  .map((parts) => encoder.encode(parts.join('')));
/** Any bytes at all: lone continuation bytes, leads cut short, overlong forms, 0xF5–0xFF. */
const anyBytes = fc.uint8Array({ maxLength: 40 });
/** Valid text with bytes spliced in. */
const damaged = fc
  .tuple(text, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 6 }))
  .map(([bytes, hits]) => {
    const copy = Uint8Array.from(bytes);
    for (const [at, byte] of hits) if (copy.length > 0) copy[at % copy.length] = byte;
    return copy;
  });

describe('ChunkDecoder', () => {
  it('decodes like one streaming TextDecoder, whatever the bytes and the cuts', () => {
    fc.assert(
      fc.property(
        fc.oneof(text, anyBytes, damaged),
        fc.array(fc.nat(), { maxLength: 12 }),
        (bytes, offsets) => {
          const chunks = cut(bytes, offsets);
          expect(chunked(chunks)).toBe(streamed(chunks));
        },
      ),
      { numRuns: 3000, ...seed },
    );
  });

  it('decodes like one streaming TextDecoder in a long stream of large chunks too (another decoder reads them)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(text, anyBytes, damaged), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 6000 }), { minLength: 1, maxLength: 8 }),
        (samples, sizes) => {
          // About 100 kB, in chunks small and large (another decoder reads the large ones).
          const parts: Uint8Array[] = [];
          let length = 0;
          for (let i = 0; length < 100_000; i++) {
            const sample = samples[i % samples.length]!;
            parts.push(sample.length > 0 ? sample : encoder.encode('x'));
            length += Math.max(1, sample.length);
          }
          const bytes = new Uint8Array(length);
          let at = 0;
          for (const part of parts) {
            bytes.set(part, at);
            at += part.length;
          }
          const chunks: Uint8Array[] = [];
          for (let from = 0, i = 0; from < bytes.length; i++) {
            const to = Math.min(bytes.length, from + sizes[i % sizes.length]!);
            chunks.push(bytes.subarray(from, to));
            from = to;
          }
          expect(chunked(chunks)).toBe(streamed(chunks));
        },
      ),
      { numRuns: 60, ...seed },
    );
  });

  it('holds a character cut across chunks until its last byte comes', () => {
    const rocket = encoder.encode('🚀');
    const decoder = new ChunkDecoder();
    expect(decoder.decode(rocket.subarray(0, 1))).toBe('');
    expect(decoder.decode(rocket.subarray(1, 3))).toBe('');
    expect(decoder.decode(Uint8Array.of(...rocket.subarray(3), 0x61))).toBe('🚀a');
    expect(decoder.end()).toBe('');
  });

  it('ends a character cut short as U+FFFD', () => {
    const decoder = new ChunkDecoder();
    expect(decoder.decode(encoder.encode('€').subarray(0, 2))).toBe('');
    expect(decoder.end()).toBe('\uFFFD');
  });
});
