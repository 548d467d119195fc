import type { HttpError } from './httpError.ts';
import { formatCount, readLimits } from './limits.ts';
import type { Turn } from './turn.ts';

/** What went wrong with an answer, in words a person understands, and what they can do about it. */
export interface FailureAdvice {
  title: string;
  advice: string;
  /** Whether sending the same request again can help. */
  retryable: boolean;
}

const byStatus: Record<number, Omit<FailureAdvice, 'retryable'>> = {
  400: {
    title: 'The gateway rejected the request',
    advice:
      'A parameter or the history is not accepted by this model. Check the details below, change the settings, and send again.',
  },
  401: { title: 'The API key was not accepted', advice: 'Open Settings and check the API key.' },
  403: {
    title: 'Access denied',
    advice: 'This key may not use this model or region. Check the key and the model in Settings.',
  },
  404: {
    title: 'Not found',
    advice:
      'The model or the path does not exist on this gateway. Pick another model or check the base URL in Settings.',
  },
  408: { title: 'The request timed out', advice: 'Try again.' },
  413: {
    title: 'The request is too large',
    advice: 'Shorten the prompt or start a new conversation with less history.',
  },
  422: { title: 'The request could not be processed', advice: 'Check the details below.' },
  429: { title: 'Rate limit reached', advice: 'Too many requests for now. Wait a moment, then retry.' },
  500: {
    title: 'The gateway had an internal error',
    advice: 'This is usually temporary. Retry in a moment.',
  },
  502: { title: 'Bad gateway', advice: 'A proxy in front of the model failed. Retry in a moment.' },
  503: {
    title: 'Service unavailable',
    advice: 'The model is overloaded or down for now. Retry in a moment.',
  },
  504: { title: 'Gateway timeout', advice: 'The model took too long to start answering. Retry in a moment.' },
  529: { title: 'The model is overloaded', advice: 'Anthropic is under heavy load. Retry in a moment.' },
};

/** Mid-stream error codes of the three protocols, and ours. */
const byCode: Record<string, FailureAdvice> = {
  rate_limit_exceeded: {
    title: 'Rate limit reached mid-answer',
    advice: 'The answer was cut off by a rate limit. Wait a moment, then retry the whole request.',
    retryable: true,
  },
  rate_limit_error: {
    title: 'Rate limit reached mid-answer',
    advice: 'The answer was cut off by a rate limit. Wait a moment, then retry the whole request.',
    retryable: true,
  },
  insufficient_quota: {
    title: 'Quota exhausted',
    advice: 'The account has no quota left. Retrying will not help until the plan or billing is fixed.',
    retryable: false,
  },
  server_error: {
    title: 'The model failed mid-answer',
    advice:
      'A server error broke the stream. Partial output cannot be resumed: retry sends the whole request again.',
    retryable: true,
  },
  invalid_prompt: {
    title: 'The prompt was rejected',
    advice:
      'The model refused this prompt as it is. Change the message before sending again; retrying unchanged will fail again.',
    retryable: false,
  },
  api_error: {
    title: 'The stream was interrupted',
    advice:
      'The gateway lost the model mid-answer. Partial output cannot be resumed: retry sends the whole request again.',
    retryable: true,
  },
  overloaded_error: {
    title: 'The model is overloaded',
    advice: 'The model stopped mid-answer because it is overloaded. Retry in a moment.',
    retryable: true,
  },
  timeout_error: { title: 'The model timed out', advice: 'Retry the whole request.', retryable: true },
  malformed_event: {
    title: 'The stream was corrupted',
    advice:
      'The server sent an event that could not be read: not valid JSON, a known event missing a field it must have, or a second answer mixed into this one (the details name it). The gateway or a proxy in front of it sent it so; the connection itself was fine. Retry the request.',
    retryable: true,
  },
  too_large: {
    title: 'The answer is too large to keep',
    advice: `It passed what HopBase Chat keeps of one answer (${formatCount(readLimits.answerChars)} characters of text, reasoning and tool arguments, or ${formatCount(readLimits.eventChars)} in one event), so reading stopped there and the request was cancelled. Everything up to that point is kept. Retrying will run into the same limit: ask for a shorter answer instead.`,
    retryable: false,
  },
  app_error: {
    title: 'HopBase Chat failed while handling this answer',
    advice:
      'This is a bug in the app, not a problem with the network or the gateway. Retry sends the same request again; if it happens again, export the recording (Inspect, then Export) and report it.',
    retryable: false,
  },
  interrupted: {
    title: 'The connection closed early',
    advice:
      'The stream ended without its final event: a proxy or the network may have cut it. Retry sends the whole request again.',
    retryable: true,
  },
  page_reloaded: {
    title: 'Interrupted by a reload',
    advice: 'The page was closed while this answer streamed. Retry sends the same request again.',
    retryable: true,
  },
  aborted: {
    title: 'Stopped',
    advice: 'You stopped this answer. Retry sends the same request again.',
    retryable: true,
  },
  network_error: {
    title: 'Could not reach the gateway',
    advice: 'Check the connection and the base URL in Settings.',
    retryable: true,
  },
  blocked_by_policy: {
    title: 'This page may not connect to that gateway',
    advice:
      "The server's security policy (Content-Security-Policy, connect-src) does not list the gateway's origin. Ask the operator to add it to HOPBASE_CONNECT_SRC, or leave the base URL in Settings empty to use this server's /v1 proxy.",
    retryable: false,
  },
  unexpected_response: {
    title: 'Unexpected response',
    advice: 'The gateway did not answer with an event stream. Check the base URL in Settings.',
    retryable: true,
  },
};

/** Ours: a request that was not sent, because the API would refuse it; its message says what to change. */
export const notSentCode = 'not_sent';

export function adviseFailure(turn: Turn, httpError: HttpError | null): FailureAdvice | null {
  if (httpError) {
    const known = byCode[httpError.code];
    const status = byStatus[httpError.status] ?? {
      title: `The gateway answered HTTP ${httpError.status}`,
      advice: httpError.retryable ? 'Retry in a moment.' : 'Check the details below.',
    };
    // A 429 for quota is not a rate limit: the code decides.
    if (known && !known.retryable) return known;
    return { ...status, retryable: httpError.retryable };
  }
  if (turn.status === 'complete' || turn.status === 'streaming' || !turn.error) return null;
  if (turn.error.code === notSentCode)
    return {
      title: 'Not sent: the API would refuse these settings',
      advice: turn.error.message,
      retryable: false,
    };
  return (
    byCode[turn.error.code] ?? {
      title: 'The model reported an error',
      advice: 'The stream ended with an error. Retry sends the whole request again.',
      retryable: true,
    }
  );
}
