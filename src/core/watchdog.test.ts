/**
 * Stall watchdog on a fake clock (plain millisecond numbers). Two silences: the model saying nothing while
 * keepalives arrive (model-silent), and no bytes at all (connection-dead). See docs/protocols.md §1.2.
 */
import { describe, expect, it } from 'vitest';
import {
  assessStall,
  defaultStallThresholds,
  noteBytes,
  noteKeepalive,
  noteOutput,
  type StallThresholds,
  startWatch,
  type WatchState,
} from './watchdog.ts';

const thresholds: StallThresholds = { silentModelMs: 20_000, deadConnectionMs: 25_000 };

/** Applies notes in order: `['output', 1000]`, `['keepalive', 11000]`, `['bytes', 12000]`. */
function watch(start: number, notes: ['output' | 'keepalive' | 'bytes', number][]): WatchState {
  let state = startWatch(start);
  for (const [kind, at] of notes) {
    state =
      kind === 'output'
        ? noteOutput(state, at)
        : kind === 'keepalive'
          ? noteKeepalive(state, at)
          : noteBytes(state, at);
  }
  return state;
}

describe('watchdog', () => {
  it('defaults to 20 s of model silence and 25 s without bytes', () => {
    expect(defaultStallThresholds).toEqual({ silentModelMs: 20_000, deadConnectionMs: 25_000 });
  });

  it('starts with nothing seen', () => {
    expect(startWatch(500)).toEqual({
      startedAt: 500,
      lastOutputAt: null,
      lastByteAt: null,
      lastKeepaliveAt: null,
    });
  });

  it('is flowing while output keeps coming', () => {
    const state = watch(0, [
      ['output', 1_000],
      ['output', 15_000],
      ['output', 30_000],
    ]);
    expect(assessStall(state, 45_000, thresholds)).toEqual({ kind: 'flowing' });
  });

  it('reports model-silent once output stops for the threshold while keepalives arrive', () => {
    const state = watch(0, [
      ['output', 1_000],
      ['keepalive', 11_000],
      ['keepalive', 21_000],
    ]);
    expect(assessStall(state, 20_999, thresholds)).toEqual({ kind: 'flowing' });
    expect(assessStall(state, 21_000, thresholds)).toEqual({
      kind: 'model-silent',
      silentForMs: 20_000,
      lastByteAgoMs: 0,
      lastKeepaliveAgoMs: 0,
    });
    expect(assessStall(state, 29_000, thresholds)).toEqual({
      kind: 'model-silent',
      silentForMs: 28_000,
      lastByteAgoMs: 8_000,
      lastKeepaliveAgoMs: 8_000,
    });
  });

  it('reports lastKeepaliveAgo as null when the silence has no keepalives, only other bytes', () => {
    const state = watch(0, [
      ['output', 1_000],
      ['bytes', 15_000],
    ]);
    expect(assessStall(state, 22_000, thresholds)).toEqual({
      kind: 'model-silent',
      silentForMs: 21_000,
      lastByteAgoMs: 7_000,
      lastKeepaliveAgoMs: null,
    });
  });

  it('reports connection-dead when no bytes arrive for its threshold, even though the model is also silent', () => {
    const state = watch(0, [
      ['output', 1_000],
      ['keepalive', 11_000],
    ]);
    expect(assessStall(state, 35_999, thresholds).kind).toBe('model-silent');
    expect(assessStall(state, 36_000, thresholds)).toEqual({
      kind: 'connection-dead',
      silentForMs: 35_000,
      lastByteAgoMs: 25_000,
    });
  });

  it('lets a keepalive keep the connection alive without resetting model silence', () => {
    const state = watch(0, [
      ['output', 0],
      ['keepalive', 10_000],
      ['keepalive', 20_000],
      ['keepalive', 30_000],
      ['keepalive', 40_000],
    ]);
    expect(assessStall(state, 45_000, thresholds)).toMatchObject({
      kind: 'model-silent',
      silentForMs: 45_000,
      lastByteAgoMs: 5_000,
    });
  });

  it('resets both silences on output', () => {
    const silent = watch(0, [
      ['output', 0],
      ['keepalive', 10_000],
    ]);
    expect(assessStall(silent, 30_000, thresholds).kind).toBe('model-silent');
    const resumed = noteOutput(silent, 30_000);
    expect(assessStall(resumed, 30_000, thresholds)).toEqual({ kind: 'flowing' });
    expect(assessStall(resumed, 49_999, thresholds)).toEqual({ kind: 'flowing' });
    expect(assessStall(resumed, 50_000, thresholds)).toMatchObject({
      kind: 'model-silent',
      silentForMs: 20_000,
    });
  });

  it('counts from the start before any output or byte', () => {
    const state = startWatch(1_000);
    expect(assessStall(state, 20_999, thresholds)).toEqual({ kind: 'flowing' });
    expect(assessStall(state, 21_000, thresholds)).toEqual({
      kind: 'model-silent',
      silentForMs: 20_000,
      lastByteAgoMs: 20_000,
      lastKeepaliveAgoMs: null,
    });
    expect(assessStall(state, 26_000, thresholds)).toEqual({
      kind: 'connection-dead',
      silentForMs: 25_000,
      lastByteAgoMs: 25_000,
    });
  });

  it('counts model silence from the start while only keepalives have arrived', () => {
    const state = watch(0, [
      ['keepalive', 10_000],
      ['keepalive', 20_000],
    ]);
    expect(assessStall(state, 20_000, thresholds)).toEqual({
      kind: 'model-silent',
      silentForMs: 20_000,
      lastByteAgoMs: 0,
      lastKeepaliveAgoMs: 0,
    });
  });

  it('uses the thresholds it is given', () => {
    const state = startWatch(0);
    const custom = { silentModelMs: 150_000, deadConnectionMs: 30_000 };
    expect(assessStall(noteKeepalive(state, 100_000), 120_000, custom)).toEqual({ kind: 'flowing' });
    expect(assessStall(state, 30_000, custom).kind).toBe('connection-dead');
  });

  it('returns new states and leaves the old ones alone', () => {
    const state = startWatch(0);
    const copy = { ...state };
    const bytes = noteBytes(state, 5);
    const keepalive = noteKeepalive(state, 6);
    const output = noteOutput(state, 7);
    expect(state).toEqual(copy);
    expect(bytes).toEqual({ startedAt: 0, lastOutputAt: null, lastByteAt: 5, lastKeepaliveAt: null });
    expect(keepalive).toEqual({ startedAt: 0, lastOutputAt: null, lastByteAt: 6, lastKeepaliveAt: 6 });
    expect(output).toEqual({ startedAt: 0, lastOutputAt: 7, lastByteAt: 7, lastKeepaliveAt: null });
  });
});
