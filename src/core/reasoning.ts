import type { ConversationMessage, TurnRequest } from './conversation.ts';
import type { Protocol, Turn } from './turn.ts';

/**
 * Reasoning, both ways: what a request asks for (an effort, or Anthropic's thinking budget), and the
 * reasoning state a provider hands out with an answer and wants back, exactly as it came, in the next
 * request of the same protocol (docs/protocols.md §5.1, §6.1). Chat Completions has no such state: its
 * reasoning text is shown, never sent back (§4.2).
 */

/** How hard the model should think; `off` sends no reasoning parameter at all (the model's own default). */
export type ReasoningLevel = 'off' | 'low' | 'medium' | 'high';
export type ReasoningEffort = Exclude<ReasoningLevel, 'off'>;

export const reasoningLevels: readonly ReasoningLevel[] = ['off', 'low', 'medium', 'high'];

/** What a request asks for: the effort (Chat, Responses) and the thinking budget (Messages). */
export interface ReasoningOptions {
  effort: ReasoningEffort;
  /** Anthropic's `thinking.budget_tokens`: at least `minThinkingBudget`, below `max_tokens`. */
  budgetTokens: number;
}

/** Anthropic's floor for `thinking.budget_tokens`. */
export const minThinkingBudget = 1024;

/** The thinking budget each level stands for on Anthropic Messages, until Settings says otherwise. */
export const defaultThinkingBudgets: Readonly<Record<ReasoningEffort, number>> = {
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** Anthropic: a thinking block as streamed; `thinking` may be empty when the model omits its text. */
export type ThinkingBlock = {
  type: 'thinking';
  thinking: string;
  signature: string;
};

/** Anthropic: thinking the safety systems encrypted; `data` is opaque. */
export type RedactedThinkingBlock = {
  type: 'redacted_thinking';
  data: string;
};

/** Responses: a reasoning item as `response.output_item.done` gave it, every field kept. */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary?: { type: 'summary_text'; text: string }[];
  /** Present when the request asked for `include: ["reasoning.encrypted_content"]`. */
  encrypted_content?: string | null;
  [field: string]: unknown;
}

/**
 * One piece of an answer's reasoning state, bound to the protocol that produced it: signatures and
 * encrypted content are only valid with that provider. `key` is where it sat in the answer (a Messages
 * content block index, a Responses output index), so a later event about the same piece replaces it.
 */
export type ReasoningState =
  | { protocol: 'messages'; key: string; block: ThinkingBlock | RedactedThinkingBlock }
  | { protocol: 'responses'; key: string; item: ResponsesReasoningItem };

const isString = (value: unknown): value is string => typeof value === 'string';

/** Whether `value` is reasoning state as this version writes it (stored answers are read defensively). */
function isReasoningState(value: unknown): value is ReasoningState {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  if (!isString(entry.key)) return false;
  if (entry.protocol === 'messages') {
    const block = entry.block as Record<string, unknown> | null | undefined;
    if (typeof block !== 'object' || block === null) return false;
    if (block.type === 'thinking') return isString(block.thinking) && isString(block.signature);
    return block.type === 'redacted_thinking' && isString(block.data);
  }
  if (entry.protocol === 'responses') {
    const item = entry.item as Record<string, unknown> | null | undefined;
    return typeof item === 'object' && item !== null && item.type === 'reasoning' && isString(item.id);
  }
  return false;
}

/** An answer's reasoning state, in the order it streamed; anything malformed (an old or damaged record) is left out. */
export function reasoningStateOf(turn: Turn): ReasoningState[] {
  const state = (turn as { reasoningState?: unknown }).reasoningState;
  return Array.isArray(state) ? state.filter(isReasoningState) : [];
}

/**
 * Whether `entry` can go back to the provider in a request of `protocol`: only to the protocol that made
 * it; a thinking block only with its signature; a Responses item only with its encrypted content, since
 * we send `store: false` and the API keeps nothing to look the item up by (it answers 404 for a bare id).
 */
export function replayable(entry: ReasoningState, protocol: Protocol): boolean {
  if (entry.protocol !== protocol) return false;
  if (entry.protocol === 'messages')
    return entry.block.type === 'redacted_thinking' ? entry.block.data !== '' : entry.block.signature !== '';
  const encrypted = entry.item.encrypted_content;
  return typeof encrypted === 'string' && encrypted !== '';
}

/** The protocols whose reasoning state `messages` hold that a request of `protocol` cannot send back. */
export function unreplayableProtocols(
  messages: readonly ConversationMessage[],
  protocol: Protocol,
): Protocol[] {
  const out = new Set<Protocol>();
  for (const m of messages)
    if (m.role === 'assistant')
      for (const entry of m.reasoningState ?? []) if (entry.protocol !== protocol) out.add(entry.protocol);
  return [...out];
}

/** Thinking blocks of one answer, as Messages sends them back (first in the assistant turn, unchanged). */
export function thinkingBlocksOf(message: ConversationMessage): (ThinkingBlock | RedactedThinkingBlock)[] {
  if (message.role !== 'assistant') return [];
  return (message.reasoningState ?? []).flatMap((entry) =>
    entry.protocol === 'messages' && replayable(entry, 'messages') ? [entry.block] : [],
  );
}

/** Reasoning items of one answer, as Responses sends them back (before the items that followed them). */
export function reasoningItemsOf(message: ConversationMessage): ResponsesReasoningItem[] {
  if (message.role !== 'assistant') return [];
  return (message.reasoningState ?? []).flatMap((entry) =>
    entry.protocol === 'responses' && replayable(entry, 'responses') ? [entry.item] : [],
  );
}

/**
 * The thinking a Messages request asks for: the budget, `paused`, or null when reasoning is off.
 *
 * `paused`: Anthropic requires an assistant turn to think all the way or not at all. A follow-up that
 * answers tool calls made without thinking (reasoning was off then, or another protocol made them) would
 * be refused with thinking on, because the turn it continues does not start with a thinking block; so
 * that request goes without thinking, and the next message from the person turns it back on.
 */
export function messagesThinking(request: TurnRequest): { budgetTokens: number } | 'paused' | null {
  if (!request.reasoning) return null;
  const messages = request.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    const assistant = messages.findLast((m) => m.role === 'assistant');
    if (
      assistant?.role === 'assistant' &&
      assistant.toolCalls?.length &&
      thinkingBlocksOf(assistant).length === 0
    )
      return 'paused';
  }
  return { budgetTokens: request.reasoning.budgetTokens };
}

/**
 * Why a request cannot be sent as it stands: a code and the figures it names, which the UI puts in words a
 * person can act on (`failure.not_sent.advice`).
 */
export type RequestProblem =
  | { code: 'budget_too_small'; values: { min: number; budget: number } }
  | { code: 'limit_not_above_budget'; values: { limit: number; effort: ReasoningEffort; budget: number } }
  | { code: 'temperature_while_thinking'; values: { temperature: number } };

/**
 * What stops a request from being sent, or null when nothing does. These are the reasoning constraints the
 * APIs answer with a 400, caught before anything is sent.
 */
export function requestProblem(protocol: Protocol, request: TurnRequest): RequestProblem | null {
  if (protocol !== 'messages') return null;
  const thinking = messagesThinking(request);
  if (thinking === null || thinking === 'paused' || !request.reasoning) return null;
  const budget = thinking.budgetTokens;
  if (!Number.isInteger(budget) || budget < minThinkingBudget)
    return { code: 'budget_too_small', values: { min: minThinkingBudget, budget } };
  const limit = request.maxOutputTokens;
  if (limit !== undefined && limit <= budget)
    return { code: 'limit_not_above_budget', values: { limit, effort: request.reasoning.effort, budget } };
  if (request.temperature !== undefined && request.temperature !== 1)
    return { code: 'temperature_while_thinking', values: { temperature: request.temperature } };
  return null;
}
