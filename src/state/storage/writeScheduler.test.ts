import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import { recordingLimits } from '../domain/recordings.ts';
import type { AssistantMessage, Conversation } from '../domain/types.ts';
import { isStructural, outgrewPart } from './writeScheduler.ts';

const answer = (status: 'streaming' | 'complete', text: string) => answerMessage('msg_1', { status, text });

function conversation(message: AssistantMessage, title = 'Chat'): Record<string, Conversation> {
  return { c1: { id: 'c1', title, createdAt: 1, updatedAt: 1, messages: [message] } };
}

describe('isStructural', () => {
  const streaming = conversation(answer('streaming', 'Hel'));
  it('a streaming frame is not: it is written at most every delay', () => {
    expect(isStructural(conversation(answer('streaming', 'Hello')), streaming, ['c1'])).toBe(false);
  });
  it('an answer that ends is', () => {
    expect(isStructural(conversation(answer('complete', 'Hello')), streaming, ['c1'])).toBe(true);
  });
  it('a new title is', () => {
    expect(isStructural(conversation(answer('streaming', 'Hel'), 'Renamed'), streaming, ['c1'])).toBe(true);
  });
  it('a new or deleted conversation is', () => {
    expect(isStructural({}, streaming, ['c1'])).toBe(true);
    expect(isStructural(streaming, {}, ['c1'])).toBe(true);
  });
  it('looks only at the ids the store says it touched', () => {
    const renamed = conversation(answer('streaming', 'Hel'), 'Renamed');
    expect(isStructural(renamed, streaming, ['c1'])).toBe(true);
    expect(isStructural(renamed, streaming, [])).toBe(false);
  });
});

describe('outgrewPart', () => {
  const { partBytes } = recordingLimits;
  const received = (status: 'streaming' | 'complete', bytes: number) =>
    conversation(answerMessage('msg_1', { status, text: 'Hi' }, { bytes }));
  const sent = (bytes: number) => (id: string) => (id === 'msg_1_att' ? bytes : 0);
  it('a streaming recording with a part unwritten is: written at once', () => {
    expect(outgrewPart(received('streaming', 100 + partBytes), {}, ['c1'], sent(100))).toBe(true);
  });
  it('one with less unwritten is not', () => {
    expect(outgrewPart(received('streaming', 99 + partBytes), {}, ['c1'], sent(100))).toBe(false);
  });
  it('an ended answer is not (its end is written at once anyway)', () => {
    expect(outgrewPart(received('complete', 100 + partBytes), {}, ['c1'], sent(100))).toBe(false);
  });
  it('looks only at conversations that changed among the ids the store says it touched', () => {
    const next = received('streaming', partBytes);
    expect(outgrewPart(next, {}, [], sent(0))).toBe(false);
    expect(outgrewPart(next, next, ['c1'], sent(0))).toBe(false);
  });
});
