import type { FinishReason, Turn, Usage } from '../../turn.ts';
import {
  appendText,
  appendToolArguments,
  complete,
  fail,
  hasToolCall,
  putReasoningState,
  setFinish,
  setIdentity,
  setText,
  setToolArguments,
  setUsage,
  startToolCall,
  TextGrowth,
} from '../../turnBuilder.ts';
import type { Stepper } from '../index.ts';
import { type Decoded, reduceOrFail } from '../json.ts';
import {
  count,
  decodeTyped,
  errorFields,
  errorText,
  list,
  maybe,
  object,
  position,
  type Shape,
  string,
  typed,
} from '../shape.ts';
import type { MessagesContentBlock, MessagesEvent, MessagesUsage } from './events.ts';
import { type MessagesDeltaKind, MessagesFastDecoder } from './fastDecode.ts';
import type { ThinkingBlock } from './reasoning.ts';

const usage = maybe(
  object({
    input_tokens: maybe(count),
    output_tokens: maybe(count),
    cache_creation_input_tokens: maybe(count),
    cache_read_input_tokens: maybe(count),
    cache_creation: maybe(
      object({ ephemeral_5m_input_tokens: maybe(count), ephemeral_1h_input_tokens: maybe(count) }),
    ),
    cost: maybe(count),
  }),
);
const contentBlock = typed({
  text: object({ text: maybe(string) }),
  thinking: object({ thinking: maybe(string), signature: maybe(string) }),
  redacted_thinking: object({ data: string }),
  tool_use: object({ id: string, name: string, input: maybe(object({})) }),
});

/** The fields `reduceMessages` reads, per event type (docs/protocols.md §6.2). */
const shapes: Record<string, Shape> = {
  message_start: object({
    message: object({
      id: maybe(string),
      model: maybe(string),
      usage,
      content: maybe(list(contentBlock)),
      stop_reason: maybe(string),
    }),
  }),
  content_block_start: object({ index: position, content_block: contentBlock }),
  content_block_delta: object({
    index: position,
    delta: typed({
      text_delta: object({ text: string }),
      thinking_delta: object({ thinking: string }),
      input_json_delta: object({ partial_json: string }),
      signature_delta: object({ signature: string }),
    }),
  }),
  message_delta: object({ delta: maybe(object({ stop_reason: maybe(string) })), usage }),
};

/** The events `reduceMessages` reads: data under one of these names must be one of them. */
const known: ReadonlySet<string> = new Set([
  ...Object.keys(shapes),
  'content_block_stop',
  'message_stop',
  'error',
]);

/** One event's data (and its SSE name) as the protocol's event, or why it cannot be read. */
export function decodeMessagesEvent(data: string, eventName = 'message'): Decoded<MessagesEvent> {
  // Dispatch on the JSON `type`, not the SSE event name (they always match on the real API).
  return decodeTyped<MessagesEvent>(data, eventName, shapes, known);
}

/**
 * `decodeMessagesEvent` then `reduceMessages`, as `readTurn` runs them, for one stream: a template delta
 * goes straight to its transition, without an event object.
 */
export class MessagesStepper implements Stepper {
  private readonly fast = new MessagesFastDecoder();
  private readonly growth = new TextGrowth();

  step(turn: Turn, data: string, eventName: string, owned: boolean): Turn {
    const fast = this.fast;
    const kind = fast.match(data);
    if (kind === 'ping') return turn;
    if (kind === 'blockStop') return blockStopped(turn, fast.index);
    if (kind === 'messageStop') return complete(turn);
    if (kind !== null) return blockDelta(turn, fast.index, kind, fast.value, owned, this.growth);
    return reduceOrFail(turn, decodeMessagesEvent(data, eventName), reduceMessages);
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

const stopReason = (raw: string): FinishReason =>
  Object.hasOwn(stopReasons, raw) ? stopReasons[raw]! : 'other';

/**
 * Anthropic reports usage as running totals: a later value replaces an earlier one, field by field
 * (a compatible proxy sends the real input count only in `message_delta`).
 */
function mergeMessagesUsage(
  previous: Usage | null,
  reported: MessagesUsage | null | undefined,
): Usage | null {
  if (!reported) return previous;
  const split = reported.cache_creation;
  const splitSum = split
    ? (split.ephemeral_5m_input_tokens ?? 0) + (split.ephemeral_1h_input_tokens ?? 0)
    : undefined;
  const cacheRead = reported.cache_read_input_tokens ?? previous?.cachedTokens;
  const cacheWrite = reported.cache_creation_input_tokens ?? splitSum ?? previous?.cacheWriteTokens;
  const write1h = split?.ephemeral_1h_input_tokens ?? previous?.cacheWrite1hTokens;
  const inputTokens =
    reported.input_tokens === undefined || reported.input_tokens === null
      ? (previous?.inputTokens ?? 0)
      : reported.input_tokens + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = reported.output_tokens ?? previous?.outputTokens ?? 0;
  const usage: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (typeof cacheRead === 'number') usage.cachedTokens = cacheRead;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  // The one-hour part of the writes, never more than the writes themselves.
  if (cacheWrite && write1h) usage.cacheWrite1hTokens = Math.min(write1h, cacheWrite);
  const cost =
    typeof reported.cost === 'number' && reported.cost >= 0 ? reported.cost : previous?.gatewayCost;
  if (cost !== undefined) usage.gatewayCost = cost;
  return usage;
}

const blockKey = (index: number) => String(index);

/** A content delta; its fields are passed as values, so that any event shape may carry them. */
function blockDelta(
  turn: Turn,
  index: number,
  kind: MessagesDeltaKind,
  value: string,
  owned = false,
  growth?: TextGrowth,
): Turn {
  const key = blockKey(index);
  if (kind === 'text') return appendText(turn, 'text', key, value, owned, growth);
  if (kind === 'reasoning') return appendText(turn, 'reasoning', key, value, owned, growth);
  // Server tool input streams too, but is not ours to answer: only client tool calls are kept.
  return hasToolCall(turn, key) ? appendToolArguments(turn, key, value, owned, growth) : turn;
}

/** A tool's input that came whole: its JSON text; `{}` (or none) means it streams, or has no arguments. */
function wholeInput(input: Record<string, unknown> | null | undefined): string {
  return input && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
}

/** The thinking text streamed so far for block `key`. */
function thinkingOf(turn: Turn, key: string): string {
  const part = turn.parts.findLast((p) => p.kind === 'reasoning' && p.key === key);
  return part?.kind === 'reasoning' ? part.text : '';
}

/** A thinking block with its signature, as the next request must send it back (docs/protocols.md §6.1). */
function signedThinking(turn: Turn, key: string, signature: string): Turn {
  const block: ThinkingBlock = { type: 'thinking', thinking: thinkingOf(turn, key), signature };
  return putReasoningState(turn, { protocol: 'messages', key, block });
}

/** Reasoning state a block brings whole at its start: a signed thinking block, or redacted thinking. */
function wholeThinking(turn: Turn, key: string, block: MessagesContentBlock): Turn {
  if (block.type === 'redacted_thinking')
    return putReasoningState(turn, {
      protocol: 'messages',
      key,
      block: { type: 'redacted_thinking', data: block.data },
    });
  return block.type === 'thinking' && block.signature ? signedThinking(turn, key, block.signature) : turn;
}

/** A block that is finished as it arrives (in `message_start`): set, not appended, so a repeat changes nothing. */
function finishedBlock(turn: Turn, key: string, block: MessagesContentBlock): Turn {
  switch (block.type) {
    case 'text':
      return setText(turn, 'text', key, block.text ?? '');
    case 'thinking':
      return wholeThinking(setText(turn, 'reasoning', key, block.thinking ?? ''), key, block);
    case 'redacted_thinking':
      return wholeThinking(turn, key, block);
    case 'tool_use':
      return setToolArguments(startToolCall(turn, key, block.id, block.name), key, wholeInput(block.input));
    default:
      return turn;
  }
}

/** The end of block `index`: a thinking block's final text goes with its signature, whatever arrived after it. */
function blockStopped(turn: Turn, index: number): Turn {
  const key = blockKey(index);
  const entry = turn.reasoningState?.find((e) => e.protocol === 'messages' && e.key === key);
  if (entry?.protocol !== 'messages' || entry.block.type !== 'thinking') return turn;
  const thinking = thinkingOf(turn, key);
  return thinking === entry.block.thinking ? turn : signedThinking(turn, key, entry.block.signature);
}

/** Anthropic Messages: event in, turn out. */
export function reduceMessages(turn: Turn, event: MessagesEvent): Turn {
  switch (event.type) {
    case 'message_start': {
      const message = event.message;
      // One stream is one message: another id means two answers mixed into one stream.
      if (message.id && turn.responseId !== null && message.id !== turn.responseId) {
        return fail(
          turn,
          'malformed_event',
          `The server sent a second message_start (message ${message.id}) in the middle of message ${turn.responseId}: the stream mixes two answers, so reading stopped there.`,
        );
      }
      let next = setIdentity(turn, message.id, message.model);
      const usage = mergeMessagesUsage(next.usage, message.usage);
      if (usage) next = setUsage(next, usage);
      // Blocks already finished when the message starts (server-side tools): taken whole.
      const content = message.content ?? [];
      for (let index = 0; index < content.length; index++)
        next = finishedBlock(next, blockKey(index), content[index]!);
      const stop = message.stop_reason;
      return stop ? setFinish(next, stopReason(stop), stop) : next;
    }
    case 'content_block_start': {
      const block = event.content_block;
      const key = blockKey(event.index);
      switch (block.type) {
        case 'text':
          return appendText(turn, 'text', key, block.text ?? '');
        case 'thinking':
          return wholeThinking(appendText(turn, 'reasoning', key, block.thinking ?? ''), key, block);
        case 'redacted_thinking':
          // Complete at its start, no deltas: nothing to show, everything to send back.
          return wholeThinking(turn, key, block);
        case 'tool_use':
          // Input normally streams as JSON text; a non-empty `input` here means it came whole.
          return startToolCall(turn, key, block.id, block.name, wholeInput(block.input));
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
        case 'signature_delta':
          // Set, not appended (as the SDK does); it normally comes once, right before the block stops.
          return signedThinking(turn, blockKey(event.index), delta.signature);
        default:
          return turn;
      }
    }
    case 'content_block_stop':
      return blockStopped(turn, event.index);
    case 'message_delta': {
      const stop = event.delta?.stop_reason;
      const next = stop ? setFinish(turn, stopReason(stop), stop) : turn;
      const usage = mergeMessagesUsage(next.usage, event.usage);
      return usage ? setUsage(next, usage) : next;
    }
    case 'message_stop':
      return complete(turn);
    case 'error': {
      const error = errorFields(event.error);
      return fail(
        turn,
        errorText(error.type) ?? 'error',
        errorText(error.message) ?? 'The server reported an error.',
      );
    }
    default:
      return turn;
  }
}
