import { render, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarkdownEngine } from '../../markdown/engine.ts';
import { MAX_NESTING, tooDeepAt } from '../../markdown/nesting.ts';
import { createEngine, Markdown } from './Markdown.tsx';

let engine: MarkdownEngine;
beforeEach(() => {
  engine = createEngine();
});
afterEach(() => engine.dispose());

/** The deepest element nesting under `root`. */
function depthOf(root: Element): number {
  let deepest = 0;
  const walk = (element: Element, depth: number) => {
    deepest = Math.max(deepest, depth);
    for (const child of element.children) walk(child, depth + 1);
  };
  walk(root, 0);
  return deepest;
}

/** Words of the source: each must still be on the page, parsed or not. */
const words = (source: string) => source.match(/[A-Za-z]\w+/g) ?? [];

describe('hostile markdown', () => {
  it('5,000 nested quotes neither overflow the stack nor build 5,000 nested elements', () => {
    const text = `${'>'.repeat(5_000)} deep text\n\nAfter it.`;
    const { container } = render(<Markdown engine={engine} text={text} />);
    expect(container).toHaveTextContent('deep text');
    expect(container).toHaveTextContent('After it.');
    expect(depthOf(container)).toBeLessThan(MAX_NESTING + 10);
  });

  it('a staircase of 600 ever deeper quotes, text on each line, stays bounded too', {
    timeout: 20_000,
  }, () => {
    const text = Array.from({ length: 600 }, (_, i) => `${'> '.repeat(i + 1)}level${i}`).join('\n');
    const { container } = render(<Markdown engine={engine} text={text} />);
    expect(depthOf(container)).toBeLessThan(2 * MAX_NESTING + 10);
    expect(container).toHaveTextContent('level0');
    expect(container).toHaveTextContent('level599');
  });

  it('a 500-level nested list shows its shallow levels as a list and the rest as plain text', () => {
    const text = Array.from({ length: 500 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    const { container } = render(<Markdown engine={engine} text={text} />);
    const lists = container.querySelectorAll('ul');
    expect(lists.length).toBeGreaterThan(5);
    expect(lists.length).toBeLessThanOrEqual(MAX_NESTING);
    expect(depthOf(container)).toBeLessThan(3 * MAX_NESTING);
    expect(container.querySelector('.md-too-deep')).toHaveTextContent('item 499');
    expect(container).toHaveTextContent('item 0');
  });

  it('any mix of quotes, lists and indentation renders, bounded, with every word kept', {
    timeout: 20_000,
  }, () => {
    const marker = fc.constantFrom('> ', '- ', '* ', '1. ', '  ', '\t', '>', '+ ');
    const line = fc.tuple(fc.array(marker, { maxLength: 400 }), fc.stringMatching(/^[a-z]{2,8}$/));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        const text = lines.map(([prefix, word]) => `${prefix.join('')}${word}`).join('\n');
        const { container, unmount } = render(<Markdown engine={engine} text={text} />);
        try {
          expect(depthOf(container)).toBeLessThan(4 * MAX_NESTING + 20);
          for (const word of words(text)) expect(container.textContent).toContain(word);
        } finally {
          unmount();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('ordinary nesting is left alone', () => {
    const text = '> quote\n> > nested\n\n- a\n  - b\n    - c\n      1. d';
    expect(tooDeepAt(text)).toBe(-1);
    const { container } = render(<Markdown engine={engine} text={text} />);
    expect(container.querySelectorAll('blockquote')).toHaveLength(2);
    expect(container.querySelectorAll('ul, ol')).toHaveLength(4);
    expect(container.querySelector('.md-too-deep')).toBeNull();
  });

  // Room for a loaded CI machine: highlighting 100 kB under jsdom takes seconds there.
  it('a 100 kB code block streams as plain lines and is highlighted once, when it closes', {
    timeout: 60_000,
  }, async () => {
    const line = (i: number) => `const value${i} = compute(${i}); // line ${i}`;
    const lines = Array.from({ length: 2_500 }, (_, i) => line(i));
    let text = 'Code:\n\n```ts\n';
    const { container, rerender } = render(<Markdown engine={engine} streaming text={text} />);
    for (let i = 0; i < lines.length; i += 250) {
      text += `${lines.slice(i, i + 250).join('\n')}\n`;
      rerender(<Markdown engine={engine} streaming text={text} />);
      expect(container.querySelector('[class^="hljs-"]')).toBeNull();
    }
    expect(text.length).toBeGreaterThan(100_000);
    text += '```\n\nDone.';
    rerender(<Markdown engine={engine} text={text} />);
    const code = container.querySelector('pre code')!;
    await waitFor(() => expect(code.textContent).toBe(lines.join('\n')), { timeout: 20_000 });
    await waitFor(() => expect(code.querySelectorAll('.hljs-keyword')).toHaveLength(lines.length), {
      timeout: 20_000,
    });
    expect(code.textContent).toBe(lines.join('\n'));
  });
});

describe('a code fence’s info string', () => {
  it('cannot add classes to the code element, at the margin or inside a list', () => {
    const text = '```js\fhidden md-too-deep\nlet a;\n```\n\n- item\n\n  ```py\fhidden\n  x = 1\n  ```';
    const { container } = render(<Markdown engine={engine} text={text} />);
    const codes = container.querySelectorAll('pre code');
    expect(codes).toHaveLength(2);
    for (const code of codes) {
      expect(code).not.toHaveClass('hidden');
      expect(code).not.toHaveClass('md-too-deep');
    }
    expect(codes[0]).toHaveClass('language-js');
    expect(codes[1]).toHaveClass('language-py');
  });
});
