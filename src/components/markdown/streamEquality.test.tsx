import { render, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarkdownEngine } from '../../markdown/engine.ts';
import { createEngine, Markdown } from './Markdown.tsx';

let engine: MarkdownEngine;
beforeEach(() => {
  engine = createEngine();
});
afterEach(() => engine.dispose());

/** Prose, a list with code inside, a table, a quote and a long code fence that is not the last block. */
const document = [
  '# Streaming report',
  '',
  'Some **bold** prose with `inline code` and a [link](https://example.com).',
  '',
  '- first item',
  '- second item with code:',
  '',
  '  ```js',
  '  const nested = true;',
  '  ```',
  '',
  '| Name | Value |',
  '| ---- | ----: |',
  ...Array.from({ length: 12 }, (_, i) => `| row ${i} | ${i * 7} |`),
  '',
  'Text right before the fence:',
  '```ts',
  ...Array.from({ length: 130 }, (_, i) => `export const value${i}: number = ${i}; // "${i}"`),
  '```',
  'Text right after the fence.',
  '',
  '> A quote',
  '> over two lines.',
  '',
  '~~~',
  'a fence of tildes, left open at the end',
].join('\n');

/** The rendered DOM once every code block has its colours. */
async function settled(container: HTMLElement): Promise<string> {
  await waitFor(() => {
    expect(container.querySelector('[aria-busy]')).toBeNull();
    for (const code of container.querySelectorAll('code.language-js, code.language-ts'))
      expect(code).toHaveClass('hljs');
  });
  return container.innerHTML;
}

describe('streaming ends where a one-shot render starts', () => {
  it('the final DOM after streaming in any pieces equals a one-shot render of the same text', {
    timeout: 30_000,
  }, async () => {
    const once = render(<Markdown engine={engine} text={document} />);
    const expected = await settled(once.container);
    once.unmount();
    expect(expected).toContain('hljs-keyword');
    expect(expected).toContain('<table');

    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: document.length - 1 }), { minLength: 5, maxLength: 40 }),
        async (cuts) => {
          const points = [...cuts.sort((a, b) => a - b), document.length];
          const view = render(<Markdown engine={engine} streaming text={document.slice(0, points[0])} />);
          try {
            for (const point of points)
              view.rerender(<Markdown engine={engine} streaming text={document.slice(0, point)} />);
            view.rerender(<Markdown engine={engine} text={document} />);
            expect(await settled(view.container)).toBe(expected);
          } finally {
            view.unmount();
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
