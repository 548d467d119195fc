import type { Turn, Usage } from '../../turn.ts';
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
  usageFrom,
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
import type {
  ResponsesContentPart,
  ResponsesEvent,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesUsage,
} from './events.ts';
import { ResponsesFastDecoder } from './fastDecode.ts';
import type { ResponsesReasoningItem } from './reasoning.ts';

const usage = maybe(
  object({
    input_tokens: maybe(count),
    output_tokens: maybe(count),
    total_tokens: maybe(count),
    input_tokens_details: maybe(object({ cached_tokens: maybe(count) })),
    output_tokens_details: maybe(object({ reasoning_tokens: maybe(count) })),
    cost: maybe(count),
  }),
);
/** A content part: of a message (text, refusal) or of a reasoning item (raw reasoning). */
const contentPart = typed({
  output_text: object({ text: string }),
  refusal: object({ refusal: string }),
  reasoning_text: object({ text: string }),
});
const outputItem = typed({
  message: object({ content: maybe(list(contentPart)) }),
  function_call: object({ call_id: string, name: string, arguments: maybe(string) }),
  reasoning: object({ summary: maybe(list(object({ text: string }))), content: maybe(list(contentPart)) }),
});
const started = object({ response: object({ id: maybe(string), model: maybe(string) }) });
const ended = object({
  response: object({
    id: maybe(string),
    model: maybe(string),
    status: maybe(string),
    output: maybe(list(outputItem)),
    usage,
    incomplete_details: maybe(object({ reason: maybe(string) })),
  }),
});
const item = object({ item: outputItem, output_index: position });
/** A content part's delta or final text, under `field`. */
const inContent = (field: string) =>
  object({ output_index: position, content_index: position, [field]: string });
const inSummary = (field: string) =>
  object({ output_index: position, summary_index: position, [field]: string });

/** The fields `reduceResponses` reads, per event type (docs/protocols.md §5.2). */
const shapes: Record<string, Shape> = {
  'response.created': started,
  'response.queued': started,
  'response.in_progress': started,
  'response.completed': ended,
  'response.incomplete': ended,
  'response.failed': ended,
  'response.output_item.added': item,
  'response.output_item.done': item,
  'response.content_part.done': object({
    output_index: position,
    content_index: position,
    part: contentPart,
  }),
  'response.reasoning_summary_part.done': object({
    output_index: position,
    summary_index: position,
    part: typed({ summary_text: object({ text: string }) }),
  }),
  'response.output_text.delta': inContent('delta'),
  'response.output_text.done': inContent('text'),
  'response.refusal.delta': inContent('delta'),
  'response.refusal.done': inContent('refusal'),
  'response.reasoning_text.delta': inContent('delta'),
  'response.reasoning_text.done': inContent('text'),
  'response.reasoning_summary_text.delta': inSummary('delta'),
  'response.reasoning_summary_text.done': inSummary('text'),
  'response.function_call_arguments.delta': object({ output_index: position, delta: string }),
  'response.function_call_arguments.done': object({ output_index: position, arguments: string }),
};

/** The events `reduceResponses` reads: data under one of these names must be one of them. */
const known: ReadonlySet<string> = new Set([...Object.keys(shapes), 'error']);

/** One event's data (and its SSE name) as the protocol's event, or why it cannot be read. */
export function decodeResponsesEvent(data: string, eventName = 'message'): Decoded<ResponsesEvent> {
  // Dispatch on the JSON `type`: OpenRouter sends no `event:` lines at all.
  if (data === '[DONE]') return { type: 'done' };
  return decodeTyped<ResponsesEvent>(data, eventName, shapes, known);
}

/**
 * Part keys, from positions as the official SDK keys them: an item by its `output_index`, a part of it by
 * its `content_index` or `summary_index`. Item ids are labels, not keys: some gateways in front of
 * OpenAI-compatible backends rewrite `item_id` on every event while the positions stay put.
 */
const itemKey = (outputIndex: number) => String(outputIndex);
const textKey = (outputIndex: number, contentIndex: number) => `${outputIndex}:${contentIndex}`;
const summaryKey = (outputIndex: number, summaryIndex: number) => `${outputIndex}:summary:${summaryIndex}`;

/**
 * `decodeResponsesEvent` then `reduceResponses`, as `readTurn` runs them, for one stream: a template delta
 * goes straight to its transition, without an event object.
 */
export class ResponsesStepper implements Stepper {
  private readonly fast = new ResponsesFastDecoder();
  private readonly growth = new TextGrowth();
  // A text delta's part key, remembered: consecutive deltas almost always share it.
  private keyOutput = -1;
  private keyIndex = -1;
  private key = '';

  step(turn: Turn, data: string, eventName: string, owned: boolean): Turn {
    const fast = this.fast;
    const kind = fast.match(data);
    const growth = this.growth;
    if (kind === 'text')
      return appendText(turn, 'text', this.textKey(fast.outputIndex, fast.part), fast.value, owned, growth);
    if (kind === 'reasoning')
      return appendText(
        turn,
        'reasoning',
        summaryKey(fast.outputIndex, fast.part),
        fast.value,
        owned,
        growth,
      );
    if (kind === 'toolArgs')
      return appendToolArguments(turn, itemKey(fast.outputIndex), fast.value, owned, growth);
    return reduceOrFail(turn, decodeResponsesEvent(data, eventName), reduceResponses);
  }

  private textKey(outputIndex: number, contentIndex: number): string {
    if (outputIndex !== this.keyOutput || contentIndex !== this.keyIndex) {
      this.keyOutput = outputIndex;
      this.keyIndex = contentIndex;
      this.key = textKey(outputIndex, contentIndex);
    }
    return this.key;
  }
}

function responsesUsage(usage: ResponsesUsage): Usage {
  return usageFrom(
    usage.input_tokens,
    usage.output_tokens,
    usage.total_tokens,
    usage.output_tokens_details?.reasoning_tokens,
    usage.input_tokens_details?.cached_tokens,
    usage.cost,
  );
}

/** A finished content part: its whole text, which replaces whatever its deltas brought. */
function settlePart(turn: Turn, key: string, part: ResponsesContentPart): Turn {
  switch (part.type) {
    case 'output_text':
      return setText(turn, 'text', key, part.text);
    case 'refusal':
      return setText(turn, 'refusal', key, part.refusal);
    case 'reasoning_text':
      return setText(turn, 'reasoning', key, part.text);
    default:
      return turn;
  }
}

function settleParts(
  turn: Turn,
  outputIndex: number,
  parts: ResponsesContentPart[] | null | undefined,
): Turn {
  let next = turn;
  if (parts)
    for (let i = 0; i < parts.length; i++) next = settlePart(next, textKey(outputIndex, i), parts[i]!);
  return next;
}

/**
 * A finished item (at `outputIndex`) is authoritative: it fills in whatever deltas were missing or differ.
 * A finished reasoning item is also kept whole, every field as received (`encrypted_content` above all),
 * for the next request to send back; `keepState` is false for the output of a failed response, whose
 * items may not have finished.
 */
function settleItem(turn: Turn, outputIndex: number, item: ResponsesOutputItem, keepState = true): Turn {
  switch (item.type) {
    case 'function_call': {
      const key = itemKey(outputIndex);
      const started = startToolCall(turn, key, item.call_id, item.name);
      return typeof item.arguments === 'string' ? setToolArguments(started, key, item.arguments) : started;
    }
    case 'message':
      return settleParts(turn, outputIndex, item.content);
    case 'reasoning': {
      let next = settleParts(turn, outputIndex, item.content);
      (item.summary ?? []).forEach((part, index) => {
        next = setText(next, 'reasoning', summaryKey(outputIndex, index), part.text);
      });
      if (!keepState || typeof item.id !== 'string') return next;
      const whole = item as ResponsesReasoningItem;
      // Keyed by position: a gateway may rename the item in its terminal event (OpenRouter does).
      return putReasoningState(next, { protocol: 'responses', key: itemKey(outputIndex), item: whole });
    }
    default:
      return turn;
  }
}

function finishResponse(turn: Turn, response: ResponsesObject, terminal: string): Turn {
  let next = setIdentity(turn, response.id, response.model);
  const output = response.output ?? [];
  const finished = terminal !== 'response.failed';
  for (let index = 0; index < output.length; index++)
    next = settleItem(next, index, output[index]!, finished);
  if (response.usage) next = setUsage(next, responsesUsage(response.usage));
  if (terminal === 'response.failed') {
    const error = errorFields(response.error);
    const failed = fail(
      next,
      errorText(error.code) ?? 'response_failed',
      errorText(error.message) ?? 'The response failed.',
    );
    // `fail` made a new Turn: set in place rather than spread into yet another (see turnBuilder's `withContent`).
    failed.rawFinishReason = response.status ?? 'failed';
    return failed;
  }
  if (terminal === 'response.incomplete') {
    const reason = response.incomplete_details?.reason || 'incomplete';
    const mapped =
      reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content_filter' : 'other';
    return complete(setFinish(next, mapped, reason));
  }
  const finish = next.toolCalls.length > 0 ? 'tool_calls' : next.refusal ? 'refusal' : 'stop';
  return complete(setFinish(next, finish, response.status ?? 'completed'));
}

/** Responses: event in, turn out. */
export function reduceResponses(turn: Turn, event: ResponsesEvent): Turn {
  switch (event.type) {
    case 'response.created':
    case 'response.queued':
    case 'response.in_progress': {
      const id = event.response.id;
      // One stream is one response: a second `response.created` with another id means two answers mixed
      // into one stream. A new id on a progress event is not one: some gateways give every event a new id.
      if (event.type === 'response.created' && id && turn.responseId !== null && id !== turn.responseId) {
        return fail(
          turn,
          'malformed_event',
          `The server sent a second ${event.type} (response ${id}) in the middle of response ${turn.responseId}: the stream mixes two answers, so reading stopped there.`,
        );
      }
      return setIdentity(turn, id, event.response.model);
    }
    case 'response.output_item.added': {
      const item = event.item;
      return item.type === 'function_call'
        ? startToolCall(turn, itemKey(event.output_index), item.call_id, item.name, item.arguments ?? '')
        : turn;
    }
    case 'response.output_item.done':
      return settleItem(turn, event.output_index, event.item);
    case 'response.content_part.done':
      return settlePart(turn, textKey(event.output_index, event.content_index), event.part);
    case 'response.reasoning_summary_part.done':
      return event.part.type === 'summary_text'
        ? setText(turn, 'reasoning', summaryKey(event.output_index, event.summary_index), event.part.text)
        : turn;
    case 'response.output_text.delta':
      return appendText(turn, 'text', textKey(event.output_index, event.content_index), event.delta);
    case 'response.output_text.done':
      return setText(turn, 'text', textKey(event.output_index, event.content_index), event.text);
    case 'response.refusal.delta':
      return appendText(turn, 'refusal', textKey(event.output_index, event.content_index), event.delta);
    case 'response.refusal.done':
      return setText(turn, 'refusal', textKey(event.output_index, event.content_index), event.refusal);
    case 'response.reasoning_summary_text.delta':
      return appendText(turn, 'reasoning', summaryKey(event.output_index, event.summary_index), event.delta);
    case 'response.reasoning_summary_text.done':
      return setText(turn, 'reasoning', summaryKey(event.output_index, event.summary_index), event.text);
    case 'response.reasoning_text.delta':
      return appendText(turn, 'reasoning', textKey(event.output_index, event.content_index), event.delta);
    case 'response.reasoning_text.done':
      return setText(turn, 'reasoning', textKey(event.output_index, event.content_index), event.text);
    case 'response.function_call_arguments.delta':
      return appendToolArguments(turn, itemKey(event.output_index), event.delta);
    case 'response.function_call_arguments.done': {
      const key = itemKey(event.output_index);
      return hasToolCall(turn, key) ? setToolArguments(turn, key, event.arguments) : turn;
    }
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      return finishResponse(turn, event.response, event.type);
    case 'error': {
      const nested = errorFields(event.error);
      const code = errorText(nested.code) ?? errorText(event.code) ?? errorText(nested.type) ?? 'error';
      const message =
        errorText(nested.message) ?? errorText(event.message) ?? 'The server reported an error.';
      return fail(turn, code, message);
    }
    default:
      // Built-in tool progress and event types added after this was written carry nothing to show.
      return turn;
  }
}
