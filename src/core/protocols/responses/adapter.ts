import type { ProtocolAdapter } from '../adapter.ts';
import { bearerCredentials } from '../bearerCredentials.ts';
import { gatewayModels } from '../gatewayModels.ts';
import type { ResponsesEvent } from './events.ts';
import { isResponsesReasoningState } from './reasoning.ts';
import { decodeResponsesEvent, ResponsesStepper, reduceResponses } from './reducer.ts';
import { buildResponsesBody, responsesParameters } from './request.ts';

/** OpenAI Responses: reasoning items kept and sent back; no constraint checked before sending. */
export const responsesAdapter: ProtocolAdapter<ResponsesEvent> = {
  label: 'Responses',
  path: '/responses',
  headers: {},
  credentials: bearerCredentials,
  models: gatewayModels,
  parameters: responsesParameters,
  sdk: {
    python: 'openai',
    npm: 'openai',
    client: 'OpenAI',
    create: 'responses.create',
    params: 'OpenAI.Responses.ResponseCreateParams',
    addsV1: false,
  },
  buildBody: (request) => ({ body: buildResponsesBody(request), reasoningPaused: false }),
  decode: decodeResponsesEvent,
  reduce: reduceResponses,
  recognizes: (sse) => /"type"\s*:\s*"response\./.test(sse),
  newStepper: () => new ResponsesStepper(),
  isReasoningState: isResponsesReasoningState,
};
