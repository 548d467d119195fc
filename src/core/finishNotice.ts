import type { Turn } from './turn.ts';

/** Why a finished answer may not be the whole answer, in words a person understands. */
export interface FinishNotice {
  title: string;
  advice: string;
}

/** Whether assembled tool arguments are complete JSON (no arguments at all count as `{}`). */
function complete(args: string): boolean {
  if (args.trim() === '') return true;
  try {
    JSON.parse(args);
    return true;
  } catch {
    return false;
  }
}

/**
 * The answer ended normally by the protocol's rules, but not because the model was done: cut at the token
 * limit, stopped by a content filter, refused without words, or paused. Null for a plain stop or tool calls.
 */
export function finishNotice(turn: Turn): FinishNotice | null {
  if (turn.status !== 'complete') return null;
  const raw = turn.rawFinishReason ? ` (${turn.rawFinishReason})` : '';
  switch (turn.finishReason) {
    case 'length': {
      const cutCall = turn.toolCalls.some((call) => !complete(call.arguments));
      return {
        title: `The answer hit the output token limit${raw}`,
        advice: `${cutCall ? 'Its last tool call was cut off too, so it cannot be run. ' : ''}Raise "Max output tokens" in Settings and regenerate, or ask the model to continue.`,
      };
    }
    case 'content_filter':
      return {
        title: `The provider's content filter stopped the answer${raw}`,
        advice: 'What came before the filter is shown. Rephrasing the request may help.',
      };
    case 'refusal':
      // A refusal with words of its own is shown as such; Anthropic's stop reason comes without any.
      return turn.refusal
        ? null
        : { title: `The model declined to go on${raw}`, advice: 'What it wrote before is shown.' };
    case 'other':
      return turn.rawFinishReason === 'pause_turn'
        ? {
            title: 'The model paused its turn (pause_turn)',
            advice: 'It stopped in the middle of a long-running step: send “continue” to let it go on.',
          }
        : {
            title: `The answer ended early${raw}`,
            advice: 'This is the reason the model gave for stopping.',
          };
    default:
      return null;
  }
}
