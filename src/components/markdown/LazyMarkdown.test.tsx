import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { LazyMarkdown, markdownRenderer } from './LazyMarkdown.tsx';

// Each test's app fetches the renderer anew: its import is under the test's control.
let app: TestApp;
beforeEach(() => {
  app = createTestApp();
});
afterEach(() => {
  vi.doUnmock('./Markdown.tsx');
  vi.unstubAllGlobals();
});

const actual = () => vi.importActual<typeof import('./Markdown.tsx')>('./Markdown.tsx');

describe('LazyMarkdown', () => {
  it('warms the renderer up once it has arrived, a small piece in each idle moment', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
    vi.stubGlobal('cancelIdleCallback', () => {});
    const renderer = await markdownRenderer(app.markdown).load();
    const parse = vi.spyOn(renderer!.engine.processor, 'toHast');
    expect(idle).toHaveLength(1);
    expect(parse).not.toHaveBeenCalled();
    // Each idle moment parses one piece and asks for the next moment.
    idle[0]!();
    expect(parse).toHaveBeenCalledTimes(1);
    expect(idle).toHaveLength(2);
    idle[1]!();
    expect(parse).toHaveBeenCalledTimes(2);
    while (idle.length > parse.mock.calls.length) idle[idle.length - 1]!();
    const pieces = parse.mock.calls.map(([text]) => text);
    // Together the pieces run the common constructs: a heading, a list, a quote, a table.
    expect(pieces.join('\n\n')).toMatch(/^# .*\n[\s\S]*^- [\s\S]*^> [\s\S]*^\| /m);
    app.markdown.dispose();
  });

  it('stops warming up when the app is disposed', async () => {
    const idle = new Map<number, () => void>();
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.set(idle.size + 1, work) && idle.size);
    vi.stubGlobal('cancelIdleCallback', (id: number) => idle.delete(id));
    const renderer = await markdownRenderer(app.markdown).load();
    const parse = vi.spyOn(renderer!.engine.processor, 'toHast');
    idle.get(1)!();
    expect(idle.has(2)).toBe(true);
    app.markdown.dispose();
    expect(idle.has(2)).toBe(false);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('shows plain text until the renderer arrives, then markdown, then stays mounted', async () => {
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    vi.doMock('./Markdown.tsx', async () => {
      await arrived;
      return actual();
    });

    const { container, rerender } = app.render(
      <LazyMarkdown text={'Some **bold**\nsecond line'} streaming />,
    );
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
    vi.doMock('./Markdown.tsx', async () => {
      throw new Error('Failed to fetch dynamically imported module');
    });

    const { container } = app.render(<LazyMarkdown text="Still **readable**" />);
    // A saved answer waits for the renderer in its place, invisible, rather than flash as plain text…
    expect(container.querySelector('.md-loading.md-pending')).toHaveTextContent('Still **readable**');
    expect(await markdownRenderer(app.markdown).load()).toBeNull();
    // …and shows as plain text once the renderer cannot be had.
    await waitFor(() => expect(container.querySelector('.md-pending')).toBeNull());
    expect(container.querySelector('.md-loading')).toHaveTextContent('Still **readable**');
    expect(container).not.toHaveTextContent('could not be displayed');
  });

  it('is fetched per app: another app starts without it', async () => {
    expect(await markdownRenderer(app.markdown).load()).not.toBeNull();
    const other = createTestApp();
    const { container } = other.render(<LazyMarkdown text="Some **bold**" />);
    expect(container.querySelector('.md-pending')).toHaveTextContent('Some **bold**');
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
  });

  it('ends with its app: the highlighting worker is terminated', async () => {
    const workers: { terminate: ReturnType<typeof vi.fn> }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        terminate = vi.fn();
        constructor() {
          workers.push(this);
        }
        addEventListener() {}
        postMessage() {}
      },
    );
    await markdownRenderer(app.markdown).load();
    app.render(<LazyMarkdown text={'```js\nconst answer = 42;\n```'} />);
    await waitFor(() => expect(workers).toHaveLength(1));
    expect(workers[0]!.terminate).not.toHaveBeenCalled();
    app.markdown.dispose();
    expect(workers[0]!.terminate).toHaveBeenCalledTimes(1);
  });
});
