import type { ProtocolAdapter } from '../adapter.ts';
import { bearerCredentials } from '../bearerCredentials.ts';
import { gatewayModels } from '../gatewayModels.ts';
import type { ChatEvent } from './events.ts';
import { ChatStepper, decodeChatEvent, reduceChat } from './reducer.ts';
import { buildChatBody, chatParameters } from './request.ts';

/** OpenAI Chat Completions: no reasoning state to keep or check (docs/protocols.md §4.2). */
export const chatAdapter: ProtocolAdapter<ChatEvent> = {
  label: 'Chat Completions',
  path: '/chat/completions',
  headers: {},
  credentials: bearerCredentials,
  models: gatewayModels,
  parameters: chatParameters,
  sdk: {
    python: 'openai',
    npm: 'openai',
    client: 'OpenAI',
    create: 'chat.completions.create',
    params: 'OpenAI.Chat.ChatCompletionCreateParams',
    addsV1: false,
  },
  buildBody: (request) => ({ body: buildChatBody(request), reasoningPaused: false }),
  decode: decodeChatEvent,
  reduce: reduceChat,
  recognizes: (sse) => sse.includes('chat.completion.chunk') || /"choices"\s*:/.test(sse),
  newStepper: () => new ChatStepper(),
};
