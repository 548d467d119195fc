import type { FinishReason, Turn, Usage } from '../../turn.ts';
import {
  appendText,
  appendToolArguments,
  complete,
  fail,
  setFinish,
  setIdentity,
  setUsage,
  startToolCall,
  usageFrom,
} from '../../turnBuilder.ts';
import type { Stepper } from '../index.ts';
import { type Decoded, MalformedEvent, parseJson, reduceOrFail } from '../json.ts';
import type { ChatChunk, ChatEvent, ChatUsage, ChatWireError } from './events.ts';
import { ChatFastDecoder } from './fastDecode.ts';

/** One event's data (and its SSE event name) as the protocol's event, or why it cannot be read. */
export function decodeChatEvent(data: string, eventName: string): Decoded<ChatEvent> {
  if (data === '[DONE]') return { type: 'done' };
  const parsed = parseJson<ChatChunk>(data);
  if (parsed instanceof MalformedEvent) return parsed;
  // Any chunk with `error` is fatal whatever else it holds (OpenRouter), and Groq names the event `error`.
  if (parsed.error) return { type: 'error', error: parsed.error, usage: parsed.usage };
  if (eventName === 'error') return { type: 'error', error: parsed as ChatWireError };
  return { type: 'chunk', chunk: parsed };
}

/**
 * `decodeChatEvent` then `reduceChat`, as `readTurn` runs them, for one stream: a template chunk goes
 * straight to its transitions, without an event object.
 */
export class ChatStepper implements Stepper {
  private readonly fast = new ChatFastDecoder();

  step(turn: Turn, data: string, eventName: string): Turn {
    const fast = this.fast;
    const kind = fast.match(data);
    if (kind !== null && fast.plainHeader && eventName !== 'error') {
      const next = setIdentity(turn, fast.id, fast.model);
      // One answer per turn: with n > 1 the other choices are not shown.
      if (fast.choiceIndex !== 0) return next;
      const value = fast.value;
      if (kind === 'toolArgs') return appendToolArguments(next, String(fast.toolIndex), value);
      if (value === '') return next;
      return kind === 'text'
        ? appendText(next, 'text', 'content', value)
        : appendText(next, 'reasoning', 'reasoning', value);
    }
    return reduceOrFail(turn, decodeChatEvent(data, eventName), reduceChat);
  }
}

const finishReasons: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

function chatUsage(usage: ChatUsage): Usage {
  return usageFrom(
    usage.prompt_tokens,
    usage.completion_tokens,
    usage.total_tokens,
    usage.completion_tokens_details?.reasoning_tokens,
    usage.prompt_tokens_details?.cached_tokens,
  );
}

function chatErrorCode(error: ChatWireError): string {
  const code = error.code ?? error.type;
  return code === undefined || code === null ? 'error' : String(code);
}

function lastToolKey(turn: Turn): string {
  for (let i = turn.parts.length - 1; i >= 0; i--) {
    const part = turn.parts[i]!;
    if (part.kind === 'tool_call') return part.key;
  }
  return '0';
}

function reduceChunk(turn: Turn, chunk: ChatChunk): Turn {
  let next = setIdentity(turn, chunk.id, chunk.model);
  for (const choice of chunk.choices ?? []) {
    // One answer per turn: with n > 1 the other choices are not shown.
    if ((choice.index ?? 0) !== 0) continue;
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) next = appendText(next, 'reasoning', 'reasoning', reasoning);
      if (delta.content) next = appendText(next, 'text', 'content', delta.content);
      if (delta.refusal) next = appendText(next, 'refusal', 'refusal', delta.refusal);
      for (const call of delta.tool_calls ?? []) {
        // Calls are keyed by `index`; a provider that omits it is keyed by id, its later pieces by the last call.
        const key =
          call.index !== undefined ? String(call.index) : call.id ? `id:${call.id}` : lastToolKey(next);
        const args = call.function?.arguments ?? '';
        next =
          call.id || call.function?.name
            ? startToolCall(next, key, call.id ?? '', call.function?.name ?? '', args)
            : appendToolArguments(next, key, args);
      }
    }
    if (choice.finish_reason) {
      const mapped = finishReasons[choice.finish_reason] ?? 'other';
      next = setFinish(next, next.refusal && mapped === 'stop' ? 'refusal' : mapped, choice.finish_reason);
    }
  }
  const usage = chunk.usage ?? chunk.x_groq?.usage;
  if (usage) next = setUsage(next, chatUsage(usage));
  return next;
}

/** Chat Completions: event in, turn out. */
export function reduceChat(turn: Turn, event: ChatEvent): Turn {
  switch (event.type) {
    case 'chunk':
      return reduceChunk(turn, event.chunk);
    case 'error': {
      const billed = event.usage ? setUsage(turn, chatUsage(event.usage)) : turn;
      return fail(billed, chatErrorCode(event.error), event.error.message ?? 'The server reported an error.');
    }
    case 'done':
      return complete(turn);
  }
}
