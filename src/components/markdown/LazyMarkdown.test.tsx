import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Each test loads a fresh LazyMarkdown module (nothing loaded yet) with the renderer's import under control.
afterEach(() => {
  vi.doUnmock('./Markdown.tsx');
  vi.resetModules();
});

async function freshLazyMarkdown(markdownModule: () => Promise<unknown>) {
  vi.resetModules();
  vi.doMock('./Markdown.tsx', markdownModule);
  return (await import('./LazyMarkdown.tsx')).LazyMarkdown;
}

describe('LazyMarkdown', () => {
  it('warms the renderer up once it has arrived, when the page is idle', async () => {
    const warmUp = vi.fn();
    vi.resetModules();
    vi.doMock('./Markdown.tsx', async () => ({ ...(await vi.importActual('./Markdown.tsx')), warmUp }));
    const { preloadMarkdown } = await import('./LazyMarkdown.tsx');
    await preloadMarkdown();
    await waitFor(() => expect(warmUp).toHaveBeenCalledTimes(1));
  });

  it('shows plain text until the renderer arrives, then markdown, then stays mounted', async () => {
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const LazyMarkdown = await freshLazyMarkdown(async () => {
      await arrived;
      return vi.importActual('./Markdown.tsx');
    });

    const { container, rerender } = render(<LazyMarkdown text={'Some **bold**\nsecond line'} streaming />);
    expect(container.querySelector('.md-loading')?.textContent).toBe('Some **bold**\nsecond line');
    expect(screen.queryByText('bold')).toBeNull();

    arrive();
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
    expect(container.querySelector('.md-loading')).toBeNull();
    const rendered = container.querySelector('.md');
    // More text streams in: the same rendered answer is updated, not rebuilt.
    rerender(<LazyMarkdown text={'Some **bold**\nsecond line and more'} streaming />);
    expect(container.querySelector('.md')).toBe(rendered);
    expect(rendered).toHaveTextContent('second line and more');
  });

  it('keeps the plain text when the renderer cannot be fetched', async () => {
    const LazyMarkdown = await freshLazyMarkdown(async () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { preloadMarkdown } = await import('./LazyMarkdown.tsx');

    const { container } = render(<LazyMarkdown text="Still **readable**" />);
    // A saved answer waits for the renderer in its place, invisible, rather than flash as plain text…
    expect(container.querySelector('.md-loading.md-pending')).toHaveTextContent('Still **readable**');
    expect(await preloadMarkdown()).toBeNull();
    // …and shows as plain text once the renderer cannot be had.
    await waitFor(() => expect(container.querySelector('.md-pending')).toBeNull());
    expect(container.querySelector('.md-loading')).toHaveTextContent('Still **readable**');
    expect(container).not.toHaveTextContent('could not be displayed');
  });
});
