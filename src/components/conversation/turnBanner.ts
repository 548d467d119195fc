import { adviseFailure, type FailureCode, type WatchState } from '../../core/index.ts';
import { silenceBeforeEndOf } from '../../state/domain/recordings.ts';
import type { AnswerSource, Attempt } from '../../state/domain/types.ts';
import type { AnswerSnapshot } from '../../state/stores/answers.ts';

/** The one banner an answer shows below its content, if any. */
export type TurnBanner =
  | { kind: 'none' }
  /** Failed before any output; the next attempt starts on its own at `retryAt`. */
  | { kind: 'auto-retry'; retryAt: number; attempt: number; of: number }
  /** Streaming: watches for silence (it stays empty while output flows). */
  | { kind: 'stall'; watch: WatchState }
  /** The server runs the answer and the page lost its connection to it: the answer goes on there. */
  | { kind: 'reconnecting' }
  /** Ended badly. `silentBeforeMs`: the model had been silent that long, past the stall threshold. */
  | { kind: 'interruption'; silentBeforeMs: number | undefined; canRetry: boolean };

export interface TurnBannerContext {
  source: AnswerSource;
  /** Settings' stall threshold: a silence shorter than this before a failure is not worth naming. */
  silentModelMs: number;
}

/** Which banner an answer shows, from its newest attempt and the answer in flight, if it is one. */
export function bannerFor(
  attempt: Attempt,
  answer: AnswerSnapshot | undefined,
  { source, silentModelMs }: TurnBannerContext,
): TurnBanner {
  const phase = answer?.phase;
  if (phase?.kind === 'retrying')
    return { kind: 'auto-retry', retryAt: phase.at, attempt: phase.attempt, of: phase.of };
  const { turn, httpError } = attempt;
  if (turn.status === 'streaming') {
    // Silence while the page reconnects is the connection's, not the model's.
    if (answer?.link === 'reconnecting') return { kind: 'reconnecting' };
    return phase?.kind === 'streaming' ? { kind: 'stall', watch: phase.watch } : { kind: 'none' };
  }
  const advice = adviseFailure(turn, httpError);
  if (!advice) return { kind: 'none' };
  // An HTTP error came before any stream: there was no silence to speak of.
  const failedMidStream = !httpError && (turn.status === 'error' || turn.status === 'interrupted');
  // From the recording's events, or its stored figure when they are kept apart (after a reload).
  const silentMs = failedMidStream ? silenceBeforeEndOf(attempt) : 0;
  return {
    kind: 'interruption',
    silentBeforeMs: silentMs >= silentModelMs ? silentMs : undefined,
    canRetry: source.kind === 'gateway' && !nothingToSendAgain.has(advice.code),
  };
}

/** Failures where what would be sent again is gone from this browser: Retry could only fail the same way. */
const nothingToSendAgain: ReadonlySet<FailureCode> = new Set(['attachment_missing']);

/** The three dots while an answer has produced nothing yet (and is not waiting to retry). */
export function isWaitingForOutput(attempt: Attempt, answer: AnswerSnapshot | undefined): boolean {
  return (
    attempt.turn.status === 'streaming' &&
    attempt.turn.parts.length === 0 &&
    answer?.phase.kind !== 'retrying'
  );
}
