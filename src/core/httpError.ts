/** A failed HTTP response before any stream, read from whatever body the server or a proxy sent. */
export interface HttpError {
  status: number;
  /** The protocol's error code or type (`rate_limit_exceeded`, `overloaded_error`, …), or `http_<status>`. */
  code: string;
  message: string;
  /** Whether sending the same request again later can succeed. */
  retryable: boolean;
  /** From `retry-after-ms` / `retry-after` (seconds or an HTTP date), when the server said. */
  retryAfterSeconds: number | null;
  requestId: string | null;
}

type HeaderSource = Headers | Record<string, string | undefined> | null | undefined;

function header(headers: HeaderSource, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? null : (record[key] ?? null);
}

/** `retry-after-ms` wins over `retry-after`, which may be seconds or an HTTP date. */
export function retryAfterSeconds(headers: HeaderSource, nowMs: number = Date.now()): number | null {
  const ms = Number.parseFloat(header(headers, 'retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = header(headers, 'retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - nowMs) / 1000);
}

const statusText: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Request too large',
  422: 'Unprocessable request',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
  529: 'Overloaded',
};

// Codes that arrive with a retryable status but cannot succeed by waiting.
const hopelessCodes = new Set(['insufficient_quota', 'billing_error', 'invalid_prompt']);

function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

interface ErrorBody {
  error?: { message?: unknown; type?: unknown; code?: unknown } | string;
  message?: unknown;
  request_id?: unknown;
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** A proxy's HTML page: its title says more than its markup. */
function describeNonJson(body: string, status: number): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  const label = `HTTP ${status}${statusText[status] ? ` ${statusText[status]}` : ''}`;
  if (/^\s*</.test(body)) {
    return `The server answered with a web page instead of an API response (${label}${title ? `: ${title}` : ''}). A proxy or load balancer in front of the gateway may have failed.`;
  }
  const excerpt = body.trim().slice(0, 200);
  return excerpt ? `${label}: ${excerpt}` : `${label}, with an empty body.`;
}

/**
 * Reads any protocol's error body (OpenAI `{error:{message,type,code}}`, Anthropic
 * `{type:"error",error:{type,message}}`) or anything else, into one shape.
 */
export function parseHttpError(
  status: number,
  headers: HeaderSource,
  body: string,
  nowMs: number = Date.now(),
): HttpError {
  let parsed: ErrorBody | null = null;
  try {
    const value: unknown = JSON.parse(body);
    if (value !== null && typeof value === 'object') parsed = value as ErrorBody;
  } catch {
    parsed = null;
  }
  const inner = typeof parsed?.error === 'object' ? parsed.error : null;
  const code = textOf(inner?.code) ?? textOf(inner?.type) ?? `http_${status}`;
  const message =
    textOf(inner?.message) ??
    textOf(parsed?.error) ??
    textOf(parsed?.message) ??
    (parsed
      ? `HTTP ${status}${statusText[status] ? ` ${statusText[status]}` : ''}`
      : describeNonJson(body, status));
  const shouldRetry = header(headers, 'x-should-retry');
  const retryable =
    !hopelessCodes.has(code) &&
    (shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : retryableStatus(status));
  return {
    status,
    code,
    message,
    retryable,
    retryAfterSeconds: retryAfterSeconds(headers, nowMs),
    requestId: header(headers, 'x-request-id') ?? header(headers, 'request-id') ?? textOf(parsed?.request_id),
  };
}
