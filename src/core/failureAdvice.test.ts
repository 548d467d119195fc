import { describe, expect, it } from 'vitest';
import { adviseFailure, failureCodes } from './failureAdvice.ts';
import { parseHttpError } from './httpError.ts';
import { readLimits } from './limits.ts';
import { emptyTurn, type Turn } from './turn.ts';

const failed = (code: string, message = 'm', status: Turn['status'] = 'error'): Turn => ({
  ...emptyTurn,
  status,
  error: { code, message },
});

describe('adviseFailure', () => {
  it.each([
    [401, '{"type":"error","error":{"type":"authentication_error","message":"bad key"}}', 'http_401', false],
    [429, '{"error":{"message":"slow down","type":"rate_limit_exceeded"}}', 'http_429', true],
    [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'http_529', true],
  ])('HTTP %i → %s', (status, body, code, retryable) => {
    const error = parseHttpError(status, {}, body);
    expect(adviseFailure(failed(error.code), error)).toEqual({ code, retryable });
  });

  it('lets a code that retrying cannot help decide over its status (a 429 for quota)', () => {
    const error = parseHttpError(
      429,
      {},
      '{"error":{"message":"quota","type":"insufficient_quota","code":"insufficient_quota"}}',
    );
    expect(adviseFailure(failed(error.code), error)).toEqual({
      code: 'insufficient_quota',
      retryable: false,
    });
  });

  it('names another status as a value', () => {
    const teapot = parseHttpError(418, {}, 'no');
    expect(adviseFailure(failed(teapot.code), teapot)).toEqual({
      code: 'http_status',
      values: { status: 418 },
      retryable: false,
    });
    const busy = parseHttpError(507, {}, 'no');
    expect(adviseFailure(failed(busy.code), busy)).toMatchObject({
      code: 'http_status_retryable',
      values: { status: 507 },
    });
  });

  it.each([
    ['rate_limit_exceeded', 'rate_limit_mid_answer', true],
    ['rate_limit_error', 'rate_limit_mid_answer', true],
    ['invalid_prompt', 'invalid_prompt', false],
    ['api_error', 'api_error', true],
    ['malformed_event', 'malformed_event', true],
    ['app_error', 'app_error', false],
    ['interrupted', 'interrupted', true],
    ['aborted', 'aborted', true],
    ['something_new', 'stream_error', true],
  ])('a turn ended by %s → %s', (error, code, retryable) => {
    expect(adviseFailure(failed(error), null)).toEqual({ code, retryable });
  });

  it('gives the caps to the words of too_large', () => {
    expect(adviseFailure(failed('too_large'), null)).toEqual({
      code: 'too_large',
      values: { answerChars: readLimits.answerChars, eventChars: readLimits.eventChars },
      retryable: false,
    });
  });

  it('passes on what to change for a request not sent: its problem code with the figures it names', () => {
    const turn: Turn = {
      ...emptyTurn,
      status: 'error',
      error: { code: 'not_sent', message: 'temperature_while_thinking', values: { temperature: 0.7 } },
    };
    expect(adviseFailure(turn, null)).toEqual({
      code: 'not_sent',
      values: { problem: 'temperature_while_thinking', temperature: 0.7 },
      retryable: false,
    });
  });

  it('passes on the sentence of a request not sent stored before problem codes', () => {
    expect(adviseFailure(failed('not_sent', 'Lower the budget.'), null)).toEqual({
      code: 'not_sent',
      values: { problem: 'Lower the budget.' },
      retryable: false,
    });
  });

  it('has nothing to say about an answer that did not fail', () => {
    expect(adviseFailure({ ...emptyTurn, status: 'complete' }, null)).toBeNull();
    expect(adviseFailure(emptyTurn, null)).toBeNull();
  });

  it('lists each code once', () => {
    expect(new Set(failureCodes).size).toBe(failureCodes.length);
  });
});
