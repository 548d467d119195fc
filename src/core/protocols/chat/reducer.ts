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
  TextGrowth,
  usageFrom,
} from '../../turnBuilder.ts';
import type { Stepper } from '../index.ts';
import { type Decoded, MalformedEvent, parseJson, reduceOrFail, unknownEvent } from '../json.ts';
import { count, errorFields, errorText, list, malformed, maybe, object, position, string } from '../shape.ts';
import type { ChatChunk, ChatEvent, ChatUsage, ChatWireError } from './events.ts';
import { ChatFastDecoder } from './fastDecode.ts';

const usageShape = maybe(
  object({
    prompt_tokens: maybe(count),
    completion_tokens: maybe(count),
    total_tokens: maybe(count),
    prompt_tokens_details: maybe(object({ cached_tokens: maybe(count) })),
    completion_tokens_details: maybe(object({ reasoning_tokens: maybe(count) })),
    cost: maybe(count),
  }),
);

/** The fields `reduceChat` reads of a chunk (docs/protocols.md §4.2). */
const chunkShape = object({
  id: maybe(string),
  model: maybe(string),
  choices: maybe(
    list(
      object({
        index: maybe(position),
        delta: maybe(
          object({
            content: maybe(string),
            refusal: maybe(string),
            reasoning_content: maybe(string),
            reasoning: maybe(string),
            tool_calls: maybe(
              list(
                object({
                  index: maybe(position),
                  id: maybe(string),
                  function: maybe(object({ name: maybe(string), arguments: maybe(string) })),
                }),
              ),
            ),
          }),
        ),
        finish_reason: maybe(string),
      }),
    ),
  ),
  usage: usageShape,
  x_groq: maybe(object({ usage: usageShape })),
});

/** One event's data (and its SSE event name) as the protocol's event, or why it cannot be read. */
export function decodeChatEvent(data: string, eventName: string): Decoded<ChatEvent> {
  if (data === '[DONE]') return { type: 'done' };
  // Every chunk is unnamed; Groq names its error event. Any other name is an event this app does not know.
  if (eventName !== 'message' && eventName !== 'error') return unknownEvent;
  const parsed = parseJson<ChatChunk>(data);
  if (parsed instanceof MalformedEvent) return parsed;
  // Any chunk with `error` is fatal whatever else it holds (OpenRouter), and Groq names the event `error`.
  // The failure is reported whatever its details look like; usage beside it only when it can be read.
  if (parsed.error) {
    const usage = usageShape(parsed.usage) === null ? parsed.usage : null;
    const error = typeof parsed.error === 'string' ? { message: parsed.error } : errorFields(parsed.error);
    return { type: 'error', error, usage };
  }
  if (eventName === 'error') return { type: 'error', error: parsed as ChatWireError };
  const problem = chunkShape(parsed);
  return problem === null ? { type: 'chunk', chunk: parsed } : malformed('chunk', problem);
}

/**
 * `decodeChatEvent` then `reduceChat`, as `readTurn` runs them, for one stream: a template chunk goes
 * straight to its transitions, without an event object.
 */
export class ChatStepper implements Stepper {
  private readonly fast = new ChatFastDecoder();
  private readonly growth = new TextGrowth();

  step(turn: Turn, data: string, eventName: string, owned: boolean): Turn {
    const fast = this.fast;
    const kind = fast.match(data);
    if (kind !== null && fast.plainHeader && eventName === 'message') {
      const next = setIdentity(turn, fast.id, fast.model);
      // One answer per turn: with n > 1 the other choices are not shown.
      if (fast.choiceIndex !== 0) return next;
      const value = fast.value;
      if (kind === 'finish') return value === '' ? next : finished(next, value);
      if (kind === 'toolArgs')
        return appendToolArguments(next, String(fast.toolIndex), value, owned, this.growth);
      if (value === '') return next;
      return kind === 'text'
        ? appendText(next, 'text', 'content', value, owned, this.growth)
        : appendText(next, 'reasoning', 'reasoning', value, owned, this.growth);
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

/** The choice's finish reason, `raw` as the server sent it (not empty). */
function finished(turn: Turn, raw: string): Turn {
  const mapped = Object.hasOwn(finishReasons, raw) ? finishReasons[raw]! : 'other';
  return setFinish(turn, turn.refusal && mapped === 'stop' ? 'refusal' : mapped, raw);
}

function chatUsage(usage: ChatUsage): Usage {
  return usageFrom(
    usage.prompt_tokens,
    usage.completion_tokens,
    usage.total_tokens,
    usage.completion_tokens_details?.reasoning_tokens,
    usage.prompt_tokens_details?.cached_tokens,
    usage.cost,
  );
}

function chatErrorCode(error: ChatWireError): string {
  return errorText(error.code) ?? errorText(error.type) ?? 'error';
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
          typeof call.index === 'number' ? String(call.index) : call.id ? `id:${call.id}` : lastToolKey(next);
        const args = call.function?.arguments ?? '';
        next =
          call.id || call.function?.name
            ? startToolCall(next, key, call.id ?? '', call.function?.name ?? '', args)
            : appendToolArguments(next, key, args);
      }
    }
    if (choice.finish_reason) next = finished(next, choice.finish_reason);
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
      return fail(
        billed,
        chatErrorCode(event.error),
        errorText(event.error.message) ?? 'The server reported an error.',
      );
    }
    case 'done':
      return complete(turn);
    case 'unknown':
      return turn;
  }
}
