import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../core/index.ts';
import { emptyRecording } from '../state/domain/recordings.ts';
import { answerMessage } from '../testing/builders.ts';
import { caughtUp, resumedOutcome } from './resumedOutcome.ts';

const stored = answerMessage('m', { status: 'streaming', text: 'Stored so far' }, { bytes: 100 })
  .attempts[0]!;
const read = (bytes: number, status: 'complete' | 'interrupted', text: string) => ({
  turn: {
    ...emptyTurn,
    status,
    text,
    error: status === 'complete' ? null : { code: 'interrupted', message: 'cut' },
  },
  httpError: null,
  trace: { ...emptyRecording(), bytes },
});

describe('resumedOutcome', () => {
  it('takes what was read again when it got as far', () =>
    expect(resumedOutcome(stored, read(100, 'complete', 'All'))).toEqual(read(100, 'complete', 'All')));
  it('keeps what was stored, ended as the reading ended, when it got less far', () =>
    expect(resumedOutcome(stored, read(10, 'interrupted', 'St'))).toEqual({
      turn: { ...stored.turn, status: 'interrupted', error: { code: 'interrupted', message: 'cut' } },
      httpError: null,
      trace: stored.trace,
    }));
});

describe('caughtUp', () => {
  it.each([
    [null, 0, true],
    [stored, 99, false],
    [stored, 100, true],
  ])('stored %#, %i bytes read again: %s', (attempt, bytes, expected) =>
    expect(caughtUp(attempt, bytes)).toBe(expected),
  );
});
