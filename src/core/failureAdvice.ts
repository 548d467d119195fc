import type { HttpError } from './httpError.ts';
import { readLimits } from './limits.ts';
import type { Turn } from './turn.ts';

/**
 * Which explanation a failure gets: the UI finds its words (a title and what to do) in its catalogs under
 * `failure.<code>.title` and `failure.<code>.advice`. The protocol's own code and message are not these:
 * they are shown as they came, under "Details".
 */
export const failureCodes = [
  'http_400',
  'http_401',
  'http_403',
  'http_404',
  'http_408',
  'http_413',
  'http_422',
  'http_429',
  'http_500',
  'http_502',
  'http_503',
  'http_504',
  'http_529',
  /** Another HTTP status (`values.status`), retryable or not. */
  'http_status',
  'http_status_retryable',
  'rate_limit_mid_answer',
  'insufficient_quota',
  'server_error',
  'invalid_prompt',
  'api_error',
  'overloaded_error',
  'timeout_error',
  'malformed_event',
  /** `values`: the caps, `answerChars` and `eventChars`. */
  'too_large',
  'app_error',
  'interrupted',
  'page_reloaded',
  'aborted',
  'network_error',
  'blocked_by_policy',
  'unexpected_response',
  /** Ours: an attached file's bytes are no longer stored, so the request cannot be sent as it was. */
  'attachment_missing',
  /**
   * `values.problem`: what to change, as the request check named it (`RequestProblem`'s code, with its
   * figures beside it; an answer stored before codes holds the sentence itself).
   */
  'not_sent',
  /** An error code this app does not know. */
  'stream_error',
] as const;

export type FailureCode = (typeof failureCodes)[number];

/** What went wrong with an answer, as an explanation to show, and whether sending it again can help. */
export interface FailureAdvice {
  code: FailureCode;
  /** What the explanation's words need (an HTTP status, a cap). */
  values?: Readonly<Record<string, string | number>>;
  /** Whether sending the same request again can help. */
  retryable: boolean;
}

const statusCodes: Record<number, FailureCode> = {
  400: 'http_400',
  401: 'http_401',
  403: 'http_403',
  404: 'http_404',
  408: 'http_408',
  413: 'http_413',
  422: 'http_422',
  429: 'http_429',
  500: 'http_500',
  502: 'http_502',
  503: 'http_503',
  504: 'http_504',
  529: 'http_529',
};

/** Mid-stream error codes of the three protocols, and ours. */
const byCode: Record<string, FailureAdvice> = {
  rate_limit_exceeded: { code: 'rate_limit_mid_answer', retryable: true },
  rate_limit_error: { code: 'rate_limit_mid_answer', retryable: true },
  insufficient_quota: { code: 'insufficient_quota', retryable: false },
  server_error: { code: 'server_error', retryable: true },
  invalid_prompt: { code: 'invalid_prompt', retryable: false },
  api_error: { code: 'api_error', retryable: true },
  overloaded_error: { code: 'overloaded_error', retryable: true },
  timeout_error: { code: 'timeout_error', retryable: true },
  malformed_event: { code: 'malformed_event', retryable: true },
  too_large: {
    code: 'too_large',
    values: { answerChars: readLimits.answerChars, eventChars: readLimits.eventChars },
    retryable: false,
  },
  app_error: { code: 'app_error', retryable: false },
  interrupted: { code: 'interrupted', retryable: true },
  page_reloaded: { code: 'page_reloaded', retryable: true },
  aborted: { code: 'aborted', retryable: true },
  network_error: { code: 'network_error', retryable: true },
  blocked_by_policy: { code: 'blocked_by_policy', retryable: false },
  unexpected_response: { code: 'unexpected_response', retryable: true },
  attachment_missing: { code: 'attachment_missing', retryable: false },
};

/** Ours: a request that was not sent, because the API would refuse it; its message names what to change. */
export const notSentCode = 'not_sent';

export function adviseFailure(turn: Turn, httpError: HttpError | null): FailureAdvice | null {
  if (httpError) {
    const known = byCode[httpError.code];
    // A 429 for quota is not a rate limit: the code decides.
    if (known && !known.retryable) return known;
    const code = statusCodes[httpError.status];
    if (code) return { code, retryable: httpError.retryable };
    return {
      code: httpError.retryable ? 'http_status_retryable' : 'http_status',
      values: { status: httpError.status },
      retryable: httpError.retryable,
    };
  }
  if (turn.status === 'complete' || turn.status === 'streaming' || !turn.error) return null;
  if (turn.error.code === notSentCode)
    return {
      code: 'not_sent',
      values: { ...turn.error.values, problem: turn.error.message },
      retryable: false,
    };
  return byCode[turn.error.code] ?? { code: 'stream_error', retryable: true };
}
