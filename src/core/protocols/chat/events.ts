/** OpenAI Chat Completions stream events, as they arrive on the wire (only the fields we read). */

import type { UnknownEvent } from '../json.ts';

export interface ChatToolCallDelta {
  index?: number | null;
  id?: string | null;
  type?: 'function';
  function?: { name?: string | null; arguments?: string | null } | null;
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  /** Not in OpenAI's schema: DeepSeek and self-hosted servers send `reasoning_content`, OpenRouter and Groq `reasoning`. */
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: ChatToolCallDelta[] | null;
}

export interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** The gateway's own figure for the request, in dollars (OpenRouter and others). */
  cost?: number | null;
}

/** Read leniently (`shape.ts`, `errorText`): a failure is reported whatever its details look like. */
export interface ChatWireError {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  param?: unknown;
}

export interface ChatChunk {
  id?: string | null;
  model?: string | null;
  choices?: { index?: number | null; delta?: ChatDelta | null; finish_reason?: string | null }[] | null;
  usage?: ChatUsage | null;
  /** Groq reports usage only here. */
  x_groq?: { usage?: ChatUsage | null } | null;
  /** OpenAI/HopBase send a bare `{"error": …}` chunk; OpenRouter puts `error` beside `choices`. */
  error?: unknown;
}

export type ChatEvent =
  | { type: 'chunk'; chunk: ChatChunk }
  /** OpenRouter's error chunk also reports usage: output before the break is billed, so it is kept. */
  | { type: 'error'; error: ChatWireError; usage?: ChatUsage | null }
  | { type: 'done' }
  | UnknownEvent;
