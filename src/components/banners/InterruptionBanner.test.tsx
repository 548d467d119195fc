import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  emptyTurn,
  type HttpError,
  type Protocol,
  parseHttpError,
  readTurn,
  type Turn,
} from '../../core/index.ts';
import { fixtureBytes, fixtureText, streamFromBytes } from '../../core/testing/fixtures.ts';
import { InterruptionBanner } from './InterruptionBanner.tsx';

const encode = (text: string) => new TextEncoder().encode(text);

async function turnOf(protocol: Protocol, bytes: Uint8Array, signal?: AbortSignal): Promise<Turn> {
  return readTurn(protocol, streamFromBytes(bytes), { signal });
}

/** A stream cut before its end: the text-padded Anthropic answer without message_stop. */
function cutStream(): Uint8Array {
  const text = new TextDecoder().decode(fixtureBytes('anthropic/text-padded.sse'));
  return encode(text.slice(0, text.indexOf('event: content_block_stop')));
}

function renderBanner(turn: Turn, httpError: HttpError | null = null, failedAt = Date.now()) {
  const onRetry = vi.fn();
  render(<InterruptionBanner turn={turn} httpError={httpError} failedAt={failedAt} onRetry={onRetry} />);
  return { onRetry, banner: screen.getByRole('alert') };
}

function details(banner: HTMLElement): HTMLElement {
  const summary = within(banner).getByText('Details');
  expect(summary.tagName).toBe('SUMMARY');
  return summary.parentElement!;
}

afterEach(() => vi.useRealTimers());

interface MidStreamCase {
  code: string;
  make(): Promise<Turn>;
  title: string;
  advice: string;
  message: string | RegExp;
  partial: boolean;
}

const midStream: MidStreamCase[] = [
  {
    code: 'rate_limit_exceeded',
    make: () => turnOf('responses', fixtureBytes('synthetic/responses/hopbase-failed-rate-limit.sse')),
    title: 'Rate limit reached mid-answer.',
    advice: 'The answer was cut off by a rate limit. Wait a moment, then retry the whole request.',
    message: 'Rate limit reached, please retry after a short wait',
    partial: true,
  },
  {
    code: 'server_error',
    make: () => turnOf('chat', fixtureBytes('synthetic/chat/hopbase-keepalive-text-then-error.sse')),
    title: 'The model failed mid-answer.',
    advice: 'Partial output cannot be resumed: retry sends the whole request again.',
    message: 'Response stream interrupted, please retry',
    partial: true,
  },
  {
    code: 'invalid_prompt',
    make: () => turnOf('responses', fixtureBytes('synthetic/responses/hopbase-failed-invalid-prompt.sse')),
    title: 'The prompt was rejected.',
    advice: 'Change the message before sending again; retrying unchanged will fail again.',
    message: /^Invalid prompt: your prompt was flagged/,
    partial: false,
  },
  {
    code: 'api_error',
    make: () => turnOf('messages', fixtureBytes('synthetic/anthropic/hopbase-stream-interrupted.sse')),
    title: 'The stream was interrupted.',
    advice: 'The gateway lost the model mid-answer.',
    message: 'Response stream interrupted, please retry',
    partial: true,
  },
  {
    code: 'overloaded_error',
    make: () => turnOf('messages', fixtureBytes('synthetic/anthropic/overloaded-midstream.sse')),
    title: 'The model is overloaded.',
    advice: 'The model stopped mid-answer because it is overloaded. Retry in a moment.',
    message: 'Overloaded',
    partial: true,
  },
  {
    code: 'malformed_event',
    make: () =>
      turnOf(
        'chat',
        encode('data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {not json\n\n'),
      ),
    title: 'The stream was corrupted.',
    advice: 'The server sent an event that could not be read',
    message: 'The server sent an event that is not valid JSON: {not json',
    partial: true,
  },
  {
    // A known event with a field missing is the gateway's fault, never the connection's.
    code: 'malformed_event',
    make: () =>
      turnOf(
        'responses',
        encode(
          'data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hi"}\n\n' +
            'data: {"type":"response.output_item.added"}\n\n',
        ),
      ),
    title: 'The stream was corrupted.',
    advice: 'the connection itself was fine',
    message: /^The server sent a response\.output_item\.added event that cannot be read: `item` is missing/,
    partial: true,
  },
  {
    code: 'too_large',
    make: async () => {
      const chunk = encode(`data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(1000)}"}}]}\n\n`);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(sent++ < 200 ? chunk : encode('data: [DONE]\n\n')),
      });
      return readTurn('chat', body, { limits: { answerChars: 20_000 } });
    },
    title: 'The answer is too large to keep.',
    advice: 'Everything up to that point is kept.',
    message: /^The answer passed 20,000 characters/,
    partial: true,
  },
  {
    code: 'app_error',
    make: () =>
      readTurn('chat', streamFromBytes(fixtureBytes('chat/openai-text-obfuscation-usage.sse')), {
        onUpdate: () => {
          throw new Error('render failed');
        },
      }),
    title: 'HopBase Chat failed while handling this answer.',
    advice: 'This is a bug in the app, not a problem with the network or the gateway.',
    message: 'HopBase Chat failed while handling this answer (onUpdate threw: render failed).',
    partial: true,
  },
  {
    code: 'interrupted',
    make: () => turnOf('messages', cutStream()),
    title: 'The connection closed early.',
    advice: 'The stream ended without its final event',
    message: 'The connection closed before the answer was finished.',
    partial: true,
  },
  {
    code: 'aborted',
    make: () => turnOf('chat', fixtureBytes('chat/openai-text-obfuscation-usage.sse'), AbortSignal.abort()),
    title: 'Stopped.',
    advice: 'You stopped this answer. Retry sends the same request again.',
    message: 'Stopped before the answer was finished.',
    partial: false,
  },
];

describe('InterruptionBanner, mid-stream errors', () => {
  it.each(midStream.map((c) => [c.code, c] as const))('%s', async (code, c) => {
    const turn = await c.make();
    expect(turn.error?.code).toBe(code);
    const user = userEvent.setup();
    const { banner, onRetry } = renderBanner(turn);
    expect(banner).toHaveAttribute('data-testid', 'interruption-banner');
    expect(banner.querySelector('strong')).toHaveTextContent(c.title);
    expect(banner).toHaveTextContent(c.advice);
    if (c.partial)
      expect(banner).toHaveTextContent('The partial answer above is kept, and what was produced is billed.');
    else expect(banner).not.toHaveTextContent('partial answer');

    const box = details(banner);
    expect(box).not.toHaveAttribute('open');
    await user.click(within(box).getByText('Details'));
    expect(box).toHaveAttribute('open');
    expect(within(box).getByText(code).tagName).toBe('CODE');
    const message = box.textContent!.replace(/^Details/, '').replace(`${code}: `, '');
    if (typeof c.message === 'string') expect(message).toBe(c.message);
    else expect(message).toMatch(c.message);

    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('adds how long the model had been silent, when it was told', async () => {
    const turn = await turnOf('chat', fixtureBytes('synthetic/chat/hopbase-keepalive-text-then-error.sse'));
    render(
      <InterruptionBanner
        turn={turn}
        httpError={null}
        failedAt={0}
        onRetry={() => {}}
        silentBeforeMs={8_200}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The model failed mid-answer. A server error broke the stream. Partial output cannot be resumed: retry sends the whole request again. The model had produced nothing for 8 s before this.',
    );
  });

  it('renders nothing for a complete turn', async () => {
    const turn = await turnOf('chat', fixtureBytes('chat/openai-text-obfuscation-usage.sse'));
    const { container } = render(
      <InterruptionBanner turn={turn} httpError={null} failedAt={0} onRetry={() => {}} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

const failedTurn = (e: HttpError): Turn => ({
  ...emptyTurn,
  status: 'error',
  error: { code: e.code, message: e.message },
});

const anthropic429 = JSON.parse(fixtureText('http-errors/anthropic-429-rate-limit.json')) as {
  status: number;
  headers: Record<string, string>;
  body: unknown;
};

interface HttpCase {
  name: string;
  error: HttpError;
  title: string;
  advice: string;
  code: string;
}

const httpCases: HttpCase[] = [
  {
    name: '401',
    error: parseHttpError(
      401,
      { 'request-id': 'req_1' },
      '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    ),
    title: 'The API key was not accepted.',
    advice: 'Open Settings and check the API key.',
    code: 'HTTP 401 · authentication_error',
  },
  {
    name: '413',
    error: parseHttpError(413, {}, '{"error":{"message":"Request too large","type":"request_too_large"}}'),
    title: 'The request is too large.',
    advice: 'Shorten the prompt or start a new conversation with less history.',
    code: 'HTTP 413 · request_too_large',
  },
  {
    name: '429 (recorded Anthropic body)',
    error: parseHttpError(anthropic429.status, anthropic429.headers, JSON.stringify(anthropic429.body)),
    title: 'Rate limit reached.',
    advice: 'Too many requests for now. Wait a moment, then retry.',
    code: 'HTTP 429 · rate_limit_error',
  },
  {
    name: '429 for quota',
    error: parseHttpError(
      429,
      {},
      '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}',
    ),
    title: 'Quota exhausted.',
    advice: 'Retrying will not help until the plan or billing is fixed.',
    code: 'HTTP 429 · insufficient_quota',
  },
  {
    name: '500',
    error: parseHttpError(500, {}, '{"error":{"message":"The server had an error","type":"server_error"}}'),
    title: 'The gateway had an internal error.',
    advice: 'This is usually temporary. Retry in a moment.',
    code: 'HTTP 500 · server_error',
  },
  {
    name: '529',
    error: parseHttpError(
      529,
      {},
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ),
    title: 'The model is overloaded.',
    advice: 'Anthropic is under heavy load. Retry in a moment.',
    code: 'HTTP 529 · overloaded_error',
  },
];

describe('InterruptionBanner, HTTP errors', () => {
  it.each(httpCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const { banner } = renderBanner(failedTurn(c.error), c.error);
    expect(banner.querySelector('strong')).toHaveTextContent(c.title);
    expect(banner).toHaveTextContent(c.advice);
    expect(banner).not.toHaveTextContent('partial answer');
    const box = details(banner);
    expect(within(box).getByText(c.code).tagName).toBe('CODE');
    expect(box).toHaveTextContent(`${c.code}: ${c.error.message}`);
    expect(within(banner).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('shows the request id when the gateway sent one', () => {
    const { banner } = renderBanner(failedTurn(httpCases[0]!.error), httpCases[0]!.error);
    expect(details(banner)).toHaveTextContent('Request id: req_1');
  });

  it('describes an HTML error page without its markup', () => {
    const html =
      '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>';
    const error = parseHttpError(502, { 'content-type': 'text/html' }, html);
    const { banner } = renderBanner(failedTurn(error), error);
    expect(banner.querySelector('strong')).toHaveTextContent('Bad gateway.');
    expect(banner).toHaveTextContent('A proxy in front of the model failed. Retry in a moment.');
    const box = details(banner);
    expect(box).toHaveTextContent('HTTP 502 · http_502');
    expect(box).toHaveTextContent('The server answered with a web page instead of an API response');
    expect(box).toHaveTextContent('502 Bad Gateway');
    expect(banner.textContent).not.toMatch(/[<>]|DOCTYPE|nginx/);
    expect(banner.querySelector('h1, title, p')).toBeNull();
  });

  it('counts down a 429’s Retry-After live, then offers Retry', () => {
    vi.useFakeTimers({
      now: 1_000_000,
      toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    const error = parseHttpError(
      429,
      { 'retry-after': '3' },
      '{"error":{"message":"slow down","code":"rate_limit_exceeded"}}',
    );
    expect(error.retryAfterSeconds).toBe(3);
    const { banner, onRetry } = renderBanner(failedTurn(error), error, Date.now());
    const timer = within(banner).getByRole('timer');
    expect(timer).toHaveTextContent('You can retry in 3 s');
    // A timer is not a live region: the seconds are not read out one by one.
    expect(timer).not.toHaveAttribute('aria-live');
    expect(within(banner).queryByRole('button', { name: 'Retry' })).toBeNull();

    act(() => vi.advanceTimersByTime(1_000));
    expect(timer).toHaveTextContent('You can retry in 2 s');
    act(() => vi.advanceTimersByTime(1_000));
    expect(timer).toHaveTextContent('You can retry in 1 s');
    act(() => vi.advanceTimersByTime(1_000));
    expect(within(banner).queryByRole('timer')).toBeNull();
    within(banner).getByRole('button', { name: 'Retry' }).click();
    expect(onRetry).toHaveBeenCalledTimes(1);
    // The clock stops once the wait is over.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('offers Retry at once when the Retry-After wait is already over', () => {
    const error = parseHttpError(429, { 'retry-after': '3' }, '{}');
    const { banner } = renderBanner(failedTurn(error), error, Date.now() - 5_000);
    expect(within(banner).queryByRole('timer')).toBeNull();
    expect(within(banner).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
