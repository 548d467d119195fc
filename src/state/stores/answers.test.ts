import { describe, expect, it } from 'vitest';
import { emptyTurn, startWatch } from '../../core/index.ts';
import { answerMessage } from '../../testing/builders.ts';
import { emptyRecording } from '../domain/recordings.ts';
import {
  type AnswerSnapshot,
  answerIn,
  answeringConversations,
  answerReducer,
  createAnswersStore,
  onlyProgressed,
  withAnswer,
} from './answers.ts';

const message = answerMessage('m1', { status: 'complete', text: 'first' });
const attempt = { ...message.attempts[0]!, id: 'att_2', turn: emptyTurn };
const started = answerReducer(null, {
  type: 'attemptStarted',
  conversationId: 'c1',
  messageId: 'm1',
  attempt,
  at: 5,
});
const watch = { ...startWatch(5), lastOutputAt: 9 };
const text = { ...emptyTurn, text: 'Hel' };

describe('answerReducer', () => {
  it('starts each attempt afresh, streaming, watched from its start', () =>
    expect(started).toEqual({
      conversationId: 'c1',
      messageId: 'm1',
      attempt,
      phase: { kind: 'streaming', watch: startWatch(5) },
      link: 'direct',
    }));
  it('picks a relayed attempt up as relayed', () =>
    expect(
      answerReducer(null, {
        type: 'attemptStarted',
        conversationId: 'c1',
        messageId: 'm1',
        attempt: { ...attempt, relayed: true },
        at: 5,
      }).link,
    ).toBe('relayed'));
  it('marks the attempt relayed once the server says it runs it, and follows its link', () => {
    const relayed = answerReducer(started, { type: 'relayed' });
    expect(relayed).toMatchObject({ attempt: { relayed: true }, link: 'relayed' });
    expect(answerReducer(relayed, { type: 'linkChanged', link: 'reconnecting' }).link).toBe('reconnecting');
  });
  it('takes progress into the attempt and the watch', () =>
    expect(
      answerReducer(started, { type: 'progressed', turn: text, trace: emptyRecording(), watch }),
    ).toMatchObject({
      attempt: { id: 'att_2', turn: text },
      phase: { kind: 'streaming', watch },
    }));
  it('keeps an ended attempt’s outcome', () =>
    expect(
      answerReducer(started, { type: 'attemptEnded', turn: text, httpError: null, trace: emptyRecording() })
        .attempt.turn,
    ).toBe(text));
  it('waits for a retry with its time and count', () =>
    expect(answerReducer(started, { type: 'retryScheduled', at: 99, attempt: 2, of: 3 }).phase).toEqual({
      kind: 'retrying',
      at: 99,
      attempt: 2,
      of: 3,
    }));
  it('refuses progress before any attempt', () =>
    expect(() => answerReducer(null, { type: 'retryScheduled', at: 1, attempt: 2, of: 3 })).toThrow(
      /before any attempt/,
    ));
  it('replaces the snapshot, never changes it', () => {
    const before = structuredClone(started);
    answerReducer(started, { type: 'progressed', turn: text, trace: emptyRecording(), watch });
    expect(started).toEqual(before);
  });
});

describe('onlyProgressed', () => {
  const progressed = (turn: typeof text) =>
    answerReducer(started, { type: 'progressed', turn, trace: emptyRecording(), watch });
  const hello = progressed(text);
  const more = progressed({ ...text, text: 'Hello' });
  it('is true for more text of the same attempt', () => expect(onlyProgressed(hello, more)).toBe(true));
  it('is true for a newer watch alone', () =>
    expect(onlyProgressed(started, progressed(emptyTurn))).toBe(true));
  it('is false when the answer appears or goes', () => {
    expect(onlyProgressed(undefined, hello)).toBe(false);
    expect(onlyProgressed(hello, undefined)).toBe(false);
  });
  it('is false for the first text', () => expect(onlyProgressed(started, hello)).toBe(false));
  it('is false for the first reasoning', () =>
    expect(onlyProgressed(started, progressed({ ...emptyTurn, reasoning: 'Hm' }))).toBe(false));
  it('is false for a new status', () =>
    expect(onlyProgressed(hello, progressed({ ...text, status: 'complete' }))).toBe(false));
  it('is false for a retry scheduled', () =>
    expect(
      onlyProgressed(hello, answerReducer(hello, { type: 'retryScheduled', at: 1, attempt: 2, of: 3 })),
    ).toBe(false));
  it('is false for a new link', () =>
    expect(onlyProgressed(hello, answerReducer(hello, { type: 'linkChanged', link: 'reconnecting' }))).toBe(
      false,
    ));
  it('is false for a new attempt', () =>
    expect(onlyProgressed(hello, { ...more, attempt: { ...more.attempt, id: 'att_3' } })).toBe(false));
});

describe('withAnswer', () => {
  it('adds an attempt the store has not seen yet', () =>
    expect(withAnswer(message, started).attempts.map((a) => a.id)).toEqual(['m1_att', 'att_2']));
  it('replaces the stored checkpoint of the same attempt', () => {
    const stored = { ...message, attempts: [...message.attempts, attempt] };
    const later = answerReducer(started, { type: 'progressed', turn: text, trace: emptyRecording(), watch });
    expect(withAnswer(stored, later).attempts.map((a) => a.turn.text)).toEqual(['first', 'Hel']);
  });
  it('leaves a message alone without an answer in flight, or another message’s', () => {
    expect(withAnswer(message, undefined)).toBe(message);
    expect(withAnswer(answerMessage('m2', {}), started).attempts).toHaveLength(1);
  });
});

describe('the answers store', () => {
  const other: AnswerSnapshot = { ...started, conversationId: 'c2', messageId: 'm9' };
  it('says which conversation answers, and which message', () => {
    const store = createAnswersStore();
    store.getState().publish(started);
    store.getState().publish(other);
    expect(answerIn(store.getState(), 'c2')).toBe('m9');
    expect(answerIn(store.getState(), 'c3')).toBeNull();
    expect(answerIn(store.getState(), null)).toBeNull();
    expect(answeringConversations(store.getState())).toBe('c1 c2');
    store.getState().remove('m1');
    expect(answeringConversations(store.getState())).toBe('c2');
  });
  it('changes nothing when an unknown answer is removed', () => {
    const store = createAnswersStore();
    const before = store.getState();
    store.getState().remove('nope');
    expect(store.getState()).toBe(before);
  });
});
