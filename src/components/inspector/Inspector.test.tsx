import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Protocol, readTurn, type Turn } from '../../core/index.ts';
import { fixtureBytes, fixtureText, streamFromBytes, streamFromChunks } from '../../core/testing/fixtures.ts';
import { type AttemptOutcome, runAttempt } from '../../session/runAttempt.ts';
import { withFiguresKept } from '../../state/domain/recordings.ts';
import type { AssistantMessage, AttemptTrace, SentRequest } from '../../state/domain/types.ts';
import type { JsonTrace } from '../../state/formats/traceExport.ts';
import { answerMessage } from '../../testing/builders.ts';
import { captureDownloads } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { Inspector } from './Inspector.tsx';

let app: TestApp;

const key = 'sk-test-SECRET-123';
/** Polls often, and waits long enough for a loaded machine. */
const waitOptions = { timeout: 5_000, interval: 5 };
const encoder = new TextEncoder();

/** Blobs handed to `URL.createObjectURL` and the names the download links were clicked with. */
let blobs: Blob[];
let downloads: string[];

beforeEach(() => {
  app = createTestApp();
  ({ blobs, names: downloads } = captureDownloads());
  // jsdom has no layout: give the events scroller the size its stylesheet gives it (420 px high), so
  // the virtualized list renders rows (on mount, the measured 0 × 0 client size replaces initialRect).
  const scrollerSize = (size: number) =>
    function (this: Element) {
      return this.classList.contains('events-scroller') ? size : 0;
    };
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(scrollerSize(420));
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(scrollerSize(400));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** An assistant message in a fresh conversation, holding `outcome` as its only attempt. */
function storeAttempt(protocol: Protocol, request: SentRequest, outcome: AttemptOutcome) {
  const store = app.stores.conversations.getState();
  const conversationId = store.newConversation();
  store.addUserMessage(conversationId, 'What is the weather in Mexico City?');
  const messageId = store.addAssistantMessage(conversationId, protocol, 'gpt-4o');
  store.addAttempt(conversationId, messageId, {
    id: 'att_1',
    startedAt: Date.UTC(2025, 9, 2, 20, 26, 44),
    request,
    sentHeaders: { ...request.headers, authorization: '[redacted]' },
    turn: outcome.turn,
    httpError: outcome.httpError,
    trace: outcome.trace,
  });
  return { conversationId, messageId };
}

function eventRows() {
  return within(screen.getByRole('region', { name: 'Events' })).queryAllByRole('listitem');
}

describe('Inspector figures of a recorded turn (fake clock)', () => {
  /** The fixture's events (its own keepalives left out: the test places keepalives itself). */
  const blocks = fixtureText('synthetic/chat/hopbase-keepalive-parallel-tools.sse')
    .split('\n\n')
    .filter((block) => block !== '' && !block.startsWith(':'))
    .map((block) => `${block}\n\n`);
  const keepalive = ': hopbase-keepalive\n\n';
  // Role chunk and first tool call at 100 ms, keepalives at 10 100 and 20 100 ms, the tool calls at
  // 25 100 ms, the finish, usage and [DONE] at 25 200 ms.
  const schedule: [number, string][] = [
    [100, blocks.slice(0, 2).join('')],
    [10_100, keepalive],
    [20_100, keepalive],
    [25_100, blocks.slice(2, -3).join('')],
    [25_200, blocks.slice(-3).join('')],
  ];
  const sentBytes = schedule.reduce((sum, [, text]) => sum + encoder.encode(text).length, 0);
  const request: SentRequest = {
    url: '/v1/chat/completions',
    path: '/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: { model: 'gpt-4o', stream: true, messages: [] },
  };

  async function record(): Promise<AttemptOutcome> {
    let clock = 0;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    // No buffering (high-water mark 0): `pull` runs only while the reader waits for the next chunk, so
    // the clock moves on only once the previous chunk (or the response headers) has been taken in.
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c;
        },
        pull() {
          pulls++;
        },
      },
      { highWaterMark: 0 },
    );
    const progress: { turn: Turn; trace: AttemptTrace }[] = [];
    const fetchImpl = vi.fn<typeof fetch>(async () => {
      clock = 40;
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const running = runAttempt({
      protocol: 'chat',
      open: (signal) =>
        fetchImpl(request.url, { method: 'POST', headers: { authorization: `Bearer ${key}` }, signal }),
      crossOrigin: false,
      signal: new AbortController().signal,
      onProgress: ({ turn, recorder }) => progress.push({ turn, trace: recorder.snapshot() }),
      now: () => clock,
    });
    let sent = 0;
    for (const [i, [at, text]] of schedule.entries()) {
      await vi.waitFor(() => expect(pulls).toBe(i + 1), waitOptions);
      clock = at;
      const bytes = encoder.encode(text);
      sent += bytes.length;
      controller.enqueue(bytes);
      // Wait until the reader has taken this chunk in before the clock moves on.
      await vi.waitFor(() => expect(progress.at(-1)?.trace.bytes).toBe(sent), waitOptions);
    }
    // The terminal event ends the read (and cancels the body) before the server closes it.
    if (progress.at(-1)?.turn.status === 'streaming') controller.close();
    const outcome = await running;
    expect(fetchImpl.mock.calls[0]![1]!.headers).toMatchObject({ authorization: `Bearer ${key}` });
    return outcome;
  }

  it('records the offsets of the fake clock', async () => {
    const { turn, trace } = await record();
    expect(turn.status).toBe('complete');
    expect(turn.toolCalls.map((c) => c.name)).toEqual(['get_weather', 'get_product_name']);
    expect(trace).toMatchObject({ headersAt: 40, firstOutputAt: 100, endedAt: 25_200, bytes: sentBytes });
    expect(trace.items.filter((i) => i.kind === 'comment').map((i) => i.t)).toEqual([10_100, 20_100]);
    expect(trace.raw).toBe(schedule.map(([, text]) => text).join(''));
  });

  it('shows TTFT, longest silence (keepalives do not break it), keepalives and bytes', async () => {
    const outcome = await record();
    const target = storeAttempt('chat', request, outcome);
    app.render(<Inspector target={target} onClose={vi.fn()} />);

    const figure = (name: string) => screen.getByTestId(`figure-${name}`);
    expect(figure('time-to-headers')).toHaveTextContent(/^40 ms$/);
    expect(figure('time-to-first-token')).toHaveTextContent(/^100 ms$/);
    expect(figure('total-duration')).toHaveTextContent(/^25\.2 s$/);
    expect(figure('longest-silence')).toHaveTextContent(/^25\.0 s at \+100 ms$/);
    expect(figure('keepalives')).toHaveTextContent(/^2$/);
    expect(figure('events')).toHaveTextContent(new RegExp(`^${blocks.length}$`));
    expect(figure('bytes-received').textContent).toBe(sentBytes.toLocaleString('en-US'));
    // 44 completion tokens reported, over 25 100 ms of generation.
    expect(figure('output-rate')).toHaveTextContent(/^1\.8 tok\/s$/);
  });

  it('lists keepalive rows among the events, and search filters the rows', async () => {
    const outcome = await record();
    const target = storeAttempt('chat', request, outcome);
    app.render(<Inspector target={target} onClose={vi.fn()} />);
    const user = userEvent.setup();
    const events = screen.getByRole('region', { name: 'Events' });
    const total = blocks.length + 2;

    expect(within(events).getByText(`${total} of ${total} items`)).toBeInTheDocument();
    // Virtualized with an initial rect: the first rows render even without layout.
    expect(eventRows()).toHaveLength(total);
    const keepaliveRows = within(events).getAllByText(': hopbase-keepalive');
    expect(keepaliveRows).toHaveLength(2);
    expect(keepaliveRows[0]!.closest('li')).toHaveTextContent('+10100 ms');
    expect(keepaliveRows[1]!.closest('li')).toHaveTextContent('+20100 ms');

    const search = within(events).getByRole('searchbox', { name: 'Search events' });
    await user.click(search);
    await user.paste('get_product_name');
    expect(within(events).getByText(`1 of ${total} items`)).toBeInTheDocument();
    expect(eventRows()).toHaveLength(1);
    expect(eventRows()[0]).toHaveTextContent('+25100 ms');
    // The preview is cut at 120 characters; expanding the row shows the whole event, pretty-printed.
    expect(eventRows()[0]).not.toHaveTextContent('get_product_name');
    const row = within(eventRows()[0]!).getByRole('button', { expanded: false });
    await user.click(row);
    expect(row).toHaveAttribute('aria-expanded', 'true');
    expect(eventRows()[0]!.querySelector('pre')).toHaveTextContent('"name": "get_product_name"');

    await user.clear(search);
    await user.click(search);
    await user.paste('KEEPALIVE');
    expect(eventRows()).toHaveLength(2);
    for (const row of eventRows()) expect(row).toHaveTextContent(': hopbase-keepalive');

    await user.clear(search);
    await user.click(search);
    await user.paste('no such thing');
    expect(eventRows()).toHaveLength(0);
    expect(within(events).getByText(`0 of ${total} items`)).toBeInTheDocument();

    await user.clear(search);
    expect(eventRows()).toHaveLength(total);
  }, 15_000);
});

describe('Inspector request and exports never show the API key', () => {
  function served(text: string): typeof fetch {
    return vi.fn<typeof fetch>(
      async () =>
        new Response(streamFromBytes(encoder.encode(text)), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
  }

  function lastAssistant(): { conversationId: string; message: AssistantMessage } {
    const { activeId, conversations } = app.stores.conversations.getState();
    const message = conversations[activeId!]!.messages.findLast(
      (m): m is AssistantMessage => m.role === 'assistant',
    )!;
    return { conversationId: activeId!, message };
  }

  function renderInspector() {
    const { conversationId, message } = lastAssistant();
    app.render(<Inspector target={{ conversationId, messageId: message.id }} onClose={vi.fn()} />);
    return message;
  }

  function requestHeadersText(): string {
    const request = screen.getByText(/^Request: POST/).closest('details')!;
    const [headers] = request.querySelectorAll('pre');
    return headers!.textContent ?? '';
  }

  it.each([
    ['chat', '', 'authorization: [redacted]'],
    ['messages', '', 'x-api-key: [redacted]'],
    ['messages', 'https://gw.example/v1', 'x-api-key: [redacted]'],
  ] as const)('%s (base URL %j): credential headers show as %s', async (protocol, baseUrl, line) => {
    app.stores.settings.getState().update({ apiKey: key, baseUrl });
    const fixture =
      protocol === 'chat' ? 'chat/openai-text-obfuscation-usage.sse' : 'anthropic/text-padded.sse';
    app.setFetch(served(fixtureText(fixture)));
    await app.session.send('Hello', protocol);
    renderInspector();
    const headers = requestHeadersText();
    expect(headers).toContain(line);
    expect(headers).toContain('content-type: application/json');
    expect(headers).not.toContain(key);
    if (baseUrl) expect(headers).toContain('anthropic-dangerous-direct-browser-access: true');
    expect(screen.getByRole('complementary', { name: 'Inspector' })).not.toHaveTextContent(`Bearer ${key}`);
  });

  it('scrubs the key from the .sse and JSON exports; the .sse is otherwise the raw stream', async () => {
    app.stores.settings.getState().update({ apiKey: key });
    const fixture = fixtureText('chat/openai-text-obfuscation-usage.sse');
    // The model echoes the key back, and the person's message holds it too.
    const echoed = fixture.replace('"content":" capital"', `"content":" ${key}"`);
    expect(echoed).toContain(key);
    app.setFetch(served(echoed));
    await app.session.send(`Please repeat ${key}`, 'chat');
    const message = renderInspector();
    const attempt = message.attempts[0]!;
    expect(attempt.trace.raw).toBe(echoed);
    expect(attempt.turn.text).toContain(key);
    expect(JSON.stringify(attempt.request.body)).toContain(key);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('button', { name: 'JSON trace' }));
    expect(blobs).toHaveLength(2);
    expect(downloads).toEqual([
      expect.stringMatching(/^hopbase-chat-sim-echo-.*\.sse$/),
      expect.stringMatching(/^hopbase-chat-sim-echo-.*\.json$/),
    ]);
    const [sseBlob, jsonBlob] = blobs as [Blob, Blob];
    expect(sseBlob.type).toBe('text/event-stream');
    expect(jsonBlob.type).toBe('application/json');

    const sse = await sseBlob.text();
    expect(sse).not.toContain(key);
    expect(sse).toContain('[redacted]');
    expect(sse).toBe(echoed.replaceAll(key, '[redacted]'));

    const json = await jsonBlob.text();
    expect(json).not.toContain(key);
    const trace = JSON.parse(json) as {
      request: { headers: Record<string, string>; body: unknown };
      events: { data: string }[];
      result: { text: string };
    };
    expect(trace.request.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(trace.request.body)).toContain('Please repeat [redacted]');
    expect(trace.events.some((e) => e.data.includes('[redacted]'))).toBe(true);
    expect(trace.result.text).toContain('[redacted]');
  });

  it('exports a stream without the key byte for byte', async () => {
    app.stores.settings.getState().update({ apiKey: key });
    const bytes = new Uint8Array(fixtureBytes('synthetic/chat/hopbase-keepalive-parallel-tools.sse'));
    app.setFetch(served(new TextDecoder().decode(bytes)));
    await app.session.send('Weather?', 'chat');
    renderInspector();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export' }));
    expect(blobs).toHaveLength(1);
    expect(new Uint8Array(await blobs[0]!.arrayBuffer())).toEqual(bytes);
    expect(screen.getByTestId('figure-keepalives')).toHaveTextContent(/^4$/);
    expect(screen.getByTestId('figure-bytes-received').textContent).toBe(
      bytes.length.toLocaleString('en-US'),
    );
  });
});

describe('Inspector exports while an answer streams', () => {
  it('writes everything received at the press, says partial in the file name and the inspector', async () => {
    // No animation frames: the store learns of new bytes only when something asks for them.
    vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation(() => 0);
    const wire = fixtureText('anthropic/text-padded.sse');
    const cut = wire.indexOf('event: message_delta');
    const [head, tail] = [wire.slice(0, cut), wire.slice(cut)];
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    app.setFetch(async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    const sending = app.session.send('Hello', 'messages');
    const { activeId, conversations } = app.stores.conversations.getState();
    const message = conversations[activeId!]!.messages[1] as AssistantMessage;
    app.render(<Inspector target={{ conversationId: activeId!, messageId: message.id }} onClose={vi.fn()} />);
    expect(screen.getByRole('note')).toHaveTextContent('Partial: still streaming.');

    controller.enqueue(encoder.encode(head));
    // Let the reader take the chunk in (a task, far shorter than any frame).
    await new Promise((resolve) => setTimeout(resolve, 0));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('button', { name: 'JSON trace' }));
    expect(downloads).toEqual([
      expect.stringMatching(/^hopbase-messages-sim-echo-.*-partial\.sse$/),
      expect.stringMatching(/^hopbase-messages-sim-echo-.*-partial\.json$/),
    ]);
    expect(await blobs[0]!.text()).toBe(head);
    const trace = JSON.parse(await blobs[1]!.text()) as JsonTrace;
    expect(trace.partial).toBe(true);
    expect(trace.bytes).toBe(encoder.encode(head).length);
    expect(trace.result.status).toBe('streaming');
    expect(trace.result.text).toBe((await readTurn('messages', streamFromBytes(encoder.encode(wire)))).text);
    // The figures count what the export holds.
    expect(screen.getByTestId('figure-bytes-received').textContent).toBe(
      encoder.encode(head).length.toLocaleString('en-US'),
    );

    controller.enqueue(encoder.encode(tail));
    await sending;
    expect(screen.queryByRole('note')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(downloads[2]).toMatch(/^hopbase-messages-sim-echo-[\dT-]+\.sse$/);
    expect(await blobs[2]!.text()).toBe(wire);
  });

  it('says when a recording reached its caps', async () => {
    // Quotes, escaped on the wire: 1.2 MB events of 0.6 M characters of answer each (well below its cap).
    const quotes = '"'.repeat(600_000);
    const events = Array.from(
      { length: 4 },
      () => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: quotes } }] })}\n\n`,
    );
    app.setFetch(
      async () =>
        new Response(streamFromChunks([...events, 'data: [DONE]\n\n'].map((e) => encoder.encode(e))), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    await app.session.send('Long', 'chat');
    const { activeId, conversations } = app.stores.conversations.getState();
    const message = conversations[activeId!]!.messages[1] as AssistantMessage;
    expect(message.attempts[0]!.turn.status).toBe('complete');
    app.render(<Inspector target={{ conversationId: activeId!, messageId: message.id }} onClose={vi.fn()} />);
    expect(screen.getByRole('note')).toHaveTextContent(
      'Recording capped at 20,000 events, 4 MB of event data and 4 MB of raw stream',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export' }));
    expect(downloads[0]).toMatch(/-capped\.sse$/);
    expect(await blobs[0]!.text()).toBe(events.slice(0, 3).join(''));
  });
});

describe('Inspector on a recording kept in the database (after a reload, or from another tab)', () => {
  const wire = fixtureText('synthetic/chat/hopbase-keepalive-parallel-tools.sse');

  /** A finished answer whose recording is in the database only, as a reload leaves it. */
  async function reloadedAnswer() {
    app.setFetch(
      async () =>
        new Response(streamFromBytes(encoder.encode(wire)), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    await app.session.send('Weather?', 'chat');
    const { activeId, conversations } = app.stores.conversations.getState();
    const message = conversations[activeId!]!.messages[1] as AssistantMessage;
    const attempt = message.attempts[0]!;
    const setTrace = (trace: AttemptTrace) =>
      app.stores.conversations
        .getState()
        .updateAttempt(activeId!, message.id, attempt.id, (a) => ({ ...a, trace }));
    setTrace(withFiguresKept(attempt));
    app.render(<Inspector target={{ conversationId: activeId!, messageId: message.id }} onClose={vi.fn()} />);
    return { attemptId: attempt.id, recording: attempt.trace, setTrace };
  }

  it('asks for it and says so, exports waiting; then shows it, and exports it byte for byte', async () => {
    const { attemptId, recording, setTrace } = await reloadedAnswer();
    expect(screen.getByRole('status')).toHaveTextContent('Loading recording…');
    expect(app.stores.recordings.getState().loads).toEqual({ [attemptId]: 'loading' });
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'JSON trace' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Events' })).toBeNull();

    // What persistence does once it has read the record.
    setTrace(recording);
    app.stores.recordings.setState({ loads: {} });
    expect(await screen.findByRole('region', { name: 'Events' })).toBeInTheDocument();
    expect(screen.queryByText('Loading recording…')).toBeNull();
    expect(screen.getByTestId('figure-keepalives')).toHaveTextContent(/^4$/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export' }));
    expect(await blobs[0]!.text()).toBe(wire);
  });

  it('says when it is not stored, and offers to try again when it could not be read', async () => {
    const { attemptId } = await reloadedAnswer();
    app.stores.recordings.setState({ loads: { [attemptId]: 'missing' } });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'This recording is not stored in this browser',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();

    app.stores.recordings.setState({ loads: { [attemptId]: 'failed' } });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'This recording could not be read from this browser’s storage.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(app.stores.recordings.getState().loads).toEqual({ [attemptId]: 'loading' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading recording…');
  });
});

describe('a request whose body is not stored', () => {
  /** An answer whose request body this browser lacks (`bodyMissing`), the inspector open on its request. */
  async function answerWithoutBody(bodyMissing: 'missing' | 'unreadable') {
    const store = app.stores.conversations.getState();
    const conversationId = store.newConversation();
    store.addUserMessage(conversationId, 'Weather?');
    const messageId = store.addAssistantMessage(conversationId, 'chat', 'sim-echo');
    const [attempt] = answerMessage(messageId, { status: 'complete', text: 'Sunny' }).attempts;
    store.addAttempt(conversationId, messageId, {
      ...attempt!,
      request: { ...attempt!.request, body: {}, bodyMissing },
    });
    app.render(<Inspector target={{ conversationId, messageId }} onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByText(/^Request: POST/));
    /** What persistence does once it has read it (from the team server): the body in its attempt. */
    const bodyRead = (body: Record<string, unknown>) => {
      app.stores.conversations.getState().updateAttempt(conversationId, messageId, attempt!.id, (a) => ({
        ...a,
        request: { ...a.request, body, bodyMissing: undefined },
      }));
      app.stores.bodies.getState().settle([attempt!.id], new Map());
    };
    return { attemptId: attempt!.id, user, bodyRead };
  }

  it('damaged here: says so instead of showing an empty body, and asks for nothing', async () => {
    await answerWithoutBody('unreadable');
    expect(screen.getByRole('note')).toHaveTextContent('The stored body of this request is damaged');
    expect(screen.queryByText('{}')).toBeNull();
    expect(app.stores.bodies.getState().loads).toEqual({});
  });

  it('not here: asks for it and says so while it is read, then shows it', async () => {
    const { attemptId, bodyRead } = await answerWithoutBody('missing');
    expect(app.stores.bodies.getState().loads).toEqual({ [attemptId]: 'loading' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the body of this request…');
    expect(screen.queryByRole('note')).toBeNull();

    bodyRead({ model: 'sim-echo', messages: [{ role: 'user', content: 'Weather?' }] });
    expect(await screen.findByText(/"content": "Weather\?"/)).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('nowhere (the server has none either): the note that it is no longer stored stays', async () => {
    const { attemptId } = await answerWithoutBody('missing');
    app.stores.bodies.getState().settle([attemptId], new Map([[attemptId, 'missing']]));
    expect(await screen.findByRole('note')).toHaveTextContent('The body of this request is no longer stored');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText('{}')).toBeNull();
  });

  it('damaged in this browser’s storage when it was read: says so', async () => {
    const { attemptId } = await answerWithoutBody('missing');
    app.stores.bodies.getState().settle([attemptId], new Map([[attemptId, 'unreadable']]));
    expect(await screen.findByRole('note')).toHaveTextContent('The stored body of this request is damaged');
  });

  it('could not be read: says so, and asks again on Try again', async () => {
    const { attemptId, user } = await answerWithoutBody('missing');
    app.stores.bodies.getState().settle([attemptId], new Map([[attemptId, 'failed']]));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'The body of this request could not be read from this browser’s storage.',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(app.stores.bodies.getState().loads).toEqual({ [attemptId]: 'loading' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the body of this request…');
  });
});

describe('Inspector attempts', () => {
  it('chooses an attempt with toggle buttons that say which one is shown', async () => {
    const fetchImpl = vi.fn<typeof fetch>(
      async () =>
        new Response(streamFromBytes(encoder.encode(fixtureText('chat/openai-text-obfuscation-usage.sse'))), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    app.setFetch(fetchImpl);
    await app.session.send('Hello', 'chat');
    const { activeId, conversations } = app.stores.conversations.getState();
    const message = conversations[activeId!]!.messages[1] as AssistantMessage;
    const first = message.attempts[0]!;
    app.stores.conversations
      .getState()
      .addAttempt(activeId!, message.id, { ...first, id: 'att_2', trace: { ...first.trace, items: [] } });
    app.render(<Inspector target={{ conversationId: activeId!, messageId: message.id }} onClose={vi.fn()} />);
    const group = screen.getByRole('group', { name: 'Attempts' });
    const [one, two] = within(group).getAllByRole('button');
    expect(screen.queryByRole('tab')).toBeNull();
    expect(one).toHaveAttribute('aria-pressed', 'false');
    expect(two).toHaveAttribute('aria-pressed', 'true');
    await userEvent.setup().click(one!);
    expect(one).toHaveAttribute('aria-pressed', 'true');
    expect(two).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('Inspector import', () => {
  it('replays an imported .sse instantly as a new answer', async () => {
    const text = fixtureText('anthropic/text-padded.sse');
    app.render(<Inspector target={null} onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Instantly' }));
    await user.upload(
      screen.getByLabelText('Import .sse'),
      new File([text], 'turn.sse', { type: 'text/event-stream' }),
    );
    const expected = await readTurn('messages', streamFromBytes(encoder.encode(text)));
    await waitFor(() => {
      const { activeId, conversations } = app.stores.conversations.getState();
      const message = conversations[activeId!]?.messages[0] as AssistantMessage | undefined;
      expect(message?.model).toBe('replay: turn.sse');
      expect(message?.protocol).toBe('messages');
      expect(message?.attempts[0]?.turn).toEqual(expected);
    });
  });

  it('says why a file cannot be replayed, in an alert, and stores nothing', async () => {
    app.render(<Inspector target={null} onClose={vi.fn()} />);
    const user = userEvent.setup();
    const garbage = JSON.stringify({
      format: 'hopbase-chat-trace',
      protocol: 'bogus',
      events: [{ t: 0, kind: 'event', event: 'message', data: { not: 'text' } }],
    });
    await user.upload(
      screen.getByLabelText('Import .sse'),
      new File([garbage], 'broken.json', { type: 'application/json' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Could not replay broken.json: Event 1 of this trace is not a recorded item',
    );
    expect(app.stores.conversations.getState().order).toEqual([]);

    // A good file afterwards clears the message.
    await user.click(screen.getByRole('radio', { name: 'Instantly' }));
    await user.upload(
      screen.getByLabelText('Import .sse'),
      new File([fixtureText('anthropic/text-padded.sse')], 'turn.sse', { type: 'text/event-stream' }),
    );
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
