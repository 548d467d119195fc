/** Anthropic Messages stream events, as they arrive on the wire (only the fields we read). */

export interface MessagesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type MessagesContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input?: Record<string, unknown> }
  /** Server tools (web search, code execution) run on Anthropic's side: nothing for the client to answer. */
  | { type: 'server_tool_use' | 'web_search_tool_result' | 'other'; id?: string };

export type MessagesDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'signature_delta' | 'citations_delta' | 'other' };

export type MessagesEvent =
  | { type: 'message_start'; message: { id?: string; model?: string; usage?: MessagesUsage } }
  | { type: 'content_block_start'; index: number; content_block: MessagesContentBlock }
  | { type: 'content_block_delta'; index: number; delta: MessagesDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason?: string | null; stop_sequence?: string | null };
      usage?: MessagesUsage;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };
