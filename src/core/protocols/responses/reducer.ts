import type { Turn, Usage } from '../../turn.ts';
import {
  appendText,
  appendToolArguments,
  complete,
  fail,
  hasToolCall,
  setFinish,
  setIdentity,
  setText,
  setToolArguments,
  setUsage,
  startToolCall,
  usageFrom,
} from '../../turnBuilder.ts';
import type { Stepper } from '../index.ts';
import { type Decoded, parseJson, reduceOrFail } from '../json.ts';
import type { ResponsesEvent, ResponsesObject, ResponsesOutputItem, ResponsesUsage } from './events.ts';
import { ResponsesFastDecoder } from './fastDecode.ts';

/** One event's data as the protocol's event, or why it cannot be read. */
export function decodeResponsesEvent(data: string): Decoded<ResponsesEvent> {
  // Dispatch on the JSON `type`: OpenRouter sends no `event:` lines at all.
  return data === '[DONE]' ? { type: 'done' } : parseJson<ResponsesEvent>(data);
}

/** The keys of a message's content part and of a reasoning item's summary part. */
const textKey = (itemId: string, contentIndex: number) => `${itemId}:${contentIndex}`;
const summaryKey = (itemId: string, summaryIndex: number) => `${itemId}:summary:${summaryIndex}`;

/**
 * `decodeResponsesEvent` then `reduceResponses`, as `readTurn` runs them, for one stream: a template delta
 * goes straight to its transition, without an event object.
 */
export class ResponsesStepper implements Stepper {
  private readonly fast = new ResponsesFastDecoder();
  // A text delta's part key, remembered: consecutive deltas almost always share it.
  private keyItem = '';
  private keyIndex = -1;
  private key = '';

  step(turn: Turn, data: string): Turn {
    const fast = this.fast;
    const kind = fast.match(data);
    if (kind === 'text') return appendText(turn, 'text', this.textKey(fast.itemId, fast.part), fast.value);
    if (kind === 'reasoning')
      return appendText(turn, 'reasoning', summaryKey(fast.itemId, fast.part), fast.value);
    if (kind === 'toolArgs') return appendToolArguments(turn, fast.itemId, fast.value);
    return reduceOrFail(turn, decodeResponsesEvent(data), reduceResponses);
  }

  private textKey(itemId: string, contentIndex: number): string {
    if (itemId !== this.keyItem || contentIndex !== this.keyIndex) {
      this.keyItem = itemId;
      this.keyIndex = contentIndex;
      this.key = textKey(itemId, contentIndex);
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
  );
}

/** A finished item is authoritative: it fills in whatever deltas were missing or differ. */
function settleItem(turn: Turn, item: ResponsesOutputItem): Turn {
  switch (item.type) {
    case 'function_call': {
      const started = startToolCall(turn, item.id, item.call_id, item.name);
      return item.arguments === undefined ? started : setToolArguments(started, item.id, item.arguments);
    }
    case 'message': {
      let next = turn;
      (item.content ?? []).forEach((part, index) => {
        if (part.type === 'output_text') next = setText(next, 'text', textKey(item.id, index), part.text);
        else if (part.type === 'refusal')
          next = setText(next, 'refusal', textKey(item.id, index), part.refusal);
      });
      return next;
    }
    case 'reasoning': {
      let next = turn;
      (item.summary ?? []).forEach((part, index) => {
        next = setText(next, 'reasoning', summaryKey(item.id, index), part.text);
      });
      return next;
    }
    default:
      return turn;
  }
}

function finishResponse(turn: Turn, response: ResponsesObject, terminal: string): Turn {
  let next = setIdentity(turn, response.id, response.model);
  for (const item of response.output ?? []) next = settleItem(next, item);
  if (response.usage) next = setUsage(next, responsesUsage(response.usage));
  if (terminal === 'response.failed') {
    const error = response.error;
    const failed = fail(next, error?.code ?? 'response_failed', error?.message ?? 'The response failed.');
    // `fail` made a new Turn: set in place rather than spread into yet another (see turnBuilder's `withContent`).
    failed.rawFinishReason = response.status ?? 'failed';
    return failed;
  }
  if (terminal === 'response.incomplete') {
    const reason = response.incomplete_details?.reason ?? 'incomplete';
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
    case 'response.in_progress':
      return setIdentity(turn, event.response?.id, event.response?.model);
    case 'response.output_item.added':
      return event.item.type === 'function_call'
        ? startToolCall(turn, event.item.id, event.item.call_id, event.item.name, event.item.arguments ?? '')
        : turn;
    case 'response.output_item.done':
      return settleItem(turn, event.item);
    case 'response.output_text.delta':
      return appendText(turn, 'text', textKey(event.item_id, event.content_index), event.delta);
    case 'response.output_text.done':
      return setText(turn, 'text', textKey(event.item_id, event.content_index), event.text);
    case 'response.refusal.delta':
      return appendText(turn, 'refusal', textKey(event.item_id, event.content_index), event.delta);
    case 'response.refusal.done':
      return setText(turn, 'refusal', textKey(event.item_id, event.content_index), event.refusal);
    case 'response.reasoning_summary_text.delta':
      return appendText(turn, 'reasoning', summaryKey(event.item_id, event.summary_index), event.delta);
    case 'response.reasoning_summary_text.done':
      return setText(turn, 'reasoning', summaryKey(event.item_id, event.summary_index), event.text);
    case 'response.reasoning_text.delta':
      return appendText(turn, 'reasoning', textKey(event.item_id, event.content_index), event.delta);
    case 'response.reasoning_text.done':
      return setText(turn, 'reasoning', textKey(event.item_id, event.content_index), event.text);
    case 'response.function_call_arguments.delta':
      return appendToolArguments(turn, event.item_id, event.delta);
    case 'response.function_call_arguments.done':
      return hasToolCall(turn, event.item_id) ? setToolArguments(turn, event.item_id, event.arguments) : turn;
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      return finishResponse(turn, event.response ?? {}, event.type);
    case 'error': {
      const code = event.error?.code ?? event.code ?? event.error?.type ?? 'error';
      return fail(turn, code, event.error?.message ?? event.message ?? 'The server reported an error.');
    }
    default:
      // Built-in tool progress and event types added after this was written carry nothing to show.
      return turn;
  }
}
