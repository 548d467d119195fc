import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyTurn, type Turn } from '../../core/index.ts';
import { emptyTrace } from '../../hooks/runAttempt.ts';
import { useLiveStore } from '../../state/liveStore.ts';
import type { AssistantMessage, Conversation } from '../../state/types.ts';
import { ConversationView, type ConversationViewProps } from './ConversationView.tsx';

const initialLive = useLiveStore.getState();
beforeEach(() => useLiveStore.setState(initialLive, true));

function answer(id: string, turn: Partial<Turn>): AssistantMessage {
  return {
    id,
    role: 'assistant',
    protocol: 'chat',
    model: 'sim-echo',
    createdAt: 0,
    attempts: [
      {
        id: `${id}_att`,
        startedAt: 0,
        request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
        turn: { ...emptyTurn, ...turn },
        sentHeaders: {},
        httpError: null,
        trace: emptyTrace(),
      },
    ],
  };
}

function renderView(conversation: Conversation | null) {
  const props: ConversationViewProps = {
    conversation,
    onRetry: vi.fn(),
    onStop: vi.fn(),
    onToolResult: vi.fn(),
    onExample: vi.fn(),
  };
  render(<ConversationView {...props} />);
  return { ...props, user: userEvent.setup() };
}

const calls = [
  { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
];

const conversation: Conversation = {
  id: 'conv_1',
  title: 'Weather',
  createdAt: 0,
  updatedAt: 0,
  messages: [
    { id: 'u1', role: 'user', text: 'Weather in Paris and Rome?', createdAt: 0 },
    answer('a1', {
      status: 'complete',
      toolCalls: calls,
      parts: calls.map((call) => ({ kind: 'tool_call' as const, key: call.id, call })),
    }),
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

describe('ConversationView', () => {
  it('offers examples when empty', async () => {
    const { onExample, user } = renderView(null);
    await user.click(screen.getByRole('button', { name: 'Write a short haiku about streaming' }));
    expect(onExample).toHaveBeenCalledWith('Write a short haiku about streaming');
  });

  it('shows user messages and answers in order; tool results go to their call', async () => {
    const { onToolResult, onRetry, user } = renderView(conversation);
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
    await user.type(within(rome!).getByLabelText('Result for get_weather'), '21°C');
    await user.click(within(rome!).getByRole('button', { name: 'Send result' }));
    expect(onToolResult).toHaveBeenCalledWith('call_b', 'get_weather', '21°C');

    await user.click(within(second!).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('a2');
  });

  it('wires Stop of a stalled answer to its message id', async () => {
    useLiveStore.getState().put('a3', {
      conversationId: 'conv_2',
      attemptId: 'a3_att',
      watch: {
        startedAt: performance.now() - 60_000,
        lastOutputAt: null,
        lastByteAt: null,
        lastKeepaliveAt: null,
      },
      retryAt: null,
    });
    const { onStop, user } = renderView({
      id: 'conv_2',
      title: 't',
      createdAt: 0,
      updatedAt: 0,
      messages: [answer('a3', {})],
    });
    const banner = screen.getByTestId('stall-banner');
    expect(banner).toHaveTextContent('The connection looks dead.');
    await user.click(within(banner).getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledWith('a3');
  });
});
