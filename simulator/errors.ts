import { ids } from './ids.ts';

/** Error bodies come in two families: OpenAI's (Chat, Responses, models) and Anthropic's (Messages). */
export type ErrorFamily = 'openai' | 'anthropic';

export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'too_large'
  | 'unsupported_media'
  | 'rate_limit'
  | 'server';

export interface HttpError {
  status: number;
  kind: ErrorKind;
  message: string;
  param?: string | null;
  code?: string | null;
}

const OPENAI_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'invalid_request_error',
  permission: 'invalid_request_error',
  not_found: 'invalid_request_error',
  too_large: 'invalid_request_error',
  unsupported_media: 'invalid_request_error',
  rate_limit: 'requests',
  server: 'server_error',
};

const ANTHROPIC_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  too_large: 'request_too_large',
  unsupported_media: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  server: 'api_error',
};

export function familyForPath(path: string): ErrorFamily {
  return path === '/v1/messages' || path.startsWith('/v1/messages/') ? 'anthropic' : 'openai';
}

/** The header each family uses to name the request. */
export function requestIdFor(family: ErrorFamily): { header: string; value: string } {
  return family === 'anthropic'
    ? { header: 'request-id', value: ids.anthropicRequest() }
    : { header: 'x-request-id', value: ids.openaiRequest() };
}

export function errorBody(family: ErrorFamily, error: HttpError, requestId: string): unknown {
  if (family === 'anthropic') {
    return {
      type: 'error',
      error: { type: ANTHROPIC_TYPES[error.kind], message: error.message },
      request_id: requestId,
    };
  }
  return {
    error: {
      message: error.message,
      type: OPENAI_TYPES[error.kind],
      param: error.param ?? null,
      code: error.code ?? null,
    },
  };
}
