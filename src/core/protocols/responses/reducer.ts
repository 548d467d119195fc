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
import { fastResponsesEvent, matched, matchResponsesEvent } from '../fastDecode.ts';
import { type Decoded, parseJson, reduceOrFail } from '../json.ts';
import type { ResponsesEvent, ResponsesObject, ResponsesOutputItem, ResponsesUsage } from './events.ts';

/** One event's data as the protocol's event, or why it cannot be read. */
export function decodeResponsesEvent(data: string): Decoded<ResponsesEvent> {
  if (data === '[DONE]') return { type: 'done' };
  // Dispatch on the JSON `type`: OpenRouter sends no `event:` lines at all.
  const fast = fastResponsesEvent(data);
  return fast ? (fast as ResponsesEvent) : parseJson<ResponsesEvent>(data);
}

/**
 * `decodeResponsesEvent` then `reduceResponses`, as `readTurn` runs them: a template delta goes straight to
 * its transition, without an event object (see `matched`).
 */
export function stepResponses(turn: Turn, data: string): Turn {
  if (matchResponsesEvent(data)) {
    const { responsesKind: kind, itemId, part, value } = matched;
    if (kind === 'text') return appendText(turn, 'text', textKey(itemId, part), value);
    if (kind === 'summary') return appendText(turn, 'reasoning', summaryKey(itemId, part), value);
    return appendToolArguments(turn, itemId, value);
  }
  if (data === '[DONE]') return reduceResponses(turn, { type: 'done' });
  return reduceOrFail(turn, parseJson<ResponsesEvent>(data), reduceResponses);
}

export function responsesUsage(usage: ResponsesUsage): Usage {
  return usageFrom(
    usage.input_tokens,
    usage.output_tokens,
    usage.total_tokens,
    usage.output_tokens_details?.reasoning_tokens,
    usage.input_tokens_details?.cached_tokens,
  );
}

// Every delta needs its part's key: the last one is remembered, as consecutive deltas almost always share it.
let lastItem = '';
let lastIndex = -1;
let lastKey = '';
function textKey(itemId: string, contentIndex: number): string {
  if (itemId !== lastItem || contentIndex !== lastIndex) {
    lastItem = itemId;
    lastIndex = contentIndex;
    lastKey = `${itemId}:${contentIndex}`;
  }
  return lastKey;
}
const summaryKey = (itemId: string, summaryIndex: number) => `${itemId}:summary:${summaryIndex}`;

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
    const failed = { ...next, rawFinishReason: response.status ?? 'failed' };
    return fail(failed, error?.code ?? 'response_failed', error?.message ?? 'The response failed.');
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
