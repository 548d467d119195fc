/**
 * A stepper (what `readTurn` runs, with its template fast paths) must give exactly the turn that `decode`
 * (JSON.parse) then `reduce` gives, event after event, on every fixture and on the bench streams, whether
 * it copies the turn for each delta or writes into a turn that is its alone.
 */
import { describe, expect, it } from 'vitest';
import { generateStream } from '../../../bench/generate.ts';
import { createSseParser } from '../sse/parser.ts';
import type { SseEvent } from '../sse/types.ts';
import { loadStreamFixtures } from '../testing/fixtures.ts';
import { emptyTurn, type Protocol, type Turn } from '../turn.ts';
import { fail } from '../turnBuilder.ts';
import { adapters } from './index.ts';
import { MalformedEvent } from './json.ts';

function events(bytes: Uint8Array): SseEvent[] {
  const out: SseEvent[] = [];
  const parser = createSseParser((item) => {
    if (item.type === 'event') out.push(item);
  });
  parser.feed(new TextDecoder().decode(bytes));
  parser.end();
  return out;
}

/** `inPlace`: every turn is the stepper's alone (as in `readTurn` without callbacks), deltas written into it. */
function agreeThroughout(protocol: Protocol, stream: SseEvent[], inPlace: boolean): void {
  const adapter = adapters[protocol];
  const stepper = adapter.newStepper();
  let stepped: Turn = emptyTurn;
  let reduced: Turn = emptyTurn;
  for (const { data, event } of stream) {
    if (reduced.status !== 'streaming') break;
    const owned = inPlace && stepped !== emptyTurn && stepped.parts !== emptyTurn.parts;
    stepped = stepper.step(stepped, data, event, owned);
    const decoded = adapter.decode(data, event);
    reduced =
      decoded instanceof MalformedEvent
        ? fail(reduced, decoded.code, decoded.message)
        : adapter.reduce(reduced, decoded);
    expect(stepped).toStrictEqual(reduced);
  }
}

describe('step equals decode + reduce', () => {
  it('on every fixture, under every protocol', () => {
    for (const fixture of loadStreamFixtures()) {
      const stream = events(fixture.bytes);
      for (const protocol of ['chat', 'responses', 'messages'] as const)
        for (const inPlace of [false, true]) agreeThroughout(protocol, stream, inPlace);
    }
  });

  it('on the bench streams', () => {
    for (const protocol of ['chat', 'responses', 'messages'] as const)
      for (const inPlace of [false, true])
        agreeThroughout(protocol, events(generateStream(protocol, 300, 7).bytes), inPlace);
  });
});
