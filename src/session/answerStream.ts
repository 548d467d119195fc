import {
  adviseFailure,
  automaticRetryDelayMs,
  emptyTurn,
  maxAutomaticRetries,
  type Protocol,
} from '../core/index.ts';
import { newId } from '../state/domain/ids.ts';
import { emptyRecording } from '../state/domain/recordings.ts';
import type { Attempt, SentRequest } from '../state/domain/types.ts';
import {
  type AnswerAction,
  type AnswerSnapshot,
  type AnswersStore,
  answerReducer,
} from '../state/stores/answers.ts';
import type { ConversationStore } from '../state/stores/conversationStore.ts';
import type { FrameBatcher, FrameScheduler } from './frameBatcher.ts';
import { pacing } from './pacing.ts';
import { caughtUp, resumedOutcome } from './resumedOutcome.ts';
import { type AttemptProgress, runAttempt } from './runAttempt.ts';
import { sleep } from './sleep.ts';
import type { RelayLink, StopReason, StreamSource } from './sources/streamSource.ts';

export interface AnswerStreamOptions {
  conversationId: string;
  messageId: string;
  protocol: Protocol;
  request: SentRequest;
  source: StreamSource;
  conversations: ConversationStore;
  answers: AnswersStore;
  frames: FrameScheduler;
  /** Whether failures before output are retried on their own, asked after each failure (Settings). */
  autoRetry(): boolean;
  /** Jitter for automatic retries; tests pass a fixed one. */
  random?: () => number;
  /** An attempt the server is running, picked up again (`source` reads it from the server): no new attempt. */
  resume?: Attempt;
  /** The server runs attempt `attemptId` (a relayed answer): called once it is known. */
  relayed?(attemptId: string): void;
}

/**
 * One answer in flight, from its first attempt until it ends or automatic retries run out: the one owner
 * of its turn, its silence watch, its recording, its retry state and its abort controller. Every change
 * goes through `dispatch` (`answerReducer`), and each resulting snapshot is published to the answers
 * store, which the UI reads by message id. The conversation store receives the attempt when it starts, at
 * checkpoints (`pacing.checkpointMs` or `checkpointBytes`, and whenever the page is hidden) and when it ends.
 */
export class AnswerStream {
  private readonly options: AnswerStreamOptions;
  private readonly controller = new AbortController();
  private snapshot: AnswerSnapshot | null = null;
  private batcher: FrameBatcher<AttemptProgress> | null = null;
  private lastCheckpoint = 0;
  /** The attempt as the conversation store last received it. */
  private checkpointed: Attempt | null = null;
  /** False once another stream took this message over (a retry): it then publishes nothing more. */
  private current = true;
  /** The attempt to pick up again, until the first attempt takes it. */
  private resume: Attempt | null;

  constructor(options: AnswerStreamOptions) {
    this.options = options;
    this.resume = options.resume ?? null;
  }

  get conversationId(): string {
    return this.options.conversationId;
  }

  /** Streams attempts until one ends or automatic retries run out; resolves when it is over. */
  async run(): Promise<void> {
    const { signal } = this.controller;
    let retries = 0;
    try {
      for (;;) {
        const outcome = await this.attempt();
        // Automatic only while nothing was produced: after output, a retry re-bills and the person decides.
        const nothingProduced = outcome.turn.parts.length === 0;
        const retryable = adviseFailure(outcome.turn, outcome.httpError)?.retryable ?? false;
        const autoRetry = this.options.source.retriesOnItsOwn && this.options.autoRetry();
        if (signal.aborted || !autoRetry || !nothingProduced || !retryable) return;
        const delay = automaticRetryDelayMs(
          retries,
          outcome.httpError?.retryAfterSeconds ?? null,
          this.options.random,
        );
        if (delay === null) return;
        retries++;
        this.dispatch({
          type: 'retryScheduled',
          at: Date.now() + delay,
          attempt: retries + 1,
          of: maxAutomaticRetries + 1,
        });
        await sleep(delay, signal);
        if (signal.aborted) return;
      }
    } finally {
      if (this.current) this.options.answers.getState().remove(this.options.messageId);
    }
  }

  /** Ends the stream (a stop, a deletion, the app going away): the attempt ends as aborted. */
  stop(reason: StopReason): void {
    this.controller.abort(reason);
  }

  /** Another stream takes this message over: this one stops and publishes nothing more. */
  supersede(): void {
    this.current = false;
    this.stop('retry');
  }

  /**
   * Applies what was read since the last frame now, and hands it to the conversation store: an export or
   * the inspector's figures then cover every byte received so far.
   */
  flush(): void {
    this.batcher?.flush();
    this.checkpoint();
  }

  private dispatch(action: AnswerAction): void {
    this.snapshot = answerReducer(this.snapshot, action);
    if (this.current) this.options.answers.getState().publish(this.snapshot);
  }

  /** The conversation store receives the attempt as it stands (nothing when it has this one already). */
  private checkpoint(): void {
    const snapshot = this.snapshot;
    this.lastCheckpoint = performance.now();
    if (!snapshot || snapshot.attempt === this.checkpointed) return;
    const { attempt } = snapshot;
    this.checkpointed = attempt;
    this.options.conversations
      .getState()
      .updateAttempt(snapshot.conversationId, snapshot.messageId, attempt.id, () => attempt);
  }

  /** One request and its stream (or, picked up again, one the server is running), read to the end. */
  private async attempt() {
    const { conversationId, messageId, protocol, request, source, frames } = this.options;
    const resumed = this.resume;
    this.resume = null;
    const id = resumed?.id ?? newId('att');
    const connection = source.connect({ conversationId, attemptId: id });
    const attempt: Attempt = resumed ?? {
      id,
      startedAt: Date.now(),
      request,
      sentHeaders: connection.sentHeaders,
      turn: emptyTurn,
      httpError: null,
      trace: emptyRecording(),
    };
    if (!resumed) this.options.conversations.getState().addAttempt(conversationId, messageId, attempt);
    this.checkpointed = attempt;
    this.dispatch({ type: 'attemptStarted', conversationId, messageId, attempt, at: performance.now() });
    this.lastCheckpoint = performance.now();

    const link: RelayLink = {
      relayed: () => {
        this.dispatch({ type: 'relayed' });
        // Stored at once: a reload from now on picks the answer up rather than calling it interrupted.
        this.checkpoint();
        this.options.relayed?.(id);
      },
      reconnecting: () => this.dispatch({ type: 'linkChanged', link: 'reconnecting' }),
      resumed: () => this.dispatch({ type: 'linkChanged', link: 'relayed' }),
    };
    const batcher = frames.batcher<AttemptProgress>(({ turn, recorder, watch }) => {
      // Read again from the first piece: what was stored stays shown until the reading passes it.
      if (!caughtUp(resumed, recorder.receivedBytes)) return;
      this.dispatch({ type: 'progressed', turn, trace: recorder.snapshot(), watch });
      const unsaved = recorder.receivedBytes - (this.checkpointed?.trace.bytes ?? 0);
      if (
        frames.hidden() ||
        performance.now() - this.lastCheckpoint >= pacing.checkpointMs ||
        unsaved >= pacing.checkpointBytes
      )
        this.checkpoint();
    });
    this.batcher = batcher;
    const outcome = await runAttempt({
      protocol,
      open: (signal) => connection.open(signal, link),
      crossOrigin: connection.crossOrigin,
      refusedByPolicy: connection.refusedByPolicy,
      recordingTime: connection.recordingTime,
      signal: this.controller.signal,
      onProgress: batcher.push,
      // Reading pauses for the frame that shows what it read: output is painted as it arrives.
      yieldToEventLoop: batcher.shown,
      workSliceMs: pacing.readSliceMs,
    });
    batcher.cancel();
    this.batcher = null;
    // The page going away leaves an answer the server runs going: it stays as stored, streaming, for the
    // next page to pick up (and the server keeps it).
    if (this.snapshot?.attempt.relayed && this.controller.signal.reason === ('disposed' satisfies StopReason))
      return outcome;
    const ended = resumed ? resumedOutcome(resumed, outcome) : outcome;
    // A finished answer is laid out in a frame of its own, not in the task that read its last bytes:
    // together the two made the one long task of a fast answer's end. (Without output there is nothing
    // to lay out, and an automatic retry's wait starts at once.)
    if (ended.turn.parts.length > 0) await frames.nextFrame();
    this.dispatch({ type: 'attemptEnded', ...ended });
    this.checkpoint();
    connection.stored?.();
    return ended;
  }
}
