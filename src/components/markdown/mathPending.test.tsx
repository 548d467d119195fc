// A file of its own: KaTeX must not have been fetched yet when these tests start.
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown.tsx';

describe('a saved answer with formulas before KaTeX has arrived', () => {
  it('waits in its place, hidden, instead of showing its TeX; then shows the formulas', async () => {
    const { container } = render(<Markdown text={'Energy $E=mc^2$.'} />);
    expect(container.querySelector('.md-pending')).toHaveTextContent('Energy $E=mc^2$.');
    expect(container.querySelector('.md')).toBeNull();
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('.md-pending')).toBeNull();
  });

  it('a streaming answer is never held back: its TeX shows until KaTeX is here', () => {
    const { container } = render(<Markdown text={'Energy $E=mc^2$ and'} streaming />);
    expect(container.querySelector('.md-pending')).toBeNull();
    expect(container).toHaveTextContent('Energy');
  });
});
