import type { HttpRequestSpec, TurnRequest } from '../conversation.ts';
import type { SseEvent } from '../sse/types.ts';
import type { Protocol, Turn } from '../turn.ts';
import { decodeChatEvent, reduceChat } from './chat/reducer.ts';
import { buildChatBody } from './chat/request.ts';
import type { Decoded } from './json.ts';
import { decodeMessagesEvent, reduceMessages } from './messages/reducer.ts';
import { buildMessagesBody } from './messages/request.ts';
import { decodeResponsesEvent, reduceResponses } from './responses/reducer.ts';
import { buildResponsesBody } from './responses/request.ts';

/** Everything protocol-specific, in one record per protocol: the rest of the engine is shared. */
export interface ProtocolAdapter<E> {
  label: string;
  path: string;
  headers: Record<string, string>;
  buildBody(request: TurnRequest): Record<string, unknown>;
  decode(event: SseEvent): Decoded<E>;
  reduce(turn: Turn, event: E): Turn;
}

const chat: ProtocolAdapter<Parameters<typeof reduceChat>[1]> = {
  label: 'Chat Completions',
  path: '/chat/completions',
  headers: {},
  buildBody: buildChatBody,
  decode: decodeChatEvent,
  reduce: reduceChat,
};

const responses: ProtocolAdapter<Parameters<typeof reduceResponses>[1]> = {
  label: 'Responses',
  path: '/responses',
  headers: {},
  buildBody: buildResponsesBody,
  decode: decodeResponsesEvent,
  reduce: reduceResponses,
};

const messages: ProtocolAdapter<Parameters<typeof reduceMessages>[1]> = {
  label: 'Anthropic Messages',
  path: '/messages',
  headers: { 'anthropic-version': '2023-06-01' },
  buildBody: buildMessagesBody,
  decode: decodeMessagesEvent,
  reduce: reduceMessages,
};

// The event type differs per protocol; callers only ever pass a value from `decode` back to `reduce`.
export const adapters: Record<Protocol, ProtocolAdapter<unknown>> = {
  chat: chat as ProtocolAdapter<unknown>,
  responses: responses as ProtocolAdapter<unknown>,
  messages: messages as ProtocolAdapter<unknown>,
};

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
