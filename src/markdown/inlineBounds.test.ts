import fc from 'fast-check';
import type { Nodes, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { INLINE_BOUNDS, inlineBoundAt, inlineRuns } from './inlineBounds.ts';
import { tooDeepAt } from './nesting.ts';
import { createMarkdownProcessor } from './processor.ts';
import { tableRows, tableTree } from './table.ts';

const processor = createMarkdownProcessor();

/** The deepest nesting of elements in `node`. */
function depthOf(node: Nodes): number {
  if (!('children' in node)) return 0;
  let deepest = 0;
  for (const child of node.children) deepest = Math.max(deepest, depthOf(child));
  return deepest + (node.type === 'element' ? 1 : 0);
}

function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((child) => textOf(child)).join('') : '';
}

/** The text shown as written at the end of `tree`, if any. */
function writtenOf(tree: Root): string | null {
  const last = tree.children.at(-1);
  return last?.type === 'element' && last.properties.className?.toString() === 'md-too-deep'
    ? textOf(last)
    : null;
}

/** What reaches the parser is within the bounds, measured run by run. */
function expectWithinBounds(parsed: string): void {
  const { runs, cut } = inlineRuns(parsed);
  expect(cut).toBe(-1);
  for (const { measure } of runs) {
    expect(measure.longestRun).toBeLessThanOrEqual(INLINE_BOUNDS.maxRun);
    expect(measure.lines).toBeLessThanOrEqual(INLINE_BOUNDS.maxLines);
    expect(measure.pairWork).toBeLessThanOrEqual(INLINE_BOUNDS.maxPairWork);
    expect(measure.scanWork).toBeLessThanOrEqual(INLINE_BOUNDS.maxScanWork);
    expect(measure.length).toBeLessThanOrEqual(INLINE_BOUNDS.maxLength + 1);
  }
}

describe('inline bounds', () => {
  it('4,000 `*` around a letter are shown as written, not parsed into 2,000 nested elements', () => {
    const text = `Before.\n${'*'.repeat(4_000)}a${'*'.repeat(4_000)}`;
    const tree = processor.toHast(text);
    expect(depthOf(tree)).toBeLessThan(10);
    expect(writtenOf(tree)).toBe(text.slice('Before.\n'.length));
    expect(textOf(tree)).toContain('Before.');
  });

  it('nested emphasis, links and images past the bounds are shown as written from their line on', () => {
    const hostile = [
      `${'*a _b '.repeat(3_000)}${'b_ a* '.repeat(3_000)}`,
      `${'!['.repeat(2_000)}a${']()'.repeat(2_000)}`,
      `${'[a'.repeat(2_000)}${'](b)'.repeat(2_000)}`,
      `${'*a _b\n'.repeat(3_000)}${'b_ a*\n'.repeat(3_000)}`,
      Array.from({ length: 16 }, (_, i) => `${'`'.repeat(i + 1)}a`).join('') + 'text '.repeat(20_000),
      `${'Lorem ipsum dolor sit amet. a <!-- '.repeat(3_000)}`,
    ];
    for (const text of hostile) {
      const source = `# Title\n\nFine *text*.\n\n${text}`;
      const cut = inlineBoundAt(source);
      expect(cut).toBeGreaterThan(0);
      expectWithinBounds(source.slice(0, cut));
      const tree = processor.toHast(source);
      expect(depthOf(tree)).toBeLessThan(60);
      expect(writtenOf(tree)).toBe(source.slice(cut));
    }
  });

  it('an answer streaming line by line is cut at the same line on every frame once past a bound', () => {
    const lines = Array.from({ length: 400 }, (_, i) => (i < 200 ? `*a _b ${i}` : `b_ a* ${i}`));
    const full = `Intro with a [link](https://example.com).\n${lines.join('\n')}`;
    const cutOfFull = inlineBoundAt(full);
    expect(cutOfFull).toBeGreaterThan(0);
    const cutLineEnd = full.indexOf('\n', cutOfFull);
    for (let end = 0; end <= full.length; end += 97) {
      const cut = inlineBoundAt(full.slice(0, end));
      if (end >= cutLineEnd) expect(cut).toBe(cutOfFull);
      else expect([-1, cutOfFull]).toContain(cut);
    }
  });

  it('ordinary answers are parsed whole, also a long paragraph rich in links, code and emphasis', () => {
    const sentence = (i: number) =>
      `See **item ${i}** in [the docs](https://example.com/docs/${i}?a_b=c), call \`run_${i}()\` or _skip_ it. `;
    const answers = [
      '# Title\n\nSome *text*, **bold**, `code` and a [link](https://example.com).\n\n- one\n- two\n\n> a quote',
      Array.from({ length: 60 }, (_, i) => sentence(i)).join(''),
      Array.from({ length: 300 }, (_, i) => `- ${sentence(i)}`).join('\n'),
      `| a | b |\n| - | - |\n${Array.from({ length: 200 }, (_, i) => `| ${sentence(i)} | **${i}** |`).join('\n')}`,
      'snake_case_name and another_one, 2*3*4 = 24, a <b> tag, <https://example.com>, x < y > z.\n'.repeat(
        20,
      ),
      `Code:\n\n\`\`\`c\n${'int **argv; *p++ = **q; [x] <y>\n'.repeat(500)}\`\`\``,
    ];
    for (const text of answers) expect(inlineBoundAt(text)).toBe(-1);
  });

  it('a table whose group of rows goes past a bound keeps every row, the rest shown as written', () => {
    const rows = Array.from({ length: 12 }, (_, i) =>
      i === 9 ? `| ${'*'.repeat(40)}a${'*'.repeat(40)} | x |` : `| row ${i} | x |`,
    );
    const source = `| a | b |\n| - | - |\n${rows.join('\n')}`;
    const table = tableRows(source)!;
    expect(tableTree(table, (group) => processor.toHast(group), new Map())).toBeNull();
    const tree = processor.toHast(source);
    for (let i = 0; i < 12; i++) if (i !== 9) expect(textOf(tree)).toContain(`row ${i}`);
    expect(textOf(tree)).toContain(`${'*'.repeat(40)}a`);
  });

  it('any string of inline syntax up to 100 kB: the parser gets only what is within the bounds, the rest shown as written', {
    timeout: 120_000,
  }, () => {
    const piece = fc.oneof(
      fc.constantFrom(...'*_[]()`<>!'.split('')),
      fc.constantFrom('a', ' ', '\n', '\n\n', '- ', '> ', '](', '<!--', '**', '``', 'www.x'),
      fc.integer({ min: 1, max: 40 }).map((n) => '*'.repeat(n)),
    );
    const text = fc
      .tuple(fc.array(piece, { minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 1_000 }))
      .map(([pieces, times]) => pieces.join('').repeat(times).slice(0, 100_000));
    fc.assert(
      fc.property(text, (source) => {
        const cut = inlineBoundAt(source);
        const parsed = cut === -1 ? source : source.slice(0, cut);
        expectWithinBounds(parsed);
        const tree = processor.toHast(source);
        // Deep block nesting (`> > > …`) is bounded before blocks reach the processor (`tooDeepAt`).
        if (tooDeepAt(source) === -1) expect(depthOf(tree)).toBeLessThan(100);
        expect(writtenOf(tree) ?? '').toBe(cut === -1 ? '' : source.slice(cut));
      }),
      { numRuns: 30 },
    );
  });
});
