/** OpenAI Responses stream events, as they arrive on the wire (only the fields we read). */

import type { UnknownEvent } from '../json.ts';

export interface ResponsesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** The gateway's own figure for the request, in dollars (OpenRouter and others). */
  cost?: number | null;
}

export type ResponsesContentPart =
  | { type: 'output_text'; text: string }
  | { type: 'refusal'; refusal: string }
  | { type: 'reasoning_text'; text: string };

/** Items are told apart by their position in `response.output` (`output_index`), never by `id` (§5.2). */
export type ResponsesOutputItem =
  | { type: 'message'; id?: string; content?: ResponsesContentPart[] | null }
  | { type: 'function_call'; id?: string; call_id: string; name: string; arguments?: string | null }
  | {
      type: 'reasoning';
      id?: string;
      summary?: { type: 'summary_text'; text: string }[] | null;
      /** Raw reasoning (open-weight servers): `reasoning_text` parts. */
      content?: ResponsesContentPart[] | null;
    }
  | { type: 'other'; id?: string };

export interface ResponsesObject {
  id?: string | null;
  model?: string | null;
  status?: string | null;
  output?: ResponsesOutputItem[] | null;
  usage?: ResponsesUsage | null;
  /** Read leniently (`shape.ts`, `errorText`): a failure is reported whatever its details look like. */
  error?: unknown;
  incomplete_details?: { reason?: string | null } | null;
}

/**
 * Where a delta belongs: its item's position in `response.output` and (per event) its content or summary
 * part's position. `item_id` is a label only: some gateways rewrite it on every event.
 */
interface ItemAddress {
  item_id?: string;
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
  | ({ type: 'response.content_part.done'; content_index: number; part: ResponsesContentPart } & ItemAddress)
  | ({
      type: 'response.reasoning_summary_part.done';
      summary_index: number;
      part: { type: 'summary_text'; text: string };
    } & ItemAddress)
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
  /** OpenAI nests the details under `error`; the SDK types them flat. Both are read, leniently. */
  | { type: 'error'; code?: unknown; message?: unknown; error?: unknown }
  /** A trailing `[DONE]` that some gateways (OpenRouter) add after the terminal event. */
  | { type: 'done' }
  | UnknownEvent;
