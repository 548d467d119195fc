/** OpenAI Responses stream events, as they arrive on the wire (only the fields we read). */

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

export type ResponsesContentPart =
  | { type: 'output_text'; text: string }
  | { type: 'refusal'; refusal: string }
  | { type: 'reasoning_text'; text: string };

export type ResponsesOutputItem =
  | { type: 'message'; id: string; content?: ResponsesContentPart[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments?: string }
  | { type: 'reasoning'; id: string; summary?: { type: 'summary_text'; text: string }[] }
  | { type: 'other'; id?: string };

export interface ResponsesObject {
  id?: string;
  model?: string;
  status?: string;
  output?: ResponsesOutputItem[];
  usage?: ResponsesUsage | null;
  error?: { code?: string | null; message?: string } | null;
  incomplete_details?: { reason?: string } | null;
}

interface ItemAddress {
  item_id: string;
  output_index: number;
}

export type ResponsesEvent =
  | { type: 'response.created' | 'response.queued' | 'response.in_progress'; response: ResponsesObject }
  | { type: 'response.completed' | 'response.incomplete' | 'response.failed'; response: ResponsesObject }
  | {
      type: 'response.output_item.added' | 'response.output_item.done';
      output_index: number;
      item: ResponsesOutputItem;
    }
  | ({ type: 'response.output_text.delta'; content_index: number; delta: string } & ItemAddress)
  | ({ type: 'response.output_text.done'; content_index: number; text: string } & ItemAddress)
  | ({ type: 'response.refusal.delta'; content_index: number; delta: string } & ItemAddress)
  | ({ type: 'response.refusal.done'; content_index: number; refusal: string } & ItemAddress)
  | ({ type: 'response.reasoning_summary_text.delta'; summary_index: number; delta: string } & ItemAddress)
  | ({ type: 'response.reasoning_summary_text.done'; summary_index: number; text: string } & ItemAddress)
  | ({ type: 'response.reasoning_text.delta'; content_index: number; delta: string } & ItemAddress)
  | ({ type: 'response.reasoning_text.done'; content_index: number; text: string } & ItemAddress)
  | ({ type: 'response.function_call_arguments.delta'; delta: string } & ItemAddress)
  | ({ type: 'response.function_call_arguments.done'; arguments: string } & ItemAddress)
  /** OpenAI nests the details under `error`; the SDK types them flat. Both are read. */
  | {
      type: 'error';
      code?: string | null;
      message?: string;
      error?: { code?: string | null; type?: string; message?: string };
    }
  /** A trailing `[DONE]` that some gateways (OpenRouter) add after the terminal event. */
  | { type: 'done' };
