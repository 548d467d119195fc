import { setTimeout as sleep } from 'node:timers/promises';
import { type Encoder, isContentStep, type Prompt, type Step, Transcript } from './script.ts';
import type { SseEvent, SseStream } from './sse-writer.ts';

type Ending = Extract<Step, { kind: 'finish' | 'fail' | 'drop' }>;

/**
 * The one interpreter of a script: applies its content steps to the transcript, hands each step's
 * events to `emit`, waits `tokenDelayMs` before each token (when given) and every `pause` in full,
 * and returns the terminal step for the caller to end its own way. Rejects with an AbortError as soon
 * as `signal` aborts, which also clears the pending timer.
 */
async function play(
  steps: readonly Step[],
  encoder: Encoder,
  t: Transcript,
  emit: (events: SseEvent[]) => void,
  tokenDelayMs: number | undefined,
  signal: AbortSignal,
): Promise<Ending> {
  emit(encoder.open(t));
  for (const step of steps) {
    if (isContentStep(step)) {
      if (tokenDelayMs !== undefined && step.kind !== 'tool_call') {
        await sleep(tokenDelayMs, undefined, { signal });
      }
      emit(t.apply(step, encoder));
    } else if (step.kind === 'pause') {
      await sleep(step.ms, undefined, { signal });
    } else {
      return step;
    }
  }
  throw new Error('script ended without a terminal step');
}

/**
 * Plays a script onto an open SSE stream: `deltaMs` before each token, `pause` steps as silence
 * (the stream's keepalives keep running), then a terminal event, a mid-stream error or a cut.
 */
export async function playStream(
  steps: readonly Step[],
  encoder: Encoder,
  prompt: Prompt,
  stream: SseStream,
  deltaMs: number,
): Promise<void> {
  const t = new Transcript(prompt);
  const end = await play(steps, encoder, t, (events) => stream.send(events), deltaMs, stream.signal);
  switch (end.kind) {
    case 'finish':
      stream.send([...t.close(encoder, end.reason === 'length'), ...encoder.finish(end.reason, t)]);
      stream.end();
      return;
    case 'fail':
      stream.send(encoder.fail(end, t));
      stream.end();
      return;
    case 'drop':
      stream.cut();
      return;
  }
}

export type Outcome = { kind: 'body'; body: unknown } | { kind: 'fail'; message: string } | { kind: 'drop' };

/**
 * Runs the same script for a non-streaming request: no delays between tokens (the whole answer is
 * returned at once), but `pause` steps are still waited out so a stall takes as long as it would.
 */
export async function playOnce(
  steps: readonly Step[],
  encoder: Encoder,
  prompt: Prompt,
  signal: AbortSignal,
): Promise<Outcome> {
  const t = new Transcript(prompt);
  const end = await play(steps, encoder, t, () => undefined, undefined, signal);
  switch (end.kind) {
    case 'finish':
      t.close(encoder, end.reason === 'length');
      return { kind: 'body', body: encoder.body(end.reason, t) };
    case 'fail':
      return { kind: 'fail', message: end.message };
    case 'drop':
      return { kind: 'drop' };
  }
}
