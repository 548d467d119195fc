import type { ConversationMessage } from '../../conversation.ts';

/** A reasoning item as `response.output_item.done` gave it, every field kept. */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary?: { type: 'summary_text'; text: string }[];
  /** Present when the request asked for `include: ["reasoning.encrypted_content"]`. */
  encrypted_content?: string | null;
  [field: string]: unknown;
}

/** A reasoning item of an answer; `key` is its output index (docs/protocols.md §5.1). */
export interface ResponsesReasoningState {
  protocol: 'responses';
  key: string;
  item: ResponsesReasoningItem;
}

export function isResponsesReasoningState(entry: Readonly<Record<string, unknown>>): boolean {
  const item = entry.item as Record<string, unknown> | null | undefined;
  return (
    typeof item === 'object' && item !== null && item.type === 'reasoning' && typeof item.id === 'string'
  );
}

/**
 * An item goes back only with its encrypted content: we send `store: false`, so the API keeps nothing to
 * look a bare id up by (it answers 404).
 */
function replayable({ item }: ResponsesReasoningState): boolean {
  return typeof item.encrypted_content === 'string' && item.encrypted_content !== '';
}

/** Reasoning items of one answer, as Responses sends them back (before the items that followed them). */
export function reasoningItemsOf(message: ConversationMessage): ResponsesReasoningItem[] {
  if (message.role !== 'assistant') return [];
  return (message.reasoningState ?? []).flatMap((entry) =>
    entry.protocol === 'responses' && replayable(entry) ? [entry.item] : [],
  );
}
