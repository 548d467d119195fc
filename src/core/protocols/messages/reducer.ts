import type { FinishReason, Turn, Usage } from '../../turn.ts';
import {
  appendText,
  appendToolArguments,
  complete,
  fail,
  hasToolCall,
  setFinish,
  setIdentity,
  setUsage,
  startToolCall,
} from '../../turnBuilder.ts';
import type { Stepper } from '../index.ts';
import { type Decoded, parseJson, reduceOrFail } from '../json.ts';
import type { MessagesEvent, MessagesUsage } from './events.ts';
import { type MessagesDeltaKind, MessagesFastDecoder } from './fastDecode.ts';

/** One event's data as the protocol's event, or why it cannot be read. */
export function decodeMessagesEvent(data: string): Decoded<MessagesEvent> {
  // Dispatch on the JSON `type`, not the SSE event name (they always match on the real API).
  return parseJson<MessagesEvent>(data);
}

/**
 * `decodeMessagesEvent` then `reduceMessages`, as `readTurn` runs them, for one stream: a template delta
 * goes straight to its transition, without an event object.
 */
export class MessagesStepper implements Stepper {
  private readonly fast = new MessagesFastDecoder();

  step(turn: Turn, data: string): Turn {
    const fast = this.fast;
    const kind = fast.match(data);
    if (kind === 'ping') return turn;
    if (kind !== null) return blockDelta(turn, fast.index, kind, fast.value);
    return reduceOrFail(turn, decodeMessagesEvent(data), reduceMessages);
  }
}

const stopReasons: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'refusal',
};

/**
 * Anthropic reports usage as running totals: a later value replaces an earlier one, field by field
 * (a compatible proxy sends the real input count only in `message_delta`).
 */
function mergeMessagesUsage(previous: Usage | null, reported: MessagesUsage | undefined): Usage | null {
  if (!reported) return previous;
  const cacheRead = reported.cache_read_input_tokens ?? previous?.cachedTokens;
  const cacheWrite = reported.cache_creation_input_tokens ?? previous?.cacheWriteTokens;
  const inputTokens =
    reported.input_tokens === undefined || reported.input_tokens === null
      ? (previous?.inputTokens ?? 0)
      : reported.input_tokens + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = reported.output_tokens ?? previous?.outputTokens ?? 0;
  const usage: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (typeof cacheRead === 'number') usage.cachedTokens = cacheRead;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  return usage;
}

const blockKey = (index: number) => String(index);

/** A content delta; its fields are passed as values, so that any event shape may carry them. */
function blockDelta(turn: Turn, index: number, kind: MessagesDeltaKind, value: string): Turn {
  const key = blockKey(index);
  if (kind === 'text') return appendText(turn, 'text', key, value);
  if (kind === 'reasoning') return appendText(turn, 'reasoning', key, value);
  // Server tool input streams too, but is not ours to answer: only client tool calls are kept.
  return hasToolCall(turn, key) ? appendToolArguments(turn, key, value) : turn;
}

/** Anthropic Messages: event in, turn out. */
export function reduceMessages(turn: Turn, event: MessagesEvent): Turn {
  switch (event.type) {
    case 'message_start': {
      const next = setIdentity(turn, event.message?.id, event.message?.model);
      const usage = mergeMessagesUsage(next.usage, event.message?.usage);
      return usage ? setUsage(next, usage) : next;
    }
    case 'content_block_start': {
      const block = event.content_block;
      const key = blockKey(event.index);
      switch (block.type) {
        case 'text':
          return appendText(turn, 'text', key, block.text ?? '');
        case 'thinking':
          return appendText(turn, 'reasoning', key, block.thinking ?? '');
        case 'tool_use': {
          // Input normally streams as JSON text; a non-empty `input` here means it came whole.
          const whole = block.input && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
          return startToolCall(turn, key, block.id, block.name, whole);
        }
        default:
          return turn;
      }
    }
    case 'content_block_delta': {
      const delta = event.delta;
      switch (delta.type) {
        case 'text_delta':
          return blockDelta(turn, event.index, 'text', delta.text);
        case 'thinking_delta':
          return blockDelta(turn, event.index, 'reasoning', delta.thinking);
        case 'input_json_delta':
          return blockDelta(turn, event.index, 'toolArgs', delta.partial_json);
        default:
          return turn;
      }
    }
    case 'message_delta': {
      const stop = event.delta?.stop_reason;
      const next = stop ? setFinish(turn, stopReasons[stop] ?? 'other', stop) : turn;
      const usage = mergeMessagesUsage(next.usage, event.usage);
      return usage ? setUsage(next, usage) : next;
    }
    case 'message_stop':
      return complete(turn);
    case 'error':
      return fail(
        turn,
        event.error?.type ?? 'error',
        event.error?.message ?? 'The server reported an error.',
      );
    default:
      return turn;
  }
}
