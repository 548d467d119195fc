import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Protocol, Turn } from '../../core/index.ts';
import { serverPricesQuery } from '../../hooks/usePrices.ts';
import type { AssistantMessage, Attempt, Conversation, TraceItem } from '../../state/domain/types.ts';
import { answerMessage as answer, answerInFlight, conversationViewActions } from '../../testing/builders.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { markdownRenderer } from '../markdown/LazyMarkdown.tsx';
import { ConversationView, type ConversationViewProps } from './ConversationView.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function renderView(conversation: Conversation | null) {
  const props: ConversationViewProps = { conversation, ...conversationViewActions() };
  const view = app.render(<ConversationView {...props} />);
  const rerender = (next: Conversation | null) =>
    view.rerender(<ConversationView {...props} conversation={next} />);
  return { ...props, rerender, user: userEvent.setup() };
}

const toolCallTurn = (calls: { id: string; name: string; arguments: string }[]): Partial<Turn> => ({
  status: 'complete',
  toolCalls: calls,
  parts: calls.map((call) => ({ kind: 'tool_call' as const, key: call.id, call })),
});

const calls = [
  { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
];

/** An older answer with two tool calls (one answered), then a new question whose answer failed. */
const conversation: Conversation = {
  id: 'conv_1',
  title: 'Weather',
  createdAt: 0,
  updatedAt: 0,
  messages: [
    { id: 'u1', role: 'user', text: 'Weather in Paris and Rome?', createdAt: 0 },
    answer('a1', toolCallTurn(calls)),
    {
      id: 't1',
      role: 'tool',
      toolCallId: 'call_a',
      name: 'get_weather',
      content: '18°C and sunny',
      createdAt: 0,
    },
    { id: 'u2', role: 'user', text: 'And tomorrow?', createdAt: 0 },
    answer('a2', { status: 'error', error: { code: 'server_error', message: 'boom' } }),
  ],
};

/** The same calls, on the conversation's last answer: one result sent, one still to send. */
const awaitingResult: Conversation = {
  ...conversation,
  id: 'conv_tools',
  messages: conversation.messages.slice(0, 3),
};

// As main.tsx does at startup: the markdown renderer is loaded before the first answer shows.
beforeEach(() => markdownRenderer(app.markdown).load());

describe('ConversationView', () => {
  it('offers examples when empty', async () => {
    const { onExample, user } = renderView(null);
    await user.click(screen.getByRole('button', { name: 'Write a short haiku about streaming' }));
    expect(onExample).toHaveBeenCalledWith('Write a short haiku about streaming');
  });

  it('prices its answers from one reading of the price table, not one per answer', async () => {
    const messages = Array.from({ length: 20 }, (_, i) => [
      { id: `u${i}`, role: 'user' as const, text: `Question ${i}`, createdAt: 0 },
      answer(`a${i}`, { status: 'complete', text: `Answer ${i}` }),
    ]).flat();
    renderView({ ...conversation, messages });
    // The ones out of view are added over the next tasks.
    await waitFor(() => expect(screen.getAllByTestId('assistant-turn')).toHaveLength(20));
    const prices = app.queries.getQueryCache().find({ queryKey: serverPricesQuery.queryKey });
    expect(prices?.getObserversCount()).toBe(1);
  });

  it('shows user messages and answers in order; results sent show under their call', async () => {
    const { onRetry, user } = renderView(conversation);
    expect(screen.queryByRole('heading', { name: 'HopBase Chat' })).toBeNull();
    expect(screen.getAllByTestId('user-message').map((m) => m.textContent)).toEqual([
      'Weather in Paris and Rome?',
      'And tomorrow?',
    ]);
    const [first, second] = screen.getAllByTestId('assistant-turn');
    expect(screen.getAllByTestId('assistant-turn')).toHaveLength(2);

    const [paris, rome] = within(first!).getAllByRole('region', { name: 'Tool call get_weather' });
    expect(within(paris!).getByText('Result sent')).toBeInTheDocument();
    expect(within(paris!).getByText('18°C and sunny')).toBeInTheDocument();
    expect(within(rome!).queryByText('Result sent')).toBeNull();

    await user.click(within(second!).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('a2');
  });

  it('copies an answer as its markdown source, and offers no copy for an answer without text', async () => {
    const text = '## Result\n\n- **one**\n- two';
    const { user } = renderView({
      ...conversation,
      messages: [
        ...conversation.messages,
        { id: 'u3', role: 'user', text: 'Summarize', createdAt: 0 },
        answer('a3', { status: 'complete', text, parts: [{ kind: 'text', key: 'c', text }] }),
      ],
    });
    // user-event installs its own clipboard in `setup()`: ours goes in after it.
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const turns = screen.getAllByTestId('assistant-turn');
    expect(within(turns[0]!).queryByRole('button', { name: 'Copy answer' })).toBeNull();
    await user.click(within(turns[2]!).getByRole('button', { name: 'Copy answer' }));
    expect(writeText).toHaveBeenCalledWith(text);
    expect(within(turns[2]!).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('offers to regenerate a finished answer, never while one streams, and never a replay', async () => {
    const done = answer('a3', {
      status: 'complete',
      text: 'Hi',
      parts: [{ kind: 'text', key: 'c', text: 'Hi' }],
    });
    const asked = { id: 'u3', role: 'user' as const, text: 'Hello', createdAt: 0 };
    const { onRegenerate, onRetry, rerender, user } = renderView({
      ...conversation,
      messages: [...conversation.messages, asked, done],
    });
    // The first answer (tool calls) and the last one finished; the failed one gets Retry instead.
    const turns = () => screen.getAllByTestId('assistant-turn');
    expect(within(turns()[1]!).queryByRole('button', { name: 'Regenerate' })).toBeNull();
    await user.click(within(turns()[2]!).getByRole('button', { name: 'Regenerate' }));
    expect(onRegenerate).toHaveBeenCalledWith('a3');
    expect(onRetry).not.toHaveBeenCalled();

    // While it streams there is Stop instead.
    const streaming = answer('a3', {
      status: 'streaming',
      text: 'H',
      parts: [{ kind: 'text', key: 'c', text: 'H' }],
    });
    rerender({ ...conversation, messages: [...conversation.messages, asked, streaming] });
    expect(within(turns()[2]!).queryByRole('button', { name: 'Regenerate' })).toBeNull();

    // A replayed recording has no request to send again.
    const replayed = answer('a3', { status: 'complete', text: 'Hi', parts: done.attempts[0]!.turn.parts });
    rerender({
      ...conversation,
      messages: [
        ...conversation.messages,
        asked,
        { ...replayed, source: { kind: 'replay', file: 'turn.sse' } },
      ],
    });
    expect(turns()).toHaveLength(3);
    expect(within(turns()[2]!).queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });

  it('offers a tool result form only on the last answer: an older call can no longer be answered', () => {
    renderView(conversation);
    const [first] = screen.getAllByTestId('assistant-turn');
    const rome = within(first!).getAllByRole('region', { name: 'Tool call get_weather' })[1]!;
    expect(within(rome).queryByLabelText('Result for get_weather')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send result' })).toBeNull();
  });

  it('sends a result for an unanswered call of the last answer, tool results after it included', async () => {
    const { onToolResult, user } = renderView(awaitingResult);
    const [paris, rome] = screen.getAllByRole('region', { name: 'Tool call get_weather' });
    expect(within(paris!).queryByLabelText('Result for get_weather')).toBeNull();
    await user.type(within(rome!).getByLabelText('Result for get_weather'), '21°C');
    await user.click(within(rome!).getByRole('button', { name: 'Send result' }));
    expect(onToolResult).toHaveBeenCalledWith('call_b', 'get_weather', '21°C');
  });

  it('withdraws the form once a new message follows, although the answer itself did not change', () => {
    const { rerender } = renderView(awaitingResult);
    expect(screen.getByLabelText('Result for get_weather')).toBeInTheDocument();
    rerender({
      ...awaitingResult,
      messages: [...awaitingResult.messages, { id: 'u9', role: 'user', text: 'Never mind', createdAt: 0 }],
    });
    expect(screen.queryByLabelText('Result for get_weather')).toBeNull();
  });

  it('wires Stop of a stalled answer to its message id', async () => {
    const stalled = answer('a3', {});
    const watch = {
      startedAt: performance.now() - 60_000,
      lastOutputAt: null,
      lastByteAt: null,
      lastKeepaliveAt: null,
    };
    app.stores.answers.getState().publish(answerInFlight('conv_2', stalled, { kind: 'streaming', watch }));
    const { onStop, user } = renderView({
      id: 'conv_2',
      title: 't',
      createdAt: 0,
      updatedAt: 0,
      messages: [stalled],
    });
    const banner = screen.getByTestId('stall-banner');
    expect(banner).toHaveTextContent('The connection looks dead.');
    await user.click(within(banner).getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledWith('a3');
  });

  it('says the answer goes on on the server while the page reconnects: no silence warning, no Retry', async () => {
    const relayed = answer('a4', {});
    const watch = {
      startedAt: performance.now() - 60_000,
      lastOutputAt: null,
      lastByteAt: null,
      lastKeepaliveAt: null,
    };
    app.stores.answers
      .getState()
      .publish(answerInFlight('conv_2', relayed, { kind: 'streaming', watch }, 'reconnecting'));
    const { onStop, user } = renderView({
      id: 'conv_2',
      title: 't',
      createdAt: 0,
      updatedAt: 0,
      messages: [relayed],
    });
    const banner = screen.getByTestId('reconnecting-banner');
    expect(banner).toHaveTextContent('The answer goes on there');
    expect(screen.queryByTestId('stall-banner')).toBeNull();
    expect(within(banner).queryByRole('button', { name: 'Retry' })).toBeNull();
    await user.click(within(banner).getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledWith('a4');
  });

  it('shows a stored answer that cannot be rendered as a note, and keeps the rest of the conversation', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = { ...answer('bad', { status: 'complete', text: 'x' }), protocol: 'bogus' as Protocol };
    renderView({
      ...conversation,
      messages: [
        { id: 'u1', role: 'user', text: 'Hello', createdAt: 0 },
        broken,
        { id: 'u2', role: 'user', text: 'Again', createdAt: 0 },
        answer('good', { status: 'complete', text: 'Fine answer' }),
      ],
    });
    expect(screen.getByRole('alert')).toHaveTextContent('This answer could not be displayed.');
    const turns = screen.getAllByTestId('assistant-turn');
    expect(turns).toHaveLength(1);
    expect(within(turns[0]!).getByTestId('turn-text')).toHaveTextContent('Fine answer');
    expect(screen.getAllByTestId('user-message')).toHaveLength(2);
  });

  it('keeps the newest output in view when another conversation opens, even if this one was scrolled up', () => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(5_000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(500);
    const { rerender } = renderView(conversation);
    const scroller = document.querySelector<HTMLElement>('.scroller')!;
    expect(scroller.scrollTop).toBe(5_000);
    // The person scrolls up: new content of this conversation no longer moves the view.
    scroller.scrollTop = 100;
    act(() => scroller.dispatchEvent(new Event('scroll')));
    rerender({ ...conversation, updatedAt: 1 });
    expect(scroller.scrollTop).toBe(100);

    rerender(awaitingResult);
    expect(scroller.scrollTop).toBe(5_000);
  });

  it('offers "Jump to latest" once the person scrolls up, and follows again after it', async () => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(5_000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(500);
    const { rerender, user } = renderView(conversation);
    const scroller = document.querySelector<HTMLElement>('.scroller')!;
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();

    scroller.scrollTop = 1_000;
    act(() => scroller.dispatchEvent(new Event('scroll')));
    const jump = screen.getByRole('button', { name: 'Jump to latest' });
    rerender({ ...conversation, updatedAt: 2 });
    expect(scroller.scrollTop).toBe(1_000);

    await user.click(jump);
    expect(scroller.scrollTop).toBe(5_000);
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
    expect(document.activeElement).toBe(scroller);

    // Scrolling back down to the end by hand also resumes following, and hides the button.
    scroller.scrollTop = 2_000;
    act(() => scroller.dispatchEvent(new Event('scroll')));
    expect(screen.getByRole('button', { name: 'Jump to latest' })).toBeInTheDocument();
    scroller.scrollTop = 4_500;
    act(() => scroller.dispatchEvent(new Event('scroll')));
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
  });

  it('a message the person sends brings the view back to the end', () => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(5_000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(500);
    const { rerender } = renderView(conversation);
    const scroller = document.querySelector<HTMLElement>('.scroller')!;
    scroller.scrollTop = 100;
    act(() => scroller.dispatchEvent(new Event('scroll')));
    rerender({
      ...conversation,
      messages: [...conversation.messages, { id: 'u_new', role: 'user', text: 'One more', createdAt: 1 }],
    });
    expect(scroller.scrollTop).toBe(5_000);
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
  });
});

describe('versions', () => {
  const done = (id: string, text: string) =>
    answer(id, { status: 'complete', text, parts: [{ kind: 'text', key: 'c', text }] });
  /** A question (q1) edited once (q2), the edit's answer regenerated once (b2 beside b1). */
  const versions: Conversation = {
    id: 'conv_v',
    title: 'Versions',
    createdAt: 0,
    updatedAt: 0,
    messages: [
      { id: 'q1', role: 'user', text: 'Capital of France?', createdAt: 0, parentId: null },
      { ...done('a1', 'Paris'), parentId: 'q1' },
      { id: 'q2', role: 'user', text: 'Capital of Italy?', createdAt: 1, parentId: null },
      { ...done('b1', 'Rome'), parentId: 'q2' },
      { ...done('b2', 'Rome, since 1871'), parentId: 'q2' },
    ],
  };
  const question = () => screen.getByRole('group', { name: 'Versions of your message' });
  const answerVersions = () => screen.getByRole('group', { name: 'Versions of this answer' });

  it('shows the branch chosen, and where each message stands among its versions', async () => {
    const { onSelectVersion, rerender, user } = renderView(versions);
    expect(screen.getAllByTestId('user-message').map((m) => m.textContent)).toEqual(['Capital of Italy?']);
    expect(screen.getByTestId('turn-text')).toHaveTextContent('Rome, since 1871');
    expect(question()).toHaveTextContent('Version 2 of 2');
    expect(answerVersions()).toHaveTextContent('Version 2 of 2');

    // At the last version, Next stays focusable but does nothing.
    const next = within(question()).getByRole('button', { name: 'Next version' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await user.click(next);
    expect(onSelectVersion).not.toHaveBeenCalled();

    const previous = within(question()).getByRole('button', { name: 'Previous version' });
    await user.click(previous);
    expect(onSelectVersion).toHaveBeenCalledWith('q1');
    rerender({ ...versions, selected: { '': 'q1' } });
    expect(screen.getAllByTestId('user-message').map((m) => m.textContent)).toEqual(['Capital of France?']);
    expect(screen.getByTestId('turn-text')).toHaveTextContent('Paris');
    expect(question()).toHaveTextContent('Version 1 of 2');
    // The same switch, still where the keyboard was.
    expect(within(question()).getByRole('button', { name: 'Previous version' })).toBe(previous);
    expect(previous).toHaveFocus();
    // An answer with no other version shows no switch.
    expect(screen.queryByRole('group', { name: 'Versions of this answer' })).toBeNull();
  });

  it('moves between the versions of an answer', async () => {
    const { onSelectVersion, user } = renderView(versions);
    await user.click(within(answerVersions()).getByRole('button', { name: 'Previous version' }));
    expect(onSelectVersion).toHaveBeenCalledWith('b1');
  });

  it('edits a message: Enter sends the new text, Shift+Enter adds a line', async () => {
    const { onEdit, user } = renderView(versions);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edit message' });
    expect(box).toHaveValue('Capital of Italy?');
    expect(box).toHaveFocus();
    await user.clear(box);
    await user.type(box, 'Capital of Spain?{Shift>}{Enter}{/Shift}Briefly.');
    await user.keyboard('{Enter}');
    expect(onEdit).toHaveBeenCalledWith('q2', 'Capital of Spain?\nBriefly.', []);
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    expect(screen.getByTestId('user-message')).toHaveFocus();
  });

  it('cancels an edit with Escape or Cancel, back on Edit, and sends no empty message', async () => {
    const { onEdit, user } = renderView(versions);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('textbox', { name: 'Edit message' }), ' And Spain?');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edit message' });
    expect(box).toHaveValue('Capital of Italy?');
    await user.clear(box);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onEdit).not.toHaveBeenCalled();
    expect(screen.getByTestId('user-message')).toHaveTextContent('Capital of Italy?');
  });

  it('leaves Enter and Escape to an input method while it composes', async () => {
    const { onEdit, user } = renderView(versions);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edit message' });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    fireEvent.keyDown(box, { key: 'Escape', isComposing: true });
    expect(onEdit).not.toHaveBeenCalled();
    expect(box).toBeInTheDocument();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onEdit).toHaveBeenCalledWith('q2', 'Capital of Italy?', []);
  });

  it('keeps an unsent edit when the conversation is shown again', async () => {
    const { user } = renderView(versions);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('textbox', { name: 'Edit message' }), ' Or Rome?');
    cleanup();
    renderView(versions);
    expect(screen.getByRole('textbox', { name: 'Edit message' })).toHaveValue('Capital of Italy? Or Rome?');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    cleanup();
    renderView(versions);
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
  });

  it('offers neither Edit nor Regenerate while an answer of the conversation streams', () => {
    app.stores.answers.getState().publish(answerInFlight('conv_v', answer('other', {})));
    renderView(versions);
    expect(screen.getByRole('button', { name: 'Edit' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Regenerate' })).toBeDisabled();
    // Moving between versions changes nothing that streams: it stays possible.
    expect(within(question()).getByRole('button', { name: 'Previous version' })).toBeEnabled();
  });
});

describe('AssistantTurn banners', () => {
  function failedAfterSilence(silenceMs: number, trailing: 'error event' | 'cut' = 'error event') {
    const lastOutput = 100;
    const end = lastOutput + silenceMs;
    const items: TraceItem[] = [
      { t: lastOutput, kind: 'event', event: 'message', data: '{"choices":[{"delta":{"content":"Hi"}}]}' },
      { t: lastOutput + silenceMs / 2, kind: 'comment', event: '', data: 'hopbase-keepalive' },
    ];
    if (trailing === 'error event')
      items.push({ t: end, kind: 'event', event: 'message', data: '{"error":{"type":"server_error"}}' });
    return answer(
      'a_failed',
      {
        status: trailing === 'cut' ? 'interrupted' : 'error',
        text: 'Hi',
        parts: [{ kind: 'text', key: 't0', text: 'Hi' }],
        error:
          trailing === 'cut'
            ? { code: 'interrupted', message: 'The connection closed before the answer was finished.' }
            : { code: 'server_error', message: 'Response stream interrupted, please retry' },
      },
      { headersAt: 40, firstOutputAt: lastOutput, endedAt: end, items },
    );
  }

  const single = (m: AssistantMessage): Conversation => ({
    id: 'conv_b',
    title: 't',
    createdAt: 0,
    updatedAt: 0,
    messages: [m],
  });

  it.each([
    ['an error event', 'error event'],
    ['a cut connection', 'cut'],
  ] as const)('says how long the model had been silent before %s', (_name, trailing) => {
    renderView(single(failedAfterSilence(30_000, trailing)));
    expect(screen.getByTestId('interruption-banner')).toHaveTextContent(
      'The model had produced nothing for 30 s before this.',
    );
  });

  it('notes an answer cut at the token limit, and nothing for a plain one', () => {
    const text = 'A long story that';
    const cut = answer('a_cut', {
      status: 'complete',
      text,
      parts: [{ kind: 'text', key: 't0', text }],
      finishReason: 'length',
      rawFinishReason: 'max_tokens',
    });
    const { rerender } = renderView(single(cut));
    expect(screen.getByRole('note')).toHaveTextContent(
      'The answer hit the output token limit (max_tokens). Raise "Max output tokens" in Settings',
    );
    expect(screen.queryByTestId('interruption-banner')).toBeNull();
    rerender(
      single(
        answer('a_cut', {
          status: 'complete',
          text,
          parts: cut.attempts[0]!.turn.parts,
          finishReason: 'stop',
        }),
      ),
    );
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('says nothing of silence under the stall warning threshold (from Settings)', () => {
    renderView(single(failedAfterSilence(8_000)));
    expect(screen.getByTestId('interruption-banner')).not.toHaveTextContent('produced nothing');
  });

  it('uses the stall warning threshold from Settings', () => {
    app.stores.settings.getState().update({ stallSilentSeconds: 5 });
    renderView(single(failedAfterSilence(8_000)));
    expect(screen.getByTestId('interruption-banner')).toHaveTextContent(
      'The model had produced nothing for 8 s before this.',
    );
  });

  it('does not blame a silence that output ended', () => {
    const message = failedAfterSilence(30_000);
    const attempt = message.attempts[0]!;
    // Output resumed after the long silence, then the error came at once.
    const items = [
      ...attempt.trace.items.slice(0, -1),
      { t: 30_100, kind: 'event' as const, event: 'message', data: '{"choices":[]}' },
      { t: 30_200, kind: 'event' as const, event: 'message', data: '{"error":{}}' },
    ];
    const resumed: Attempt = { ...attempt, trace: { ...attempt.trace, items, endedAt: 30_200 } };
    renderView(single({ ...message, attempts: [resumed] }));
    expect(screen.getByTestId('interruption-banner')).not.toHaveTextContent('produced nothing');
  });

  it('numbers an automatic retry from the live stream, not from the attempts so far', () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
    // Two attempts already: the first, and a manual retry; its automatic series is at attempt 2 of 3.
    const base = answer('a_retry', { status: 'error', error: { code: 'server_error', message: 'x' } });
    const message: AssistantMessage = {
      ...base,
      attempts: [base.attempts[0]!, { ...base.attempts[0]!, id: 'a_retry_att2' }],
    };
    app.stores.answers
      .getState()
      .publish(
        answerInFlight('conv_b', message, { kind: 'retrying', at: Date.now() + 3_000, attempt: 2, of: 3 }),
      );
    renderView(single(message));
    const banner = screen.getByTestId('auto-retry-banner');
    expect(banner).toHaveTextContent('Retrying automatically in 3 s (attempt 2 of 3).');
  });
});
