import type { Attempt } from '../state/domain/types.ts';
import type { AttemptOutcome } from './runAttempt.ts';

/**
 * How an attempt picked up again from the server ends: as read again, unless that got less far than what
 * this page had stored of it (the server no longer had it, or the page was stopped first). Then what was
 * stored stays, ended as the reading ended: nothing the model produced is lost.
 */
export function resumedOutcome(stored: Attempt, outcome: AttemptOutcome): AttemptOutcome {
  if (outcome.trace.bytes >= stored.trace.bytes) return outcome;
  const { status, error } = outcome.turn;
  return {
    turn: { ...stored.turn, status, ...(error && { error }) },
    httpError: null,
    trace: stored.trace,
  };
}

/** While an attempt is read again, what it shows stays what was stored until the reading has caught up. */
export function caughtUp(stored: Attempt | null, receivedBytes: number): boolean {
  return stored === null || receivedBytes >= stored.trace.bytes;
}
