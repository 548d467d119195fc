import { describe, expect, it } from 'vitest';
import { silenceBeforeEnd, type TraceInput, traceFigures } from './traceFigures.ts';

const ev = (t: number) => ({ t, kind: 'event' as const });
const ka = (t: number) => ({ t, kind: 'comment' as const });

function trace(partial: Partial<TraceInput>): TraceInput {
  return { headersAt: 40, firstOutputAt: 100, endedAt: 1_000, bytes: 0, items: [], ...partial };
}

describe('traceFigures', () => {
  it('passes time to headers, first token, duration and bytes through', () => {
    const f = traceFigures(
      trace({ headersAt: 37, firstOutputAt: 120, endedAt: 950, bytes: 4321, items: [ev(120)] }),
      null,
      0,
    );
    expect(f).toMatchObject({ timeToHeadersMs: 37, timeToFirstTokenMs: 120, durationMs: 950, bytes: 4321 });
  });

  it('keeps nulls of an attempt that never got headers or output', () => {
    const f = traceFigures(trace({ headersAt: null, firstOutputAt: null, endedAt: 30 }), 10, 3);
    expect(f).toMatchObject({
      timeToHeadersMs: null,
      timeToFirstTokenMs: null,
      durationMs: 30,
      tokensPerSecond: null,
      tokensPerSecondSource: null,
      longestSilenceMs: 0,
      longestSilenceStartMs: 0,
      keepalives: 0,
      events: 0,
    });
  });

  it('finds the longest gap between two events and where it starts', () => {
    const f = traceFigures(
      trace({ headersAt: 40, endedAt: 5_050, items: [ev(100), ev(200), ev(3_200), ev(5_000)] }),
      null,
      0,
    );
    expect(f.longestSilenceMs).toBe(3_000);
    expect(f.longestSilenceStartMs).toBe(200);
  });

  it('counts the wait from the headers to the first event as silence', () => {
    const f = traceFigures(trace({ headersAt: 50, endedAt: 9_100, items: [ev(9_000), ev(9_050)] }), null, 0);
    expect(f.longestSilenceMs).toBe(8_950);
    expect(f.longestSilenceStartMs).toBe(50);
  });

  it('does not count the time before the headers as silence', () => {
    const f = traceFigures(trace({ headersAt: 8_000, endedAt: 8_300, items: [ev(8_100)] }), null, 0);
    expect(f.longestSilenceMs).toBe(200);
    expect(f.longestSilenceStartMs).toBe(8_100);
  });

  it('counts the wait from the last event to the end as silence', () => {
    const f = traceFigures(trace({ headersAt: 40, endedAt: 12_100, items: [ev(100), ev(200)] }), null, 0);
    expect(f.longestSilenceMs).toBe(11_900);
    expect(f.longestSilenceStartMs).toBe(200);
  });

  it('without headers or end, silence runs from the first to the last event only', () => {
    const f = traceFigures(trace({ headersAt: null, endedAt: null, items: [ev(100), ev(300)] }), null, 0);
    expect(f.longestSilenceMs).toBe(200);
    expect(f.longestSilenceStartMs).toBe(100);
  });

  it('keepalives inside a gap do not shorten it', () => {
    const items = [ev(100), ka(10_100), ka(20_100), ev(25_100), ev(25_200)];
    const f = traceFigures(trace({ headersAt: 40, endedAt: 25_200, items }), null, 0);
    expect(f.longestSilenceMs).toBe(25_000);
    expect(f.longestSilenceStartMs).toBe(100);
  });

  it('keepalives at the end do not shorten the trailing silence', () => {
    const items = [ev(100), ka(5_000), ka(10_000), ka(15_000)];
    const f = traceFigures(trace({ headersAt: 40, endedAt: 15_500, items }), null, 0);
    expect(f.longestSilenceMs).toBe(15_400);
    expect(f.longestSilenceStartMs).toBe(100);
  });

  it('counts keepalives and events separately', () => {
    const items = [ka(50), ev(100), ka(200), ka(300), ev(400), ev(500), ka(600)];
    const f = traceFigures(trace({ items, endedAt: 700 }), null, 0);
    expect(f.keepalives).toBe(4);
    expect(f.events).toBe(3);
  });

  it('takes tokens/s from reported usage over the generation time', () => {
    // 50 tokens from first output (100) to end (2 100): 25 tok/s, whatever the counted deltas say.
    const f = traceFigures(trace({ firstOutputAt: 100, endedAt: 2_100 }), 50, 999);
    expect(f.tokensPerSecond).toBeCloseTo(25, 10);
    expect(f.tokensPerSecondSource).toBe('usage');
  });

  it('uses reported usage of zero tokens rather than counted deltas', () => {
    const f = traceFigures(trace({ firstOutputAt: 100, endedAt: 1_100 }), 0, 30);
    expect(f.tokensPerSecond).toBe(0);
    expect(f.tokensPerSecondSource).toBe('usage');
  });

  it('falls back to counted delta events without usage', () => {
    const f = traceFigures(trace({ firstOutputAt: 500, endedAt: 4_500 }), null, 20);
    expect(f.tokensPerSecond).toBeCloseTo(5, 10);
    expect(f.tokensPerSecondSource).toBe('events');
  });

  it('has no rate without usage or counted deltas', () => {
    const f = traceFigures(trace({ firstOutputAt: 500, endedAt: 4_500 }), null, 0);
    expect(f.tokensPerSecond).toBeNull();
    expect(f.tokensPerSecondSource).toBeNull();
  });

  it('while the answer streams, has the rate so far, up to its last event', () => {
    // 20 deltas counted from first output (100) to the last event so far (1 100): 20 a second.
    const items = [ev(100), ev(600), ka(900), ev(1_100)];
    const f = traceFigures(trace({ firstOutputAt: 100, endedAt: null, items }), null, 20);
    expect(f.tokensPerSecond).toBeCloseTo(20, 10);
    expect(f.tokensPerSecondSource).toBe('events');
    expect(f.durationMs).toBeNull();
  });

  it('has no rate when there was no generation time', () => {
    for (const [firstOutputAt, endedAt] of [
      [null, 1_000],
      [100, null],
      [700, 700],
    ] as const) {
      const f = traceFigures(trace({ firstOutputAt, endedAt }), 40, 40);
      expect(f.tokensPerSecond, `${firstOutputAt} → ${endedAt}`).toBeNull();
      expect(f.tokensPerSecondSource).toBeNull();
    }
  });
});

describe('silenceBeforeEnd', () => {
  const ended = (partial: Partial<TraceInput>, truncated = false) => ({ ...trace(partial), truncated });
  it.each([
    [
      'silence up to the error event',
      ended({ endedAt: 30_100, items: [ev(100), ka(10_100), ev(30_000)] }),
      29_900,
    ],
    [
      'silence up to a cut (no terminal event)',
      ended({ endedAt: 30_100, items: [ev(100), ka(10_100)] }),
      30_000,
    ],
    ['output right before the end', ended({ endedAt: 30_100, items: [ev(100), ev(20_000), ev(30_000)] }), 0],
    [
      'a long silence earlier, not at the end',
      ended({ endedAt: 30_300, items: [ev(100), ev(29_000), ev(30_000), ev(30_200)] }),
      0,
    ],
    ['a capped recording', ended({ endedAt: 30_100, items: [ev(100), ev(30_000)] }, true), 0],
    ['no end yet', ended({ endedAt: null, items: [ev(100)] }), 0],
  ])('%s', (_name, input, expected) => {
    expect(silenceBeforeEnd(input)).toBe(expected);
  });
});
