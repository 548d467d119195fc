import type { SseEvent } from './sse-writer.ts';

/**
 * A generation is scripted in protocol-neutral steps. One player runs the script and one encoder
 * per protocol turns what happens into that protocol's wire events.
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** `interrupted`: the upstream broke; `stalled`: the model went silent past the stall timeout. */
type Failure = 'interrupted' | 'stalled';

/** HopBase's wording when a stream breaks midway (the exact Anthropic error message). */
export const INTERRUPTED_MESSAGE = 'Response stream interrupted, please retry';

/** Steps that produce output; every step with a `piece` is one token. */
export type ContentStep =
  | { kind: 'reasoning' | 'text' | 'tool_args'; piece: string }
  | { kind: 'tool_call'; name: string };

export type Step =
  | ContentStep
  | { kind: 'pause'; ms: number }
  | { kind: 'fail'; failure: Failure; message: string }
  | { kind: 'drop' }
  | { kind: 'finish'; reason: FinishReason };

export type BlockKind = 'reasoning' | 'text' | 'tool_call';

/** A run of output of one kind: a reasoning part, a text part, or one tool call. */
export interface Block {
  readonly index: number;
  readonly kind: BlockKind;
  /** Tool name for `tool_call` blocks. */
  readonly name: string;
  text: string;
  open: boolean;
}

/** Turns neutral happenings into one protocol's events; stateful per response (ids, sequence numbers). */
export interface Encoder {
  open(t: Transcript): SseEvent[];
  blockStart(block: Block): SseEvent[];
  blockDelta(block: Block, piece: string): SseEvent[];
  blockEnd(block: Block, truncated: boolean): SseEvent[];
  finish(reason: FinishReason, t: Transcript): SseEvent[];
  fail(step: { failure: Failure; message: string }, t: Transcript): SseEvent[];
  /** The complete non-streaming response body. */
  body(reason: FinishReason, t: Transcript): unknown;
}

/**
 * The prompt as the provider counted it: all its tokens, and of them those read from its cache and those
 * written to it (for five minutes or one hour). Each protocol reports these its own way.
 */
export interface Prompt {
  tokens: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

/** A prompt no cache touched. */
export const uncached = (tokens: number): Prompt => ({
  tokens,
  cacheRead: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
});

/** What has been generated so far, with token counts that always match the streamed deltas. */
export class Transcript {
  readonly blocks: Block[] = [];
  outputTokens = 0;
  reasoningTokens = 0;

  constructor(readonly prompt: Prompt) {}

  /** All prompt tokens, cached ones included. */
  get inputTokens(): number {
    return this.prompt.tokens;
  }

  /** Applies one content step, opening and closing blocks as the kind of output changes. */
  apply(step: ContentStep, encoder: Encoder): SseEvent[] {
    const events: SseEvent[] = [];
    const kind: BlockKind = step.kind === 'tool_args' || step.kind === 'tool_call' ? 'tool_call' : step.kind;
    let block = this.current();
    if (!block || step.kind === 'tool_call' || block.kind !== kind) {
      events.push(...this.close(encoder, false));
      block = {
        index: this.blocks.length,
        kind,
        name: step.kind === 'tool_call' ? step.name : '',
        text: '',
        open: true,
      };
      this.blocks.push(block);
      events.push(...encoder.blockStart(block));
    }
    if (step.kind !== 'tool_call') {
      block.text += step.piece;
      this.outputTokens++;
      if (step.kind === 'reasoning') this.reasoningTokens++;
      events.push(...encoder.blockDelta(block, step.piece));
    }
    return events;
  }

  /** Closes the open block, if any. */
  close(encoder: Encoder, truncated: boolean): SseEvent[] {
    const block = this.current();
    if (!block) return [];
    block.open = false;
    return encoder.blockEnd(block, truncated);
  }

  textOf(kind: BlockKind): string {
    return this.blocks
      .filter((b) => b.kind === kind)
      .map((b) => b.text)
      .join('');
  }

  private current(): Block | undefined {
    const last = this.blocks.at(-1);
    return last?.open ? last : undefined;
  }
}

export function isContentStep(step: Step): step is ContentStep {
  return (
    step.kind === 'reasoning' ||
    step.kind === 'text' ||
    step.kind === 'tool_args' ||
    step.kind === 'tool_call'
  );
}

export function countTokens(steps: readonly Step[]): number {
  return steps.filter((s) => isContentStep(s) && s.kind !== 'tool_call').length;
}
