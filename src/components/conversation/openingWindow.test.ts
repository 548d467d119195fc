import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../state/domain/types.ts';
import { answerMessage } from '../../testing/builders.ts';
import { mountedAfterStep, openingAt, openingAtEnd } from './openingWindow.ts';

/** `count` questions, each answered with `answerLength` characters. */
function conversation(count: number, answerLength: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i): ChatMessage[] => [
    { id: `u${i}`, role: 'user', text: `Question ${i}`, createdAt: 0 },
    answerMessage(`a${i}`, { status: 'complete', text: 'x'.repeat(answerLength) }),
  ]).flat();
}

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

describe('openingAtEnd', () => {
  it('renders at once the last answers that fill the view, the rest later', () => {
    // An answer of 5,000 characters is taller than the view on its own.
    expect(openingAtEnd(conversation(50, 5_000), desktop)).toEqual({ mountFrom: 99, from: 99, to: 100 });
    // Short answers: as many as fill it.
    const short = openingAtEnd(conversation(50, 200), desktop);
    expect(short.mountFrom).toBeGreaterThan(80);
    expect(short.mountFrom).toBeLessThan(96);
    expect(short).toEqual({ mountFrom: short.mountFrom, from: short.mountFrom, to: 100 });
  });

  it('counts a narrow column’s lines: more of the same text fills a phone', () => {
    const messages = conversation(50, 1_000);
    expect(openingAtEnd(messages, phone).mountFrom).toBeGreaterThan(
      openingAtEnd(messages, desktop).mountFrom,
    );
    const tall = { width: 1280, height: 2_000 };
    expect(openingAtEnd(messages, tall).mountFrom).toBeLessThan(openingAtEnd(messages, desktop).mountFrom);
  });

  it('renders everything at once when all of it fits the view', () => {
    expect(openingAtEnd(conversation(2, 100), desktop)).toEqual({ mountFrom: 0, from: 0, to: 4 });
    expect(openingAtEnd([], desktop)).toEqual({ mountFrom: 0, from: 0, to: 0 });
  });

  it('counts a tool result as nothing of its own (it shows inside its call)', () => {
    const result: ChatMessage = {
      id: 't',
      role: 'tool',
      toolCallId: 'c',
      name: 'f',
      content: 'x'.repeat(100_000),
      createdAt: 0,
    };
    expect(openingAtEnd([...conversation(3, 100), result], desktop).mountFrom).toBe(0);
  });
});

describe('openingAt a saved place', () => {
  it('renders every message at once, and the markdown around the place', () => {
    expect(openingAt(40)).toEqual({ mountFrom: 0, from: 38, to: 44 });
  });
});

describe('mountedAfterStep', () => {
  it('adds 25 messages a task, down to the first', () => {
    expect(mountedAfterStep(99)).toBe(74);
    expect(mountedAfterStep(24)).toBe(0);
    expect(mountedAfterStep(0)).toBe(0);
  });
});
