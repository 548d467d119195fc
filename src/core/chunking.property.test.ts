/**
 * Property: how the network cuts the bytes never changes the result. For every fixture, any split into chunks
 * (random cut points, uniform tiny chunks down to 1 byte, cuts inside multi-byte UTF-8 characters and between
 * `\r` and `\n`) gives a Turn deep-equal to the one-chunk Turn; framing vectors give the same event list.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSseParser, readTurn } from './index.ts';
import type { SseItem } from './sse/types.ts';
import {
  everyNBytes,
  loadFramingFixtures,
  loadStreamFixtures,
  splitBytes,
  streamFromBytes,
} from './testing/fixtures.ts';
import type { Protocol, Turn } from './turn.ts';

/** A random seed each run (fast-check prints it on failure); `FC_SEED=<n>` replays one. */
const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

/** Larger fixtures get fewer runs so the whole file stays well under 20 s. */
function runsFor(size: number): number {
  if (size > 100_000) return 8;
  if (size > 20_000) return 25;
  return 60;
}

/** Cut points that land inside a multi-byte UTF-8 sequence or between a CR and its LF. */
function trickyOffsets(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80)
      out.push(i); // continuation byte: the cut splits a character
    else if (b === 0x0a && bytes[i - 1] === 0x0d) out.push(i); // between CR and LF
  }
  return out;
}

/** Arbitrary split of `length` bytes: a list of cut offsets. */
function splitArb(length: number, tricky: number[]): fc.Arbitrary<number[]> {
  if (length < 2) return fc.constant([]);
  const random = fc.uniqueArray(fc.integer({ min: 1, max: length - 1 }), { maxLength: 80 });
  const uniform = fc.integer({ min: 1, max: 48 }).map((size) => everyNBytes(length, size));
  const arbs: fc.Arbitrary<number[]>[] = [random, uniform];
  if (tricky.length > 0) {
    const someTricky = fc.subarray(tricky, { maxLength: Math.min(200, tricky.length) });
    arbs.push(
      someTricky,
      fc.tuple(someTricky, random).map(([a, b]) => [...a, ...b]),
    );
  }
  return fc.oneof(...arbs);
}

async function turnOf(protocol: Protocol, bytes: Uint8Array, offsets: number[]): Promise<Turn> {
  return readTurn(protocol, streamFromBytes(bytes, offsets), { now: () => 0 });
}

const streams = loadStreamFixtures();

describe('chunking never changes the Turn', () => {
  it('has tricky cut points to exercise (multi-byte characters in the fixtures)', () => {
    expect(streams.some((f) => trickyOffsets(f.bytes).length > 0)).toBe(true);
  });

  for (const f of streams) {
    describe(f.name, () => {
      let reference: Turn;
      const tricky = trickyOffsets(f.bytes);
      beforeAll(async () => {
        reference = await turnOf(f.protocol, f.bytes, []);
        expect(reference.status).not.toBe('streaming');
      });

      it('1-byte chunks', async () => {
        expect(await turnOf(f.protocol, f.bytes, everyNBytes(f.bytes.length, 1))).toStrictEqual(reference);
      });

      it('any split (fast-check)', async () => {
        await fc.assert(
          fc.asyncProperty(splitArb(f.bytes.length, tricky), async (offsets) => {
            expect(await turnOf(f.protocol, f.bytes, offsets)).toStrictEqual(reference);
          }),
          { numRuns: runsFor(f.bytes.length), ...seed, endOnFailure: true },
        );
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------------------

interface Parsed {
  type: SseItem['type'];
  event?: string;
  data?: string;
  id?: string;
  text?: string;
}

/** Events and comments without their arrival stamps (those depend on the chunking by design). */
function parse(bytes: Uint8Array, offsets: number[]): Parsed[] {
  const items: Parsed[] = [];
  const parser = createSseParser((item) => {
    const { at: _at, ...rest } = item;
    items.push(rest);
  });
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (const chunk of splitBytes(bytes, offsets)) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  parser.end();
  return items;
}

describe('chunking never changes the parsed SSE items (framing vectors)', () => {
  for (const f of loadFramingFixtures()) {
    it(f.name, () => {
      const reference = parse(f.bytes, []);
      expect(reference.filter((i) => i.type === 'event').length).toBe(f.expected.length);
      fc.assert(
        fc.property(splitArb(f.bytes.length, trickyOffsets(f.bytes)), (offsets) => {
          expect(parse(f.bytes, offsets)).toStrictEqual(reference);
        }),
        { numRuns: 150, ...seed, endOnFailure: true },
      );
    });
  }
});
