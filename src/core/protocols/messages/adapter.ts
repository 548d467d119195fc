import type { ProtocolAdapter } from '../adapter.ts';
import { gatewayModels } from '../gatewayModels.ts';
import type { MessagesEvent } from './events.ts';
import { isMessagesReasoningState, messagesRequestProblem } from './reasoning.ts';
import { decodeMessagesEvent, MessagesStepper, reduceMessages } from './reducer.ts';
import { buildMessagesBody, messagesParameters } from './request.ts';

/** Anthropic Messages: thinking blocks kept and sent back, thinking's constraints checked before sending. */
export const messagesAdapter: ProtocolAdapter<MessagesEvent> = {
  label: 'Anthropic Messages',
  path: '/messages',
  headers: { 'anthropic-version': '2023-06-01' },
  credentials: {
    family: 'anthropic',
    key: (apiKey) => ({ 'x-api-key': apiKey }),
    // A browser calling Anthropic directly must say so, or the API refuses the CORS request.
    direct: { 'anthropic-dangerous-direct-browser-access': 'true' },
  },
  models: gatewayModels,
  parameters: messagesParameters,
  sdk: {
    python: 'anthropic',
    npm: '@anthropic-ai/sdk',
    client: 'Anthropic',
    create: 'messages.create',
    params: 'Anthropic.MessageCreateParams',
    addsV1: true,
  },
  buildBody: buildMessagesBody,
  decode: decodeMessagesEvent,
  reduce: reduceMessages,
  recognizes: (sse) => /"type"\s*:\s*"(message_start|content_block_start|content_block_delta)"/.test(sse),
  newStepper: () => new MessagesStepper(),
  isReasoningState: isMessagesReasoningState,
  requestProblem: messagesRequestProblem,
};
