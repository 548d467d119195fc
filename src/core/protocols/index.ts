import type { HttpRequestSpec, TurnRequest } from '../conversation.ts';
import { keepShape } from '../keepShape.ts';
import type { Protocol, Turn } from '../turn.ts';
import { ChatStepper, decodeChatEvent, reduceChat } from './chat/reducer.ts';
import { buildChatBody } from './chat/request.ts';
import type { Decoded } from './json.ts';
import { decodeMessagesEvent, MessagesStepper, reduceMessages } from './messages/reducer.ts';
import { buildMessagesBody } from './messages/request.ts';
import { decodeResponsesEvent, ResponsesStepper, reduceResponses } from './responses/reducer.ts';
import { buildResponsesBody } from './responses/request.ts';

/**
 * `decode` then `reduce` for one stream, as `readTurn` runs them (an unreadable event ends the turn as an
 * error), with a faster path for deltas. It holds that stream's decoding state (cursor, remembered
 * prefixes): one per stream, never shared.
 */
export interface Stepper {
  step(turn: Turn, data: string, eventName: string): Turn;
}

/** Everything protocol-specific, in one record per protocol: the rest of the engine is shared. */
export interface ProtocolAdapter<E> {
  label: string;
  path: string;
  headers: Record<string, string>;
  buildBody(request: TurnRequest): Record<string, unknown>;
  /** An SSE event's data and name (`message` when unnamed) to the protocol's event. */
  decode(data: string, eventName: string): Decoded<E>;
  reduce(turn: Turn, event: E): Turn;
  /** A new stepper, for one stream. */
  newStepper(): Stepper;
}

const chat: ProtocolAdapter<Parameters<typeof reduceChat>[1]> = {
  label: 'Chat Completions',
  path: '/chat/completions',
  headers: {},
  buildBody: buildChatBody,
  decode: decodeChatEvent,
  reduce: reduceChat,
  newStepper: () => new ChatStepper(),
};

const responses: ProtocolAdapter<Parameters<typeof reduceResponses>[1]> = {
  label: 'Responses',
  path: '/responses',
  headers: {},
  buildBody: buildResponsesBody,
  decode: decodeResponsesEvent,
  reduce: reduceResponses,
  newStepper: () => new ResponsesStepper(),
};

const messages: ProtocolAdapter<Parameters<typeof reduceMessages>[1]> = {
  label: 'Anthropic Messages',
  path: '/messages',
  headers: { 'anthropic-version': '2023-06-01' },
  buildBody: buildMessagesBody,
  decode: decodeMessagesEvent,
  reduce: reduceMessages,
  newStepper: () => new MessagesStepper(),
};

// The event type differs per protocol; callers only ever pass a value from `decode` back to `reduce`.
export const adapters: Record<Protocol, ProtocolAdapter<unknown>> = {
  chat: chat as ProtocolAdapter<unknown>,
  responses: responses as ProtocolAdapter<unknown>,
  messages: messages as ProtocolAdapter<unknown>,
};

// One stepper of each kind kept for good (see README, Performance).
for (const adapter of Object.values(adapters)) keepShape(adapter.newStepper());

export const protocols: Protocol[] = ['chat', 'responses', 'messages'];

/** Path (relative to the gateway's `/v1` base), protocol headers and body of one streamed request. */
export function buildRequest(protocol: Protocol, request: TurnRequest): HttpRequestSpec {
  const adapter = adapters[protocol];
  return {
    method: 'POST',
    path: adapter.path,
    headers: { 'content-type': 'application/json', ...adapter.headers },
    body: adapter.buildBody(request),
  };
}

/**
 * Credentials in each protocol's own header. A browser calling Anthropic directly must also say so,
 * or the API refuses the CORS request.
 */
export function authHeaders(protocol: Protocol, apiKey: string, direct: boolean): Record<string, string> {
  if (!apiKey) return {};
  if (protocol !== 'messages') return { authorization: `Bearer ${apiKey}` };
  return { 'x-api-key': apiKey, ...(direct && { 'anthropic-dangerous-direct-browser-access': 'true' }) };
}
