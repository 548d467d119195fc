import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMarkdownProcessor } from '../markdown/processor.ts';
import type { ChatMessage, Conversation } from '../state/domain/types.ts';
import { answerMessage } from '../testing/builders.ts';
import { prepareFirstScreen } from './prepareFirstScreen.ts';

/** Ten questions, each answered in about 2 kB: the view shows the last answer or two. */
function conversation(): Conversation {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < 10; i++) {
    const text = `Answer ${i}: ${'words of an answer '.repeat(100)}`;
    messages.push({ id: `u${i}`, role: 'user', text: `Question ${i}`, createdAt: 0 });
    messages.push(answerMessage(`a${i}`, { status: 'complete', text }));
  }
  return { id: 'c', title: 'Ten', createdAt: 0, updatedAt: 0, messages };
}

const viewport = { width: 1280, height: 800 };

afterEach(() => vi.restoreAllMocks());

describe('prepareFirstScreen', () => {
  it('parses the answers the first screen shows, and none of those above it', async () => {
    const processor = createMarkdownProcessor();
    const prepare = vi.spyOn(processor, 'prepare');
    await prepareFirstScreen(conversation(), processor, viewport);
    const prepared = prepare.mock.calls.map(([source]) => source.slice(0, 'Answer 9'.length));
    expect(prepared).toContain('Answer 9');
    expect(prepared).not.toContain('Answer 0');
  });

  it('leaves an answer it cannot parse to its render, and the start goes on', async () => {
    const processor = createMarkdownProcessor();
    vi.spyOn(processor, 'prepare').mockImplementation(() => {
      throw new Error('parser broke');
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(prepareFirstScreen(conversation(), processor, viewport)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
  });
});
