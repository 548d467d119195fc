/**
 * The recorder keeps an exact prefix of what arrived, bounded by count and by size: the raw copy in bytes as
 * received, the items in number and in characters of data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import {
  emptyRecording,
  Recorder,
  recordingKeptApart,
  recordingLimits,
  silenceBeforeEndOf,
  withFiguresKept,
} from './recordings.ts';
import type { Attempt, AttemptTrace } from './types.ts';

const encoder = new TextEncoder();
const chunkOf = (text: string) => [encoder.encode(text).byteLength, text] as const;
const dataChars = (recorder: Recorder) =>
  recorder.snapshot().items.reduce((sum, item) => sum + item.data.length, 0);

describe('Recorder', () => {
  it('keeps everything below the caps, the raw copy byte for byte', () => {
    const recorder = new Recorder(1000);
    const chunks = ['data: {"a":"é"}\n\n', ': hopbase-keepalive\n\n', 'data: [DONE]\n\n'];
    for (const chunk of chunks) recorder.chunk(...chunkOf(chunk));
    recorder.event(1010, 'message', '{"a":"é"}', true);
    recorder.comment(1020, 'hopbase-keepalive');
    recorder.end(1030);
    const trace = recorder.snapshot();
    expect(trace.raw).toBe(chunks.join(''));
    expect(encoder.encode(trace.raw).byteLength).toBe(trace.bytes);
    expect(trace.items.map((item) => item.t)).toEqual([10, 20]);
    expect(trace.truncated).toBe(false);
    expect(trace.endedAt).toBe(30);
  });

  it('gives any slice of the raw copy as a slice would, without slicing it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        (chunks, a, b) => {
          const recorder = new Recorder(0);
          const snapshots = [recorder.snapshot()];
          for (const chunk of chunks) {
            recorder.chunk(...chunkOf(chunk));
            snapshots.push(recorder.snapshot());
          }
          // Every snapshot's own view ends where it ended, whatever came since (the first, before any chunk,
          // is the empty recording, with no view).
          for (const snapshot of snapshots.slice(1)) {
            const length = snapshot.raw.length + 2;
            const [from, to] = [a % length, b % length].sort((x, y) => x - y) as [number, number];
            expect(snapshot.rawSlice?.(from, to)).toBe(snapshot.raw.slice(from, to));
            expect(snapshot.rawSlice?.(0, length)).toBe(snapshot.raw);
          }
        },
      ),
    );
  });

  it('caps the raw copy by bytes received, at a chunk boundary: an exact prefix', () => {
    const recorder = new Recorder(0);
    // Multi-byte text: characters and bytes differ by a third.
    const chunk = `data: ${'日本語'.repeat(10_000)}\n\n`;
    const [size] = chunkOf(chunk);
    const n = Math.ceil(recordingLimits.rawBytes / size) + 3;
    for (let i = 0; i < n; i++) recorder.chunk(size, chunk);
    const trace = recorder.snapshot();
    expect(trace.bytes).toBe(n * size);
    expect(trace.truncated).toBe(true);
    const kept = encoder.encode(trace.raw).byteLength;
    expect(kept).toBeLessThanOrEqual(recordingLimits.rawBytes);
    expect(kept).toBeGreaterThan(recordingLimits.rawBytes - size);
    expect(trace.raw).toBe(chunk.repeat(kept / size));
  });

  it('bounds event data by size: 300 events of 1 MB keep at most the cap, a prefix of them', () => {
    const recorder = new Recorder(0);
    const megabyte = 'x'.repeat(1_000_000);
    for (let i = 0; i < 300; i++) recorder.event(i, 'message', megabyte, true);
    const trace = recorder.snapshot();
    expect(dataChars(recorder)).toBeLessThanOrEqual(recordingLimits.itemChars);
    expect(trace.items.length).toBe(Math.floor(recordingLimits.itemChars / 1_000_000));
    expect(trace.items.map((item) => item.t)).toEqual(trace.items.map((_, i) => i));
    expect(trace.truncated).toBe(true);
    // Every event still counts as output, for the output rate.
    expect(trace.outputEvents).toBe(300);
  });

  it('keeps nothing after the first item that does not fit, however small', () => {
    const recorder = new Recorder(0);
    recorder.event(1, 'message', 'small', false);
    recorder.event(2, 'message', 'y'.repeat(recordingLimits.itemChars), false);
    recorder.comment(3, 'hopbase-keepalive');
    recorder.event(4, 'message', '[DONE]', false);
    expect(recorder.snapshot().items.map((item) => item.data)).toEqual(['small']);
    expect(recorder.snapshot().truncated).toBe(true);
  });

  it('caps the number of items', () => {
    const recorder = new Recorder(0);
    for (let i = 0; i < recordingLimits.items + 5; i++) recorder.comment(i, 'k');
    const trace = recorder.snapshot();
    expect(trace.items.length).toBe(recordingLimits.items);
    expect(trace.truncated).toBe(true);
  });

  it('hands out immutable snapshots, the same one until something new is recorded', () => {
    const recorder = new Recorder(0);
    expect(recorder.snapshot()).toBe(emptyRecording());
    recorder.event(5, 'message', '{}', false);
    const first = recorder.snapshot();
    expect(recorder.snapshot()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.items)).toBe(true);
    recorder.chunk(2, '{}');
    expect(recorder.snapshot()).not.toBe(first);
    expect(first.bytes).toBe(0);
  });

  it('bounds a whole recording to about 8 MB of stream', () => {
    expect(recordingLimits.rawBytes + recordingLimits.itemChars).toBeLessThanOrEqual(8_000_000);
  });
});

describe('a recording kept apart (its events in the database only)', () => {
  const interrupted = (trace: Partial<AttemptTrace>): Attempt => ({
    id: 'att',
    startedAt: 0,
    request: { url: '', path: '', headers: {}, body: {} },
    sentHeaders: {},
    turn: { ...emptyTurn, status: 'interrupted', error: { code: 'interrupted', message: 'cut' } },
    httpError: null,
    trace: { ...emptyRecording(), ...trace },
  });
  /** 30 s of keepalives only after the last event, then the cut. */
  const silent = interrupted({
    headersAt: 10,
    endedAt: 30_100,
    bytes: 120,
    items: [
      { t: 100, kind: 'event', event: 'message', data: '{}' },
      { t: 10_100, kind: 'comment', event: '', data: 'hopbase-keepalive' },
    ],
    raw: 'data: {}\n\n: hopbase-keepalive\n\n',
  });

  it('is stored with its figures and the silence before its end, without its events', () => {
    const stored = withFiguresKept(silent);
    expect(stored).toEqual({ ...silent.trace, items: [], raw: '', silenceBeforeEndMs: 30_000 });
    const reloaded = { ...silent, trace: stored };
    expect(recordingKeptApart(reloaded)).toBe(true);
    expect(silenceBeforeEndOf(reloaded)).toBe(30_000);
    // Written again while kept apart, it keeps that figure.
    expect(withFiguresKept(reloaded)).toEqual(stored);
  });

  it('is stored without the recorder view of its raw copy (a function: no store could take it)', () => {
    const recorder = new Recorder(0);
    recorder.chunk(...chunkOf('data: {}\n\n'));
    const trace = recorder.snapshot();
    expect(trace.rawSlice).toBeTypeOf('function');
    const stored = withFiguresKept({ ...silent, trace });
    expect(stored).not.toHaveProperty('rawSlice');
    expect(() => structuredClone(stored)).not.toThrow();
  });

  it('claims no silence when its record kept none (an older record)', () => {
    const older = { ...silent, trace: { ...silent.trace, items: [], raw: '' } };
    expect(silenceBeforeEndOf(older)).toBe(0);
    expect(withFiguresKept(older)).not.toHaveProperty('silenceBeforeEndMs');
  });

  it('is not one while streaming, nor when nothing was received', () => {
    expect(
      recordingKeptApart({ ...silent, trace: { ...silent.trace, items: [], raw: '' }, turn: emptyTurn }),
    ).toBe(false);
    expect(recordingKeptApart(interrupted({}))).toBe(false);
    expect(recordingKeptApart(silent)).toBe(false);
  });
});
