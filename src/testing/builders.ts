import { vi } from 'vitest';
import type { ConversationViewProps } from '../components/conversation/ConversationView.tsx';
import { emptyTurn, startWatch, type Turn } from '../core/index.ts';
import { emptyRecording } from '../state/domain/recordings.ts';
import type { AssistantMessage, AttemptTrace } from '../state/domain/types.ts';
import type { AnswerLink, AnswerPhase, AnswerSnapshot } from '../state/stores/answers.ts';
import type { ConversationStore } from '../state/stores/conversationStore.ts';

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

/**
 * A new conversation asking `question`, its answer's one attempt finished with `turn`, made through the
 * store's own actions; its ids.
 */
export function answeredChat(conversations: ConversationStore, question: string, turn: Partial<Turn>) {
  const store = () => conversations.getState();
  const id = store().newConversation();
  store().addUserMessage(id, question);
  const messageId = store().addAssistantMessage(id, 'chat', 'sim-echo');
  store().addAttempt(id, messageId, {
    id: `${messageId}_1`,
    startedAt: 0,
    request: { url: '', path: '', headers: {}, body: {} },
    turn: { ...emptyTurn, status: 'complete', ...turn },
    sentHeaders: {},
    httpError: null,
    trace: emptyRecording(),
  });
  return { id, messageId, attemptId: `${messageId}_1` };
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

/** `message` as an answer in flight on its newest attempt: streaming since time 0 unless `phase` says. */
export function answerInFlight(
  conversationId: string,
  message: AssistantMessage,
  phase: AnswerPhase = { kind: 'streaming', watch: startWatch(0) },
  link: AnswerLink = 'direct',
): AnswerSnapshot {
  const attempt = message.attempts.at(-1);
  if (!attempt) throw new Error(`${message.id} has no attempt to be in flight`);
  return { conversationId, messageId: message.id, attempt, phase, link };
}
