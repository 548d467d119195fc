import type { ConversationMessage, TurnRequest } from '../../conversation.ts';
import type { ReasoningEffort, RequestProblem } from '../../reasoning.ts';

/** Anthropic: a thinking block as streamed; `thinking` may be empty when the model omits its text. */
export type ThinkingBlock = {
  type: 'thinking';
  thinking: string;
  signature: string;
};

/** Anthropic: thinking the safety systems encrypted; `data` is opaque. */
type RedactedThinkingBlock = {
  type: 'redacted_thinking';
  data: string;
};

/** A thinking block of an answer; `key` is its content block index (docs/protocols.md §6.1). */
export interface MessagesReasoningState {
  protocol: 'messages';
  key: string;
  block: ThinkingBlock | RedactedThinkingBlock;
}

/** With thinking on, Anthropic takes `top_p` from this up to 1 only. */
export const minTopPWhileThinking = 0.95;

/** Anthropic's floor for `thinking.budget_tokens`. */
export const minThinkingBudget = 1024;

/** The thinking budget each level stands for on Anthropic Messages, until Settings says otherwise. */
export const defaultThinkingBudgets: Readonly<Record<ReasoningEffort, number>> = {
  low: 2048,
  medium: 8192,
  high: 16384,
};

const isString = (value: unknown): value is string => typeof value === 'string';

export function isMessagesReasoningState(entry: Readonly<Record<string, unknown>>): boolean {
  const block = entry.block as Record<string, unknown> | null | undefined;
  if (typeof block !== 'object' || block === null) return false;
  if (block.type === 'thinking') return isString(block.thinking) && isString(block.signature);
  return block.type === 'redacted_thinking' && isString(block.data);
}

/** A thinking block goes back only with its signature, a redacted one only with its data. */
function replayable({ block }: MessagesReasoningState): boolean {
  return block.type === 'redacted_thinking' ? block.data !== '' : block.signature !== '';
}

/** Thinking blocks of one answer, as Messages sends them back (first in the assistant turn, unchanged). */
export function thinkingBlocksOf(message: ConversationMessage): (ThinkingBlock | RedactedThinkingBlock)[] {
  if (message.role !== 'assistant') return [];
  return (message.reasoningState ?? []).flatMap((entry) =>
    entry.protocol === 'messages' && replayable(entry) ? [entry.block] : [],
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

/** The thinking constraints the API answers with a 400. */
export function messagesRequestProblem(request: TurnRequest): RequestProblem | null {
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
  if (request.topP !== undefined && request.topP < minTopPWhileThinking)
    return { code: 'top_p_while_thinking', values: { topP: request.topP, min: minTopPWhileThinking } };
  // Thinking takes only `auto` or `none`: a forced call (structured output is one, `messagesToolFields`) is refused.
  const forced = forcedToolCall(request);
  if (forced !== null) return { code: 'forced_tool_while_thinking', values: { forced } };
  return null;
}

/** The tool call a request makes the model make, if any: the answer schema's, or one its tool choice forces. */
function forcedToolCall(request: TurnRequest): 'required' | 'tool' | 'structured' | null {
  if (request.outputSchema) return 'structured';
  if (!request.tools?.length) return null;
  const kind = request.toolChoice?.kind;
  return kind === 'required' || kind === 'tool' ? kind : null;
}
