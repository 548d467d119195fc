import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

describe('LazyMarkdown', () => {
  it('shows the text as plain text until the renderer arrives, then as markdown', async () => {
    vi.resetModules();
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    vi.doMock('./Markdown.tsx', async () => {
      await arrived;
      return vi.importActual('./Markdown.tsx');
    });
    const { LazyMarkdown } = await import('./LazyMarkdown.tsx');

    const { container } = render(<LazyMarkdown text={'Some **bold**\nsecond line'} />);
    const plain = container.querySelector('.md-loading');
    expect(plain).toHaveTextContent('Some **bold** second line');
    expect(screen.queryByText('bold')).toBeNull();

    arrive();
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
    expect(container.querySelector('.md-loading')).toBeNull();
    vi.doUnmock('./Markdown.tsx');
  });
});
