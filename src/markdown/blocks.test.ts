import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BlockScan, scanMarkdownBlocks, splitMarkdownBlocks } from './blocks.ts';

describe('splitMarkdownBlocks', () => {
  it('makes a fence at the margin a block of its own, from its opening to its closing line', () => {
    expect(splitMarkdownBlocks('Before:\n```ts\nconst a = 1;\n\nconst b = 2;\n```\nAfter.\n- item')).toEqual([
      'Before:',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      'After.\n- item',
    ]);
    // Indented (inside a list item) or inside raw HTML, it stays where it is.
    expect(splitMarkdownBlocks('- item\n  ```\n  code\n  ```\n  more')).toEqual([
      '- item\n  ```\n  code\n  ```\n  more',
    ]);
    expect(splitMarkdownBlocks('<div>\n```\nx\n```\n</div>')).toEqual(['<div>\n```\nx\n```\n</div>']);
  });

  it('splits on blank lines and drops empty blocks', () => {
    expect(splitMarkdownBlocks('\n\n# Title\n\nFirst para\nstill first\n\n\n\nSecond\n\n')).toEqual([
      '# Title',
      'First para\nstill first',
      'Second',
    ]);
    expect(splitMarkdownBlocks('')).toEqual([]);
    expect(splitMarkdownBlocks('\n  \n')).toEqual([]);
  });

  it('never splits inside a fenced code block, backticks or tildes, closed or not', () => {
    const fenced = '```js\nconst a = 1;\n\n\nconst b = 2;\n```';
    const tildes = '~~~\nx\n\n```\n\ny\n~~~';
    expect(splitMarkdownBlocks(`Intro\n\n${fenced}\n\n${tildes}\n\nOutro`)).toEqual([
      'Intro',
      fenced,
      tildes,
      'Outro',
    ]);
    expect(splitMarkdownBlocks('````\n```\n\nstill code\n````\n\nafter')).toEqual([
      '````\n```\n\nstill code\n````',
      'after',
    ]);
    // Unclosed (still streaming): everything after the opener stays in one block.
    expect(splitMarkdownBlocks('Intro\n\n```py\ndef f():\n\n    return 1\n\nprint(f())')).toEqual([
      'Intro',
      '```py\ndef f():\n\n    return 1\n\nprint(f())',
    ]);
  });

  it('does not treat inline code with backticks as a fence opener', () => {
    expect(splitMarkdownBlocks('```a`b```\n\nnext')).toEqual(['```a`b```', 'next']);
  });

  it('keeps a table in one block', () => {
    const table = '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |';
    expect(splitMarkdownBlocks(`Text\n\n${table}\n\nMore`)).toEqual(['Text', table, 'More']);
  });

  it('keeps indented continuations (list paragraphs, indented code) with the block above', () => {
    const list = '- item one\n\n  more of item one\n\n      indented code\n- item two';
    expect(splitMarkdownBlocks(`${list}\n\nAfter`)).toEqual([list, 'After']);
  });

  it('keeps a loose list at the margin in one block, up to what is not its next item', () => {
    const list = '1. one\n\n2. two\n\n   more of two\n\n3. three';
    expect(splitMarkdownBlocks(`${list}\n\nAfter`)).toEqual([list, 'After']);
    expect(splitMarkdownBlocks('Steps:\n- a\n\n- b')).toEqual(['Steps:\n- a\n\n- b']);
    // Another kind of marker starts another list; a thematic break is not an item.
    expect(splitMarkdownBlocks('- a\n\n+ b')).toEqual(['- a', '+ b']);
    expect(splitMarkdownBlocks('1. a\n\n2) b')).toEqual(['1. a', '2) b']);
    expect(splitMarkdownBlocks('- a\n\n- - -')).toEqual(['- a', '- - -']);
    expect(splitMarkdownBlocks('- a\n\nText\n\n- b')).toEqual(['- a', 'Text', '- b']);
  });

  it("waits for a line that may still become the list's next item", () => {
    expect(scanMarkdownBlocks('1. one\n\n2').closed).toEqual([]);
    expect(scanMarkdownBlocks('1. one\n\n2024 was').closed).toEqual(['1. one']);
    expect(scanMarkdownBlocks('- one\n\n-').closed).toEqual([]);
    expect(scanMarkdownBlocks('- one\n\n-5 degrees').closed).toEqual(['- one']);
    expect(scanMarkdownBlocks('Text\n\n2').closed).toEqual(['Text']);
  });

  it('handles CRLF line endings', () => {
    expect(splitMarkdownBlocks('a\r\n\r\n```\r\nx\r\n\r\ny\r\n```\r\n\r\nb')).toEqual([
      'a',
      '```\r\nx\r\n\r\ny\r\n```',
      'b',
    ]);
  });
});

describe('scanMarkdownBlocks (incremental)', () => {
  it('gives the same blocks however the text is chunked', () => {
    const pieces = fc.constantFrom(
      'word ',
      'text',
      '\n',
      '\n\n',
      '  ',
      '    code',
      '```',
      '```js',
      '~~~',
      '| a | b |',
      '- item',
      '1. item',
      '2',
      '-',
      '`',
      '\r\n',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (parts, cuts) => {
          const text = parts.join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          let scan: BlockScan | null = null;
          for (const point of [...points, text.length]) {
            scan = scanMarkdownBlocks(text.slice(0, point), scan);
            const blocks = scan.tail === '' ? [...scan.closed] : [...scan.closed, scan.tail];
            expect(blocks).toEqual(splitMarkdownBlocks(text.slice(0, point)));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps a list open while its next item has come up to the CR of a CRLF', () => {
    const early = scanMarkdownBlocks('- item\n\n-\r');
    expect(scanMarkdownBlocks('- item\n\n-\r\n', early).closed).toEqual([]);
    expect(splitMarkdownBlocks('- item\n\n-\r\n')).toEqual(['- item\n\n-']);
  });

  it('reuses finished blocks and resumes from the open block', () => {
    const first = scanMarkdownBlocks('One\n\nTwo\n\nThr');
    expect(first.closed).toEqual(['One', 'Two']);
    expect(first.tail).toBe('Thr');

    const second = scanMarkdownBlocks('One\n\nTwo\n\nThree, longer', first);
    // Same array: nothing new finished, so memoized consumers see no change.
    expect(second.closed).toBe(first.closed);
    expect(second.tail).toBe('Three, longer');
    expect(scanMarkdownBlocks(second.text, second)).toBe(second);

    const third = scanMarkdownBlocks(`${second.text}\n\nFour`, second);
    expect(third.closed).toEqual(['One', 'Two', 'Three, longer']);
    expect(third.tail).toBe('Four');
  });

  it('does not rescan the finished prefix', () => {
    // A stale scan whose finished part disagrees with the text proves only the open block is re-read:
    // a full rescan would report the real first block ("Real").
    const stale = scanMarkdownBlocks('Fake\n\nTail');
    const next = scanMarkdownBlocks('Real\n\nTail and more', stale);
    expect(next.closed).toEqual(['Fake']);
    expect(next.tail).toBe('Tail and more');
  });

  it('rescans from the start when the text is not a continuation', () => {
    const first = scanMarkdownBlocks('One\n\nTwo');
    expect(scanMarkdownBlocks('Other\n\nText', first).closed).toEqual(['Other']);
    expect(scanMarkdownBlocks('One', first).closed).toEqual([]);
  });
});
