import { setTimeout as sleep } from 'node:timers/promises';
import { type Encoder, isContentStep, type Step, Transcript } from './script.ts';
import type { SseStream } from './sse-writer.ts';

/**
 * Plays a script onto an open SSE stream: `deltaMs` before each token, `pause` steps as silence
 * (the stream's keepalives keep running), then a terminal event, a mid-stream error or a cut.
 * Rejects with an AbortError as soon as the stream closes, which also clears the pending timer.
 */
export async function playStream(
  steps: readonly Step[],
  encoder: Encoder,
  inputTokens: number,
  stream: SseStream,
  deltaMs: number,
): Promise<void> {
  const { signal } = stream;
  const t = new Transcript(inputTokens);
  stream.send(encoder.open(t));
  for (const step of steps) {
    if (isContentStep(step)) {
      if (step.kind !== 'tool_call') await sleep(deltaMs, undefined, { signal });
      stream.send(t.apply(step, encoder));
      continue;
    }
    switch (step.kind) {
      case 'pause':
        await sleep(step.ms, undefined, { signal });
        break;
      case 'finish':
        stream.send([...t.close(encoder, step.reason === 'length'), ...encoder.finish(step.reason, t)]);
        stream.end();
        return;
      case 'fail':
        stream.send(encoder.fail(step, t));
        stream.end();
        return;
      case 'drop':
        stream.cut();
        return;
    }
  }
  throw new Error('script ended without a terminal step');
}

export type Outcome = { kind: 'body'; body: unknown } | { kind: 'fail'; message: string } | { kind: 'drop' };

/**
 * Runs the same script for a non-streaming request: no delays between tokens (the whole answer is
 * returned at once), but `pause` steps are still waited out so a stall takes as long as it would.
 */
export async function playOnce(
  steps: readonly Step[],
  encoder: Encoder,
  inputTokens: number,
  signal: AbortSignal,
): Promise<Outcome> {
  const t = new Transcript(inputTokens);
  encoder.open(t);
  for (const step of steps) {
    if (isContentStep(step)) {
      t.apply(step, encoder);
      continue;
    }
    switch (step.kind) {
      case 'pause':
        await sleep(step.ms, undefined, { signal });
        break;
      case 'finish':
        t.close(encoder, step.reason === 'length');
        return { kind: 'body', body: encoder.body(step.reason, t) };
      case 'fail':
        return { kind: 'fail', message: step.message };
      case 'drop':
        return { kind: 'drop' };
    }
  }
  throw new Error('script ended without a terminal step');
}
