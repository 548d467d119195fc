import type { ConversationMessage } from './conversation.ts';
import type { NumberParameter } from './parameters.ts';
import type { ReasoningState } from './protocols/index.ts';
import type { Protocol } from './turn.ts';

// Each protocol's folder defines its own state, what of it goes back and what its API refuses; the
// registration joins them.
export type { ReasoningState };

/**
 * Reasoning as every protocol shares it: the level a person picks, what a request asks for, and the
 * reasoning state a provider hands out with an answer and wants back, exactly as it came, in the next
 * request of the same protocol (docs/protocols.md §5.1, §6.1).
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

/**
 * Why a request cannot be sent as it stands: a code and the figures it names, which the UI puts in words a
 * person can act on (`failure.not_sent.advice`). `api` is the protocol's label.
 */
export type RequestProblem =
  | { code: 'budget_too_small'; values: { min: number; budget: number } }
  | { code: 'limit_not_above_budget'; values: { limit: number; effort: ReasoningEffort; budget: number } }
  | { code: 'temperature_while_thinking'; values: { temperature: number } }
  | { code: 'top_p_while_thinking'; values: { topP: number; min: number } }
  /** A tool call the model is made to make: `structured` is the answer schema's tool. */
  | { code: 'forced_tool_while_thinking'; values: { forced: 'required' | 'tool' | 'structured' } }
  | {
      code: 'parameter_out_of_range';
      values: {
        api: string;
        name: NumberParameter;
        value: number;
        min: number;
        /** `none`: no upper bound. */
        max: number | 'none';
        whole: 'yes' | 'no';
      };
    }
  | { code: 'too_many_stop_sequences'; values: { api: string; max: number; count: number } };
