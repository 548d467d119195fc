import { createStore, type StoreApi } from 'zustand/vanilla';
import { type HttpError, startWatch, type Turn, type WatchState } from '../../core/index.ts';
import { idRecord, withIds } from '../domain/idRecord.ts';
import type { AssistantMessage, Attempt, AttemptTrace } from '../domain/types.ts';

/** Where an answer in flight stands: reading a stream, or waiting to try again on its own. */
export type AnswerPhase =
  | { kind: 'streaming'; watch: WatchState }
  /** Failed before any output; attempt `attempt` of `of` starts on its own at `at` (epoch ms). */
  | { kind: 'retrying'; at: number; attempt: number; of: number };

/**
 * How the page reaches the answer: the gateway's stream itself, or the server that runs it (then a broken
 * connection only means reconnecting: the answer goes on there).
 */
export type AnswerLink = 'direct' | 'relayed' | 'reconnecting';

/**
 * An answer in flight as the UI sees it: immutable, replaced whole by each change. Never persisted (the
 * conversation store receives the attempt at checkpoints and when it ends).
 */
export interface AnswerSnapshot {
  conversationId: string;
  messageId: string;
  /** The newest attempt, as far as it has come. */
  attempt: Attempt;
  phase: AnswerPhase;
  link: AnswerLink;
}

/** Everything that changes an answer in flight: `answerReducer` is the one place that applies them. */
export type AnswerAction =
  | { type: 'attemptStarted'; conversationId: string; messageId: string; attempt: Attempt; at: number }
  /** What the stream brought since the last frame. */
  | { type: 'progressed'; turn: Turn; trace: AttemptTrace; watch: WatchState }
  | { type: 'attemptEnded'; turn: Turn; httpError: HttpError | null; trace: AttemptTrace }
  | { type: 'retryScheduled'; at: number; attempt: number; of: number }
  /** The server runs this attempt: it is relayed from now on. */
  | { type: 'relayed' }
  /** The connection to the server that runs it broke (`reconnecting`), or is back (`relayed`). */
  | { type: 'linkChanged'; link: 'relayed' | 'reconnecting' };

/** The answer after `action`: every attempt starts one afresh; the other actions need one started. */
export function answerReducer(snapshot: AnswerSnapshot | null, action: AnswerAction): AnswerSnapshot {
  if (action.type === 'attemptStarted') {
    const { conversationId, messageId, attempt, at } = action;
    const phase = { kind: 'streaming', watch: startWatch(at) } as const;
    return { conversationId, messageId, attempt, phase, link: attempt.relayed ? 'relayed' : 'direct' };
  }
  if (snapshot === null) throw new Error(`${action.type} before any attempt started`);
  switch (action.type) {
    case 'progressed':
      return {
        ...snapshot,
        attempt: { ...snapshot.attempt, turn: action.turn, trace: action.trace },
        phase: { kind: 'streaming', watch: action.watch },
      };
    case 'attemptEnded': {
      const { turn, httpError, trace } = action;
      return { ...snapshot, attempt: { ...snapshot.attempt, turn, httpError, trace } };
    }
    case 'retryScheduled':
      return {
        ...snapshot,
        phase: { kind: 'retrying', at: action.at, attempt: action.attempt, of: action.of },
      };
    case 'relayed':
      return { ...snapshot, attempt: { ...snapshot.attempt, relayed: true }, link: 'relayed' };
    case 'linkChanged':
      return { ...snapshot, link: action.link };
  }
}

/** `message` with its newest attempt as the answer in flight has it (added if the store has not seen it yet). */
export function withAnswer(message: AssistantMessage, answer: AnswerSnapshot | undefined): AssistantMessage {
  if (!answer || answer.messageId !== message.id) return message;
  const { attempt } = answer;
  const last = message.attempts.at(-1);
  if (last === attempt) return message;
  const attempts =
    last?.id === attempt.id ? [...message.attempts.slice(0, -1), attempt] : [...message.attempts, attempt];
  return { ...message, attempts };
}

/**
 * Whether `next` only carries the answer `shown` further (more text, reasoning, tool arguments, a newer
 * silence watch): such a change may be rendered as a transition, in slices. Anything else shows at once:
 * the answer appearing or going, its first text or reasoning, a new attempt, a new status, phase or link.
 */
export function onlyProgressed(shown: AnswerSnapshot | undefined, next: AnswerSnapshot | undefined): boolean {
  if (shown === undefined || next === undefined) return false;
  const [was, is] = [shown.attempt.turn, next.attempt.turn];
  return (
    shown.messageId === next.messageId &&
    shown.attempt.id === next.attempt.id &&
    was.status === is.status &&
    shown.phase.kind === next.phase.kind &&
    shown.link === next.link &&
    (was.text !== '' || is.text === '') &&
    (was.reasoning !== '' || is.reasoning === '')
  );
}

export interface AnswersState {
  /** Keyed by assistant message id. */
  answers: Readonly<Record<string, AnswerSnapshot>>;
  publish(snapshot: AnswerSnapshot): void;
  remove(messageId: string): void;
}

export type AnswersStore = StoreApi<AnswersState>;

export function createAnswersStore(): AnswersStore {
  return createStore<AnswersState>()((set) => ({
    answers: idRecord(),
    publish(snapshot) {
      set((state) => ({ answers: withIds(state.answers, [[snapshot.messageId, snapshot]]) }));
    },
    remove(messageId) {
      set((state) => {
        if (!Object.hasOwn(state.answers, messageId)) return state;
        return { answers: withIds(state.answers, [], [messageId]) };
      });
    },
  }));
}

/** The message id of `conversationId`'s answer in flight (streaming or waiting to retry), or null. */
export function answerIn(state: Pick<AnswersState, 'answers'>, conversationId: string | null): string | null {
  if (conversationId === null) return null;
  for (const answer of Object.values(state.answers))
    if (answer.conversationId === conversationId) return answer.messageId;
  return null;
}

/** The conversations with an answer in flight, as one string (a stable selection: equal when unchanged). */
export function answeringConversations(state: Pick<AnswersState, 'answers'>): string {
  return Object.values(state.answers)
    .map((answer) => answer.conversationId)
    .join(' ');
}
