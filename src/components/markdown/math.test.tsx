import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMarkdownEngine, type MarkdownEngine } from '../../markdown/engine.ts';
import { MAX_FORMULA_LENGTH } from '../../markdown/mathSyntax.ts';
import { createEngine, Markdown } from './Markdown.tsx';

// Each test's own engine: KaTeX has not arrived for it yet.
let engine: MarkdownEngine;
beforeEach(() => {
  engine = createEngine();
});
afterEach(() => engine.dispose());

/** Renders `text` and waits until its formulas are KaTeX's (the renderer is fetched on first need). */
async function renderMath(text: string, count = 1) {
  const view = render(<Markdown engine={engine} text={text} />);
  await waitFor(() => expect(view.container.querySelectorAll('.katex')).toHaveLength(count));
  return view.container;
}

/** The TeX KaTeX read, from the MathML it gives screen readers. */
const texOf = (container: Element) =>
  [...container.querySelectorAll('annotation[encoding="application/x-tex"]')].map((a) => a.textContent);

describe('formulas in answers', () => {
  it('renders inline and displayed formulas with KaTeX, MathML included for screen readers', async () => {
    const container = await renderMath(
      'Energy $E=mc^2$ and \\(\\alpha\\).\n\n$$\n\\int_0^1 x^2\\,dx\n$$\n\n\\[ \\sqrt{2} \\]',
      4,
    );
    expect(texOf(container)).toEqual(['E=mc^2', '\\alpha', '\\int_0^1 x^2\\,dx', '\\sqrt{2}']);
    // Displayed formulas may scroll sideways, so they can be reached from the keyboard.
    const displayed = [...container.querySelectorAll('.katex-display')];
    expect(displayed.map((d) => d.getAttribute('tabindex'))).toEqual(['0', '0']);
    expect(container.querySelector('math')).not.toBeNull();
    // The visual rendering is hidden from screen readers, which read the MathML.
    expect(container.querySelector('.katex-html')).toHaveAttribute('aria-hidden', 'true');
    expect(container).not.toHaveTextContent('$');
  });

  it('keeps prices as text', async () => {
    const container = await renderMath(
      'It costs $5 and $10, between $3 and $4 million; US$10; not \\$x\\$; $y$.',
    );
    expect(texOf(container)).toEqual(['y']);
    expect(container).toHaveTextContent('It costs $5 and $10, between $3 and $4 million; US$10; not $x$;');
  });

  it('leaves code alone', async () => {
    const container = await renderMath('`$a$` and $b$\n\n```\n$c$\n```');
    expect(texOf(container)).toEqual(['b']);
    expect(screen.getByText('$a$').tagName).toBe('CODE');
    expect(container.querySelector('pre')).toHaveTextContent('$c$');
  });

  it('shows bad TeX as written instead of throwing', async () => {
    // An unknown command is marked inside its formula; a formula KaTeX cannot read at all shows as TeX.
    const container = await renderMath('Broken: $\\frac{1}{$ and $\\nosuchcommand{x}$ here', 1);
    await waitFor(() => expect(container.querySelectorAll('.katex-error')).toHaveLength(1));
    expect(container).toHaveTextContent('Broken: \\frac{1}{ and');
    expect(texOf(container)).toEqual(['\\nosuchcommand{x}']);
  });

  it('a formula inside a table cell may hold a pipe', async () => {
    const container = await renderMath('| a | b |\n| - | - |\n| $|x|$ | 2 |');
    expect(container.querySelectorAll('td')).toHaveLength(2);
    expect(texOf(container)).toEqual(['|x|']);
  });

  it('a formula where none can be shown stays as written (a link URL, raw HTML)', async () => {
    const container = await renderMath('[$x$](https://example.com/$a$/) <b title="$c$">$d$</b>', 2);
    expect(screen.getByRole('link')).toHaveAttribute('href', 'https://example.com/$a$/');
    expect(container).toHaveTextContent('<b title="$c$">');
    expect(texOf(container)).toEqual(['x', 'd']);
  });

  it('a displayed formula still arriving shows as text until it closes', async () => {
    const { container, rerender } = render(
      <Markdown engine={engine} text={'Look:\n\n$$\n\\int_0^1 x'} streaming />,
    );
    expect(container).toHaveTextContent('$$ \\int_0^1 x');
    rerender(<Markdown engine={engine} text={'Look:\n\n\\[ \\int_0^1 x'} streaming />);
    expect(container).toHaveTextContent('\\[ \\int_0^1 x');
    expect(container.querySelector('.katex, code')).toBeNull();
    rerender(<Markdown engine={engine} text={'Look:\n\n\\[ \\int_0^1 x \\]'} streaming />);
    await waitFor(() => expect(texOf(container)).toEqual(['\\int_0^1 x']));
  });
});

describe('hostile formulas', () => {
  it('follows no link and runs no HTML from TeX', async () => {
    const container = await renderMath(
      '$\\href{javascript:alert(1)}{x}$ $\\url{https://evil.example}$ $\\htmlId{x}{y}$',
      3,
    );
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('#x')).toBeNull();
  });

  it('caps sizes and macro expansion', async () => {
    const bomb =
      '\\def\\a{xxxxxxxxxx}\\def\\b{\\a\\a\\a\\a\\a\\a\\a\\a\\a\\a}\\def\\c{\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b}\\c\\c\\c';
    const container = await renderMath(`$\\rule{100000em}{1em}$ $${bomb}$`, 1);
    const rule = container.querySelector<HTMLElement>('.katex .rule');
    expect(Number.parseFloat(rule?.style.borderRightWidth ?? '')).toBeLessThanOrEqual(50);
    await waitFor(() => expect(container.querySelectorAll('.katex-error')).toHaveLength(1));
  });

  it('deep nesting within the limit renders; a formula past the limit stays text', async () => {
    const deep = `${'\\sqrt{'.repeat(200)}x${'}'.repeat(200)}`;
    expect(deep.length).toBeLessThanOrEqual(MAX_FORMULA_LENGTH);
    const long = `$${'x+'.repeat(MAX_FORMULA_LENGTH)}$`;
    const container = await renderMath(`$${deep}$\n\n${long}`, 1);
    expect(container).toHaveTextContent(long);
  });
});

describe('fetching KaTeX', () => {
  it('happens for the first formula, not for answers without one', async () => {
    const fetched = vi.fn(() => import('./mathRenderer.ts'));
    const own = createMarkdownEngine(fetched);
    const { container, rerender } = render(<Markdown engine={own} text={'It costs $5 and $10.\n\n`$x$`'} />);
    await vi.dynamicImportSettled();
    expect(fetched).not.toHaveBeenCalled();
    // Until KaTeX is here, a formula of a streaming answer shows as its TeX.
    rerender(<Markdown engine={own} text={'It costs $5 and $10.\n\nNow $x^2$.'} streaming />);
    expect(container.querySelector('code.math-inline')).toHaveTextContent('x^2');
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(fetched).toHaveBeenCalledTimes(1);
    own.dispose();
  });

  it('a saved answer with formulas waits in its place, hidden, instead of showing its TeX', async () => {
    const { container } = render(<Markdown engine={engine} text={'Energy $E=mc^2$.'} />);
    expect(container.querySelector('.md-pending')).toHaveTextContent('Energy $E=mc^2$.');
    expect(container.querySelector('.md')).toBeNull();
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('.md-pending')).toBeNull();
  });

  it('a streaming answer is never held back: its TeX shows until KaTeX is here', () => {
    const { container } = render(<Markdown engine={engine} text={'Energy $E=mc^2$ and'} streaming />);
    expect(container.querySelector('.md-pending')).toBeNull();
    expect(container).toHaveTextContent('Energy');
  });

  it('one that cannot be fetched leaves the formulas as their TeX, shown', async () => {
    const offline = createMarkdownEngine(() => Promise.reject(new Error('Failed to fetch')));
    const { container } = render(<Markdown engine={offline} text={'Energy $E=mc^2$.'} />);
    await waitFor(() => expect(container.querySelector('.md-pending')).toBeNull());
    expect(container.querySelector('code.math-inline')).toHaveTextContent('E=mc^2');
    offline.dispose();
  });
});
