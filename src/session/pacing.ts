import { recordingLimits } from '../state/domain/recordings.ts';

/**
 * How often an answer in flight shows and keeps what it read: the one place these rates are decided.
 *
 * - The stream is read in slices of `readSliceMs`, handing the thread back to the page after each
 *   (`readTurn`'s yield, here the frame batcher's `shown`): reading never holds up a frame.
 * - A frame lays out at most `charsPerFrame` of new text (`Markdown.tsx`'s reveal, `LazyMarkdown.tsx`'s
 *   plain text while the renderer loads); a text shown over several frames starts at `firstFrameChars`, each
 *   frame twice the last one's.
 * - What was read is shown at most once per animation frame (`frameBatcher.ts`), on a timer in a hidden tab.
 *   Past an answer's first text, what it shows is rendered as a React transition (`hooks/useAnswer.ts`,
 *   the reveal in `Markdown.tsx`): in slices of a few milliseconds, a newer frame waiting for the last.
 * - It is handed to the conversation store, and from there to storage and the other tabs, at checkpoints:
 *   not every frame, since each store change re-derives the whole conversation's views and schedules a save.
 */
export const pacing = {
  /** Reading works this long at most before it hands the thread back: half a frame. */
  readSliceMs: 8,
  /**
   * The most new text one frame lays out: a burst (a very fast stream, 100 kB in a fraction of a second)
   * shows over several frames, never in one long task; at a model's pace the cap is never reached. The
   * plain text shown while the renderer is fetched is held to it too.
   */
  charsPerFrame: 4_000,
  /**
   * The new text the first frame of a text shown over several frames lays out: each next frame takes twice
   * the last one's, up to `charsPerFrame`. The first frames run the renderer's code before it is optimized,
   * and the first of a fast stream's bursts shows sooner.
   */
  firstFrameChars: 1_000,
  /** Between two checkpoints of a streaming answer into the conversation store. */
  checkpointMs: 1000,
  /**
   * A checkpoint comes sooner once this much of the stream came since the last one: its recording is
   * written from checkpoints, in parts of about this size (see `recordingLimits.partBytes`).
   */
  checkpointBytes: recordingLimits.partBytes,
  /** A hidden tab has no animation frames: its progress is applied on a timer this slow. */
  hiddenFrameMs: 250,
  /** Without animation frames (tests, some embedders), the frame's stand-in. */
  timerFrameMs: 16,
  /** A frame that does not come (an occluded window may skip them) holds a reader back no longer than this. */
  maxFrameWaitMs: 100,
} as const;
