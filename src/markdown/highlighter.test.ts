import { describe, expect, it, vi } from 'vitest';
import { createHighlighter } from './highlighter.ts';

/** A worker that records what the page asks of it, and answers or fails when told. */
class FakeWorker extends EventTarget {
  readonly requests: { id: number; code: string; language: string }[] = [];
  readonly terminate = vi.fn();
  postMessage(request: { id: number; code: string; language: string }) {
    this.requests.push(request);
  }
  answer(id: number, chunks: unknown) {
    this.dispatchEvent(Object.assign(new Event('message'), { data: { id, chunks } }));
  }
  fail() {
    this.dispatchEvent(new Event('error'));
  }
}

const fakeWorker = () => {
  const worker = new FakeWorker();
  const start = vi.fn(() => worker as unknown as Worker);
  return { worker, start };
};

describe('the highlighter', () => {
  it('starts its worker with the first request, not before, and hands it every request', async () => {
    const { worker, start } = fakeWorker();
    const highlighter = createHighlighter(start);
    expect(start).not.toHaveBeenCalled();
    const first = highlighter.highlight('const a = 1;', 'js');
    const second = highlighter.highlight('b = 2', 'py');
    expect(start).toHaveBeenCalledTimes(1);
    expect(worker.requests.map((r) => r.language)).toEqual(['js', 'py']);
    worker.answer(worker.requests[1]!.id, [['b = 2']]);
    worker.answer(worker.requests[0]!.id, [[['hljs-keyword', 'const'], ' a = 1;']]);
    expect(await first).toEqual([[['hljs-keyword', 'const'], ' a = 1;']]);
    expect(await second).toEqual([['b = 2']]);
  });

  it('asks nothing for code without a language', async () => {
    const { start } = fakeWorker();
    expect(await createHighlighter(start).highlight('x', '')).toBeNull();
    expect(start).not.toHaveBeenCalled();
  });

  it('highlights on the page where there is no worker, with the same grammars', async () => {
    const highlighter = createHighlighter(() => null);
    expect(await highlighter.highlight('const answer = 42;', 'js')).toEqual([
      [['hljs-keyword', 'const'], ' answer = ', ['hljs-number', '42'], ';'],
    ]);
    expect(await highlighter.highlight('x', 'nosuchlang')).toBeNull();
  });

  it('hands what is waiting to the page when its worker dies', async () => {
    const { worker, start } = fakeWorker();
    const highlighter = createHighlighter(start);
    const waiting = highlighter.highlight('let x;', 'js');
    worker.fail();
    expect(await waiting).toEqual([[['hljs-keyword', 'let'], ' x;']]);
    expect(await highlighter.highlight('var y;', 'js')).toEqual([[['hljs-keyword', 'var'], ' y;']]);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('terminates its worker when disposed; what waits, and what is asked later, stays plain', async () => {
    const { worker, start } = fakeWorker();
    const highlighter = createHighlighter(start);
    const waiting = highlighter.highlight('let x;', 'js');
    highlighter.dispose();
    expect(worker.terminate).toHaveBeenCalledTimes(1);
    expect(await waiting).toBeNull();
    expect(await highlighter.highlight('let y;', 'js')).toBeNull();
    expect(start).toHaveBeenCalledTimes(1);
  });
});
