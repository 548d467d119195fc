import { vi } from 'vitest';
import type { ConversationViewProps } from '../components/conversation/ConversationView.tsx';
import { emptyTurn, type Turn } from '../core/index.ts';
import { emptyRecording } from '../state/recordings.ts';
import type { AssistantMessage, AttemptTrace } from '../state/types.ts';

/** An answer from the gateway with one attempt holding `turn` (over an empty, streaming one) and `trace`. */
export function answerMessage(
  id: string,
  turn: Partial<Turn>,
  trace: Partial<AttemptTrace> = {},
): AssistantMessage {
  return {
    id,
    role: 'assistant',
    protocol: 'chat',
    model: 'sim-echo',
    source: { kind: 'gateway' },
    createdAt: 0,
    attempts: [
      {
        id: `${id}_att`,
        startedAt: 0,
        request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
        turn: { ...emptyTurn, ...turn },
        sentHeaders: {},
        httpError: null,
        trace: { ...emptyRecording(), ...trace },
      },
    ],
  };
}

/** ConversationView's actions, each a mock a test can look at. */
export function conversationViewActions(): Omit<ConversationViewProps, 'conversation'> {
  return {
    onRetry: vi.fn(),
    onRegenerate: vi.fn(),
    onEdit: vi.fn(),
    onSelectVersion: vi.fn(),
    onStop: vi.fn(),
    onToolResult: vi.fn(),
    onExample: vi.fn(),
  };
}
