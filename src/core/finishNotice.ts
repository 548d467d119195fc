import { argumentsComplete } from './conversation.ts';
import type { Turn } from './turn.ts';

/**
 * Why a finished answer may not be the whole answer: the UI finds the words of each code in its catalogs
 * under `finish.<code>.title` and `finish.<code>.advice`.
 */
export const finishNoticeCodes = [
  'context_window',
  'output_limit',
  'content_filter',
  'refusal',
  'pause_turn',
] as const;

export type FinishNoticeCode = (typeof finishNoticeCodes)[number];

export interface FinishNotice {
  code: FinishNoticeCode;
  /** The protocol's own finish value (`length`, `max_tokens`, …), named beside the explanation. */
  rawFinishReason: string | null;
  /** Whether text or tool calls came before the ending: then the note says they are shown. */
  outputShown: boolean;
  /** The token limit cut a tool call's arguments too, so it cannot be run. */
  toolCallCut: boolean;
}

/**
 * The answer ended normally by the protocol's rules, but not because the model was done: cut at the token
 * limit or the context window, stopped by a content filter, refused without words, or paused. Null for a
 * plain stop or tool calls, and for reasons this app does not know (compatible servers have their own
 * words for a plain stop: no false alarm).
 */
export function finishNotice(turn: Turn): FinishNotice | null {
  if (turn.status !== 'complete') return null;
  const notice = (code: FinishNoticeCode, toolCallCut = false): FinishNotice => ({
    code,
    rawFinishReason: turn.rawFinishReason,
    outputShown: turn.text !== '' || turn.toolCalls.length > 0,
    toolCallCut,
  });
  switch (turn.finishReason) {
    case 'length':
      if (turn.rawFinishReason === 'model_context_window_exceeded') return notice('context_window');
      return notice(
        'output_limit',
        turn.toolCalls.some((call) => !argumentsComplete(call.arguments)),
      );
    case 'content_filter':
      return notice('content_filter');
    case 'refusal':
      // A refusal with words of its own is shown as such; Anthropic's stop reason comes without any.
      return turn.refusal ? null : notice('refusal');
    case 'other':
      return turn.rawFinishReason === 'pause_turn' ? notice('pause_turn') : null;
    default:
      return null;
  }
}
