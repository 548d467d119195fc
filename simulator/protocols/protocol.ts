import type { Conversation, Json, Parsed } from '../conversation.ts';
import type { ErrorFamily } from '../errors.ts';
import type { Encoder } from '../script.ts';
import type { SseEvent } from '../sse-writer.ts';

/**
 * What the simulated provider remembers between requests, as the real one does: which reasoning item each
 * function call it made came after (Responses), so that a stateless follow-up missing that item is refused.
 */
export interface ProviderMemory {
  rememberCall(callId: string, reasoningItemId: string): void;
  reasoningBefore(callId: string): string | undefined;
}

/** One wire protocol: how its requests are validated and how a script is encoded on its wire. */
export interface Protocol {
  readonly family: ErrorFamily;
  /** Validates the JSON body like the real API and reduces it to a neutral conversation. */
  parse(body: unknown, memory: ProviderMemory): Parsed;
  /** A fresh encoder for one response to this request. */
  encoder(conv: Conversation, body: Json, memory: ProviderMemory): Encoder;
}

/** Serializes `{type, ...payload}` as an event named after its type (Responses and Anthropic). */
export function typedEvent(type: string, payload: Json): SseEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}
