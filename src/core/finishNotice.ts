import { argumentsComplete } from './conversation.ts';
import type { Turn } from './turn.ts';

/** Why a finished answer may not be the whole answer, in words a person understands. */
export interface FinishNotice {
  title: string;
  advice: string;
}

/**
 * The answer ended normally by the protocol's rules, but not because the model was done: cut at the token
 * limit or the context window, stopped by a content filter, refused without words, or paused. Null for a
 * plain stop or tool calls, and for reasons this app does not know (compatible servers have their own
 * words for a plain stop: no false alarm).
 */
export function finishNotice(turn: Turn): FinishNotice | null {
  if (turn.status !== 'complete') return null;
  const raw = turn.rawFinishReason ? ` (${turn.rawFinishReason})` : '';
  const before = turn.text || turn.toolCalls.length > 0 ? 'What came before is shown. ' : '';
  switch (turn.finishReason) {
    case 'length': {
      if (turn.rawFinishReason === 'model_context_window_exceeded') {
        return {
          title: "The conversation filled the model's context window",
          advice: `${before}Start a new conversation, or one with less history, to go on.`,
        };
      }
      const cutCall = turn.toolCalls.some((call) => !argumentsComplete(call.arguments));
      return {
        title: `The answer hit the output token limit${raw}`,
        advice: `${cutCall ? 'Its last tool call was cut off too, so it cannot be run. ' : ''}Raise "Max output tokens" in Settings and send the question again, or ask the model to continue.`,
      };
    }
    case 'content_filter':
      return {
        title: `The provider's content filter stopped the answer${raw}`,
        advice: `${before}Rephrasing the request may help.`,
      };
    case 'refusal':
      // A refusal with words of its own is shown as such; Anthropic's stop reason comes without any.
      return turn.refusal ? null : { title: `The model declined to answer${raw}`, advice: before.trim() };
    case 'other':
      return turn.rawFinishReason === 'pause_turn'
        ? {
            title: 'The model paused a long-running step (pause_turn)',
            advice: `${before}This app does not resume such a step: send the question again to start it over.`,
          }
        : null;
    default:
      return null;
  }
}
