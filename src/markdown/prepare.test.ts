import { describe, expect, it, vi } from 'vitest';
import { prepareAnswer } from './prepare.ts';
import { createMarkdownProcessor } from './processor.ts';
import { answerOfEveryBlock as answer } from './testing/answerOfEveryBlock.ts';

const drain = (steps: Iterable<void>) => [...steps].length;

describe('processor.prepare', () => {
  it('hands a prepared tree to the next toHast of the same source, once', () => {
    const processor = createMarkdownProcessor();
    const tree = processor.prepare('Some *prose*');
    expect(processor.toHast('Some *prose*')).toBe(tree);
    const again = processor.toHast('Some *prose*');
    expect(again).not.toBe(tree);
    expect(again).toEqual(tree);
  });

  it('keeps a prepared tree from a render with formulas rendered', () => {
    const processor = createMarkdownProcessor();
    const tree = processor.prepare('plain');
    const math = { rehypeFormulas: (() => () => {}) as never };
    expect(processor.toHast('plain', math)).not.toBe(tree);
    expect(processor.toHast('plain')).toBe(tree);
  });
});

describe('prepareAnswer', () => {
  it('prepares each block a step at a time, the fenced code not at all (six blocks, five steps)', () => {
    const processor = createMarkdownProcessor();
    const prepare = vi.spyOn(processor, 'prepare');
    expect(drain(prepareAnswer(answer, processor))).toBe(5);
    const sources = prepare.mock.calls.map(([source]) => source);
    expect(sources.some((source) => source.includes('never parsed'))).toBe(false);
    // The table in groups of rows, as its render parses it.
    expect(sources.filter((source) => source.startsWith('| n | name |'))).toHaveLength(3);
  });

  it('prepares an answer with definitions whole, and leaves one with formulas to KaTeX', () => {
    const processor = createMarkdownProcessor();
    const prepare = vi.spyOn(processor, 'prepare');
    const cited = 'As said [1].\n\n- a list\n\n[1]: https://example.com';
    drain(prepareAnswer(cited, processor));
    expect(prepare.mock.calls).toEqual([[cited]]);
    prepare.mockClear();
    expect(drain(prepareAnswer('Euler: $e^{i\\pi} = -1$', processor))).toBe(0);
    expect(prepare).not.toHaveBeenCalled();
  });
});
