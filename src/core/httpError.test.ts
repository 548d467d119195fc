/**
 * `parseHttpError` / `retryAfterSeconds`: errors before any stream, from the recorded bodies in
 * fixtures/http-errors and the status tables in docs/protocols.md §3.2, §4.5, §6.5.
 */
import { describe, expect, it } from 'vitest';
import { parseHttpError, retryAfterSeconds } from './httpError.ts';
import { fixtureFiles, fixtureJson } from './testing/fixtures.ts';

interface RecordedError {
  status: number;
  headers: Record<string, string> | null;
  body: unknown;
}

const recorded = (name: string): RecordedError => fixtureJson<RecordedError>(`http-errors/${name}`);

const openai = (type: string, code: string | null, message = `${type} happened`) =>
  JSON.stringify({ error: { message, type, param: null, code } });
const anthropic = (type: string, message = `${type} happened`) =>
  JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CAbc' });

describe('parseHttpError: recorded bodies', () => {
  const expected: Record<
    string,
    { code: string; retryable: boolean; messageStart: string; requestId: string | null }
  > = {
    'anthropic-400-invalid-request.json': {
      code: 'invalid_request_error',
      retryable: false,
      messageStart: 'messages.0.content.1: unexpected `tool_use_id`',
      requestId: 'req_011CYHyk9NPsBYeGbC9LuDNK',
    },
    'anthropic-429-rate-limit.json': {
      code: 'rate_limit_error',
      retryable: true,
      messageStart: "This request would exceed your organization's rate limit",
      requestId: 'req_011CYK5n67SytMUxm8WMZUWY',
    },
    'openai-400-param-code-null.json': {
      code: 'invalid_request_error',
      retryable: false,
      messageStart: "Unsupported parameter: 'temperature'",
      requestId: null,
    },
    'openai-400-unsupported-parameter.json': {
      code: 'unsupported_parameter',
      retryable: false,
      messageStart: "Unsupported parameter: 'max_tokens'",
      requestId: null,
    },
  };

  it('has an expectation for every recorded file', () => {
    expect(fixtureFiles('http-errors')).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s', (name, want) => {
    const file = recorded(name);
    const error = parseHttpError(file.status, file.headers, JSON.stringify(file.body));
    expect(error.status).toBe(file.status);
    expect(error.code).toBe(want.code);
    expect(error.retryable).toBe(want.retryable);
    expect(error.message.startsWith(want.messageStart)).toBe(true);
    expect(error.requestId).toBe(want.requestId);
    expect(error.retryAfterSeconds).toBeNull();
  });
});

describe('parseHttpError: OpenAI bodies by status', () => {
  it.each([
    [400, 'invalid_request_error', 'context_length_exceeded', 'context_length_exceeded', false],
    [400, 'invalid_request_error', null, 'invalid_request_error', false],
    [401, 'invalid_request_error', 'invalid_api_key', 'invalid_api_key', false],
    [
      403,
      'invalid_request_error',
      'unsupported_country_region_territory',
      'unsupported_country_region_territory',
      false,
    ],
    [404, 'invalid_request_error', 'model_not_found', 'model_not_found', false],
    [413, 'invalid_request_error', 'request_too_large', 'request_too_large', false],
    [422, 'invalid_request_error', null, 'invalid_request_error', false],
    [429, 'requests', 'rate_limit_exceeded', 'rate_limit_exceeded', true],
    [429, 'insufficient_quota', 'insufficient_quota', 'insufficient_quota', false],
    [500, 'server_error', null, 'server_error', true],
    [502, 'server_error', 'bad_gateway', 'bad_gateway', true],
    [503, 'server_error', 'service_unavailable', 'service_unavailable', true],
    [408, 'timeout', null, 'timeout', true],
    [409, 'conflict', null, 'conflict', true],
  ] as const)('%i %s/%s → code %s, retryable %s', (status, type, code, wantCode, retryable) => {
    const error = parseHttpError(status, null, openai(type, code, 'Something specific'));
    expect(error).toMatchObject({ status, code: wantCode, retryable, message: 'Something specific' });
  });
});

describe('parseHttpError: Anthropic bodies by status', () => {
  it.each([
    [400, 'invalid_request_error', false],
    [401, 'authentication_error', false],
    [402, 'billing_error', false],
    [403, 'permission_error', false],
    [404, 'not_found_error', false],
    [413, 'request_too_large', false],
    [429, 'rate_limit_error', true],
    [500, 'api_error', true],
    [504, 'timeout_error', true],
    [529, 'overloaded_error', true],
  ] as const)('%i %s → retryable %s', (status, type, retryable) => {
    const error = parseHttpError(status, { 'request-id': 'req_hdr' }, anthropic(type, 'Details here'));
    expect(error).toEqual({
      status,
      code: type,
      message: 'Details here',
      retryable,
      retryAfterSeconds: null,
      requestId: 'req_hdr',
    });
  });
});

describe('parseHttpError: bodies that are not an API error', () => {
  const nginx502 =
    '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
    '<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';
  const cloudflare =
    '<!DOCTYPE html>\n<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->\n<head>\n' +
    '<title>api.example.com | 524: A timeout occurred</title>\n<meta charset="UTF-8" />\n<style>body{margin:0}</style>\n' +
    '<script>window._cf_chl_opt={cType:"managed"};</script>\n</head>\n<body><div id="cf-wrapper">...</div></body>\n</html>';

  it.each([
    [502, nginx502, '502 Bad Gateway'],
    [524, cloudflare, 'api.example.com | 524: A timeout occurred'],
  ])('describes a %i HTML page by its title, with no markup', (status, body, title) => {
    const error = parseHttpError(status, { 'content-type': 'text/html' }, body);
    expect(error.code).toBe(`http_${status}`);
    expect(error.message).toContain(title);
    expect(error.message).toContain(String(status));
    expect(error.message).not.toMatch(/[<>]/);
    expect(error.message).not.toContain('_cf_chl_opt');
    expect(error.retryable).toBe(true);
  });

  it('describes an HTML page without a title, with no markup', () => {
    const error = parseHttpError(403, null, '<html><body><h1>Forbidden</h1></body></html>');
    expect(error.message).toContain('403');
    expect(error.message).not.toMatch(/[<>]/);
    expect(error.retryable).toBe(false);
  });

  it('describes an empty body by its status', () => {
    const error = parseHttpError(503, null, '');
    expect(error).toMatchObject({ status: 503, code: 'http_503', retryable: true });
    expect(error.message).toContain('503');
    expect(error.message.toLowerCase()).toContain('empty');
  });

  it('quotes a plain-text body', () => {
    const error = parseHttpError(502, null, 'upstream connect error or disconnect/reset before headers\n');
    expect(error.code).toBe('http_502');
    expect(error.message).toContain('502');
    expect(error.message).toContain('upstream connect error or disconnect/reset before headers');
  });

  it('quotes only the start of a long plain-text body', () => {
    const error = parseHttpError(500, null, `Error: ${'x'.repeat(5000)}`);
    expect(error.message.length).toBeLessThan(300);
  });

  it('reads `{"error": "text"}` and `{"message": "text"}` bodies', () => {
    expect(parseHttpError(400, null, '{"error":"Model is required"}')).toMatchObject({
      code: 'http_400',
      message: 'Model is required',
    });
    expect(parseHttpError(403, null, '{"message":"Forbidden by policy"}')).toMatchObject({
      code: 'http_403',
      message: 'Forbidden by policy',
    });
  });

  it('names the status when a JSON body says nothing', () => {
    const error = parseHttpError(500, null, '{}');
    expect(error.code).toBe('http_500');
    expect(error.message).toContain('500');
  });

  it('reads a numeric error code (OpenRouter)', () => {
    expect(
      parseHttpError(402, null, '{"error":{"code":402,"message":"Insufficient credits"}}'),
    ).toMatchObject({
      code: '402',
      message: 'Insufficient credits',
      retryable: false,
    });
  });
});

describe('parseHttpError: retry decision', () => {
  it('follows x-should-retry over the status', () => {
    expect(parseHttpError(500, { 'x-should-retry': 'false' }, anthropic('api_error')).retryable).toBe(false);
    expect(
      parseHttpError(400, { 'x-should-retry': 'true' }, anthropic('invalid_request_error')).retryable,
    ).toBe(true);
    expect(parseHttpError(409, { 'x-should-retry': 'false' }, '').retryable).toBe(false);
  });

  it('falls back to the status for other x-should-retry values', () => {
    expect(parseHttpError(500, { 'x-should-retry': 'maybe' }, '').retryable).toBe(true);
    expect(parseHttpError(400, { 'x-should-retry': 'maybe' }, '').retryable).toBe(false);
  });

  it.each([
    ['insufficient_quota', openai('insufficient_quota', 'insufficient_quota')],
    ['billing_error', anthropic('billing_error')],
    ['invalid_prompt', openai('invalid_request_error', 'invalid_prompt')],
  ])('never retries %s, whatever the status says', (_code, body) => {
    expect(parseHttpError(429, null, body).retryable).toBe(false);
    expect(parseHttpError(500, null, body).retryable).toBe(false);
  });
});

describe('parseHttpError: request id', () => {
  it('reads x-request-id (OpenAI), request-id (Anthropic), or the body', () => {
    expect(
      parseHttpError(500, { 'x-request-id': 'req_openai' }, openai('server_error', null)).requestId,
    ).toBe('req_openai');
    expect(parseHttpError(500, { 'request-id': 'req_anthropic' }, '').requestId).toBe('req_anthropic');
    expect(parseHttpError(500, null, anthropic('api_error')).requestId).toBe('req_011CAbc');
    expect(parseHttpError(500, {}, openai('server_error', null)).requestId).toBeNull();
  });

  it('prefers the header to the body and reads headers case-insensitively', () => {
    expect(parseHttpError(500, { 'Request-Id': 'req_header' }, anthropic('api_error')).requestId).toBe(
      'req_header',
    );
  });

  it('accepts a Headers object', () => {
    const headers = new Headers({ 'X-Request-ID': 'req_h', 'Retry-After': '3' });
    expect(parseHttpError(429, headers, openai('requests', 'rate_limit_exceeded'))).toMatchObject({
      requestId: 'req_h',
      retryAfterSeconds: 3,
    });
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it.each([
    ['seconds', { 'retry-after': '12' }, 12],
    ['fractional seconds', { 'retry-after': '1.5' }, 1.5],
    ['zero', { 'retry-after': '0' }, 0],
    ['retry-after-ms', { 'retry-after-ms': '1500' }, 1.5],
    ['retry-after-ms over retry-after', { 'retry-after-ms': '250', 'retry-after': '30' }, 0.25],
    ['an HTTP date 90 s ahead', { 'retry-after': 'Thu, 01 Jan 2026 12:01:30 GMT' }, 90],
    ['an HTTP date in the past (no wait)', { 'retry-after': 'Thu, 01 Jan 2026 11:00:00 GMT' }, 0],
    ['a negative number', { 'retry-after': '-5' }, null],
    ['garbage', { 'retry-after': 'soon' }, null],
    ['an empty value', { 'retry-after': '' }, null],
    ['garbage retry-after-ms, falling back to retry-after', { 'retry-after-ms': 'x', 'retry-after': '4' }, 4],
    ['no header', {}, null],
  ])('reads %s', (_label, headers, want) => {
    expect(retryAfterSeconds(headers, now)).toBe(want);
  });

  it('passes the injected clock through parseHttpError', () => {
    const error = parseHttpError(429, { 'retry-after': 'Thu, 01 Jan 2026 12:00:10 GMT' }, '', now);
    expect(error.retryAfterSeconds).toBe(10);
  });

  it('reads nothing from missing headers', () => {
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
  });
});
