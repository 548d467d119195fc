import { shownBranch } from './branches.ts';
import type { ChatMessage, Conversation } from './types.ts';

/** About four characters a token: the estimate for text no answer has counted yet. */
const CHARS_PER_TOKEN = 4;
/** Past this share of the window the gauge warns that the next message may not fit. */
export const NEAR_FULL = 0.9;

export interface ContextFill {
  /** Tokens the conversation shown already fills: the last answer's prompt and output, then estimates. */
  used: number;
  /** With the message being written. */
  next: number;
  window: number;
  level: 'ok' | 'near' | 'over';
}

const estimate = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

function textOf(message: ChatMessage): number {
  switch (message.role) {
    case 'user':
      return message.text.length;
    case 'tool':
      return message.content.length;
    case 'assistant': {
      const turn = message.attempts.at(-1)?.turn;
      return (turn?.text.length ?? 0) + (turn?.toolCalls.reduce((n, c) => n + c.arguments.length, 0) ?? 0);
    }
  }
}

/**
 * How much of the model's context window (`max_input_tokens`) the next request fills: the last counted
 * answer's prompt and output as the gateway reported them, what came after it and the draft estimated;
 * before any answer, everything estimated. Null without a known window.
 */
export function contextFill(
  conversation: Conversation | null,
  draftChars: number,
  window: number | undefined,
): ContextFill | null {
  if (!window) return null;
  const branch = conversation ? shownBranch(conversation) : [];
  let used = estimate(conversation?.systemPrompt?.length ?? 0);
  let from = 0;
  for (let i = branch.length - 1; i >= 0; i--) {
    const message = branch[i]!;
    const usage = message.role === 'assistant' ? message.attempts.at(-1)?.turn.usage : undefined;
    if (usage) {
      used = usage.inputTokens + usage.outputTokens;
      from = i + 1;
      break;
    }
  }
  for (const message of branch.slice(from)) used += estimate(textOf(message));
  const next = used + estimate(draftChars);
  const level = next > window ? 'over' : next > window * NEAR_FULL ? 'near' : 'ok';
  return { used, next, window, level };
}
