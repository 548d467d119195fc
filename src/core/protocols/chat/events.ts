/** OpenAI Chat Completions stream events, as they arrive on the wire (only the fields we read). */

export interface ChatToolCallDelta {
  index?: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  /** Not in OpenAI's schema: DeepSeek and self-hosted servers send `reasoning_content`, OpenRouter and Groq `reasoning`. */
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: ChatToolCallDelta[];
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export interface ChatWireError {
  message?: string;
  type?: string;
  code?: string | number | null;
  param?: string | null;
}

export interface ChatChunk {
  id?: string;
  model?: string;
  choices?: { index?: number; delta?: ChatDelta; finish_reason?: string | null }[];
  usage?: ChatUsage | null;
  /** Groq reports usage only here. */
  x_groq?: { usage?: ChatUsage };
  /** OpenAI/HopBase send a bare `{"error": …}` chunk; OpenRouter puts `error` beside `choices`. */
  error?: ChatWireError;
}

export type ChatEvent =
  | { type: 'chunk'; chunk: ChatChunk }
  /** OpenRouter's error chunk also reports usage: output before the break is billed, so it is kept. */
  | { type: 'error'; error: ChatWireError; usage?: ChatUsage | null }
  | { type: 'done' };
