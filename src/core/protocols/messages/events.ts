/** Anthropic Messages stream events, as they arrive on the wire (only the fields we read). */

import type { UnknownEvent } from '../json.ts';

export interface MessagesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The cache writes by how long they are kept (their sum is `cache_creation_input_tokens`). */
  cache_creation?: {
    ephemeral_5m_input_tokens?: number | null;
    ephemeral_1h_input_tokens?: number | null;
  } | null;
  /** The gateway's own figure for the request, in dollars (some gateways add it). */
  cost?: number | null;
}

export type MessagesContentBlock =
  | { type: 'text'; text?: string | null }
  | { type: 'thinking'; thinking?: string | null; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input?: Record<string, unknown> | null }
  /** Server tools (web search, code execution) run on Anthropic's side: nothing for the client to answer. */
  | { type: 'server_tool_use' | 'web_search_tool_result' | 'other'; id?: string };

export type MessagesDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta' | 'other' };

export type MessagesEvent =
  | {
      type: 'message_start';
      /** `content` and `stop_reason` are normally empty; a message may start with finished blocks (server tools). */
      message: {
        id?: string | null;
        model?: string | null;
        usage?: MessagesUsage | null;
        content?: MessagesContentBlock[] | null;
        stop_reason?: string | null;
      };
    }
  | { type: 'content_block_start'; index: number; content_block: MessagesContentBlock }
  | { type: 'content_block_delta'; index: number; delta: MessagesDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta?: { stop_reason?: string | null; stop_sequence?: string | null } | null;
      usage?: MessagesUsage | null;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  /** Read leniently (`shape.ts`, `errorText`): a failure is reported whatever its details look like. */
  | { type: 'error'; error?: unknown }
  | UnknownEvent;
