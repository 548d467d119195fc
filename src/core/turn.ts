import type { ReasoningState } from './reasoning.ts';

/** The neutral result of one streamed answer, whatever protocol produced it. */

export type Protocol = 'chat' | 'responses' | 'messages';

export type TurnStatus = 'streaming' | 'complete' | 'error' | 'interrupted' | 'aborted';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'other';

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments' JSON text exactly as assembled from the stream (may be partial or invalid). */
  arguments: string;
}

export interface Usage {
  /** All prompt tokens, cached ones included (Anthropic's input + cache read + cache creation). */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
  /** Prompt tokens read from a cache (included in inputTokens). */
  cachedTokens?: number;
  /** Anthropic: prompt tokens written to the cache (included in inputTokens). */
  cacheWriteTokens?: number;
  /** Anthropic: of cacheWriteTokens, those written for one hour (`cache_creation.ephemeral_1h_input_tokens`). */
  cacheWrite1hTokens?: number;
  /** What the gateway says the request cost, in dollars (`usage.cost`, as OpenRouter and others send it). */
  gatewayCost?: number;
}

export interface TurnError {
  /** The protocol's own code or type (`rate_limit_exceeded`, `api_error`, …) or ours (`malformed_event`, `interrupted`, `aborted`). */
  code: string;
  message: string;
  /** Ours: the figures our own code's words need (a request not sent names its limits). */
  values?: Readonly<Record<string, string | number>>;
}

/** Ordered content as it streamed: what the UI renders block by block. */
export type TurnPart =
  | { kind: 'text'; key: string; text: string }
  | { kind: 'reasoning'; key: string; text: string }
  | { kind: 'refusal'; key: string; text: string }
  | { kind: 'tool_call'; key: string; call: ToolCall };

export interface Turn {
  /** `streaming` only while a reader is still running; `readTurn` resolves with one of the other four. */
  status: TurnStatus;
  text: string;
  reasoning: string;
  refusal: string;
  toolCalls: ToolCall[];
  parts: TurnPart[];
  usage: Usage | null;
  finishReason: FinishReason | null;
  /** The protocol's own finish value (`end_turn`, `max_output_tokens`, …), kept beside the normalized one. */
  rawFinishReason: string | null;
  error: TurnError | null;
  /** Response id and model as the server reported them. */
  responseId: string | null;
  model: string | null;
  /**
   * What the provider wants back in the next request of its protocol, exactly as it came: Anthropic's
   * thinking blocks with their signatures and redacted blocks, Responses' reasoning items. Undefined when
   * there is none (always on Chat Completions, which has no reasoning state).
   */
  reasoningState?: ReasoningState[];
}

export const emptyTurn: Turn = Object.freeze({
  status: 'streaming',
  text: '',
  reasoning: '',
  refusal: '',
  toolCalls: [],
  parts: [],
  usage: null,
  finishReason: null,
  rawFinishReason: null,
  error: null,
  responseId: null,
  model: null,
  reasoningState: undefined,
}) as Turn;
