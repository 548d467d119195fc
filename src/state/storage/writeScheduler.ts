import { yieldToEventLoop } from '../../core/yieldToEventLoop.ts';
import { recordingLimits } from '../domain/recordings.ts';
import type { Conversation } from '../domain/types.ts';
import { attemptsOf } from './storedConversation.ts';

/**
 * When writes run: one at a time, a run asked for while one runs making it go round again (`force`
 * carried over). A change that adds or removes something is written at once (in a task of its own, so that
 * the changes of one action go together); a streaming answer at most every `delayMs`.
 */
export class WriteScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private soon = false;
  private running: Promise<void> | null = null;
  private again = false;
  private againForce = false;
  private isStopped = false;

  constructor(
    private readonly step: (force: boolean) => Promise<void>,
    private readonly delayMs: number,
  ) {}

  get stopped(): boolean {
    return this.isStopped;
  }

  /** Runs now (`force`: every recording not yet written too), or once more after the run under way. */
  run(force = false): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.running) {
      this.again = true;
      this.againForce ||= force;
      return this.running;
    }
    this.running = (async () => {
      let f = force;
      do {
        this.again = false;
        this.againForce = false;
        await this.step(f);
        f = this.againForce;
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** A streaming frame: written within `delayMs`. */
  later(): void {
    this.runIn(this.delayMs);
  }

  /** A write that failed: tried again in `delayMs`. */
  runIn(delayMs: number): void {
    if (!this.isStopped) this.timer ??= setTimeout(() => this.run(), delayMs);
  }

  /**
   * A change that adds or removes something: written at once, in a task of its own, so that the changes of
   * one action go together and the write (an answer's last recording part, cloned into IndexedDB) never
   * lengthens the task that renders the change (in a microtask, the two made one long task).
   */
  runSoon(): void {
    if (this.soon || this.isStopped) return;
    this.soon = true;
    void yieldToEventLoop().then(() => {
      this.soon = false;
      if (!this.isStopped) void this.run();
    });
  }

  stop(): void {
    this.isStopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}

/**
 * Whether a change adds or removes something (written at once) rather than a streaming frame, among the
 * conversations `ids` names (those that may differ: `touchedIds`).
 */
export function isStructural(
  next: Record<string, Conversation>,
  previous: Record<string, Conversation>,
  ids: readonly string[],
): boolean {
  for (const id of ids) {
    const a = next[id];
    const b = previous[id];
    if (a === b) continue;
    if (!a || !b || a.messages.length !== b.messages.length || a.title !== b.title) return true;
    const last = a.messages.at(-1);
    const before = b.messages.at(-1);
    if (last?.role === 'assistant' && before?.role === 'assistant') {
      if (last.attempts.length !== before.attempts.length) return true;
      if (last.attempts.at(-1)?.turn.status !== before.attempts.at(-1)?.turn.status) return true;
    }
  }
  return false;
}

/**
 * Whether a streaming answer among the conversations `ids` names (those that may differ) has more of its
 * recording unwritten than one part holds (`recordingLimits.partBytes`; `sentBytes`: how much of an
 * attempt's recording was written). Then it is written at once: a fast stream, written only every delay,
 * made parts of megabytes, each packed and cloned into IndexedDB in one long task.
 */
export function outgrewPart(
  next: Record<string, Conversation>,
  previous: Record<string, Conversation>,
  ids: readonly string[],
  sentBytes: (attemptId: string) => number,
): boolean {
  for (const id of ids) {
    const conversation = next[id];
    if (!conversation || conversation === previous[id]) continue;
    for (const attempt of attemptsOf(conversation))
      if (
        attempt.turn.status === 'streaming' &&
        attempt.trace.bytes - sentBytes(attempt.id) >= recordingLimits.partBytes
      )
        return true;
  }
  return false;
}
