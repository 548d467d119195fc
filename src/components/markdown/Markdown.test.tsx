import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { MarkdownEngine } from '../../markdown/engine.ts';
import { MAX_NESTING } from '../../markdown/nesting.ts';
import { prepareAnswer } from '../../markdown/prepare.ts';
import { answerOfEveryBlock as answer } from '../../markdown/testing/answerOfEveryBlock.ts';
import { createEngine, Markdown } from './Markdown.tsx';

// Each test's own engine, its parser and highlighter watched: tests count what gets parsed and highlighted.
let engine: MarkdownEngine;
let parser: MockInstance<MarkdownEngine['processor']['toHast']>;
let highlighter: MockInstance<MarkdownEngine['highlighter']['highlight']>;
const parsedSources = () => parser.mock.calls.map(([source]) => source);

beforeEach(() => {
  engine = createEngine();
  parser = vi.spyOn(engine.processor, 'toHast');
  highlighter = vi.spyOn(engine.highlighter, 'highlight');
});
afterEach(() => engine.dispose());

describe('Markdown rendering', () => {
  it('shows images as links instead of loading them', () => {
    const { container } = render(
      <Markdown engine={engine} text="![chart](https://evil.example/x.png?leak=secret)" />,
    );
    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByRole('link', { name: 'Image: chart' });
    expect(link).toHaveAttribute('href', 'https://evil.example/x.png?leak=secret');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('renders GFM: tables, strikethrough, task lists, autolinks', () => {
    const { container } = render(
      <Markdown
        engine={engine}
        text={[
          '| Name | Qty |',
          '| ---- | --: |',
          '| pear | 3 |',
          '',
          '~~old~~ new',
          '',
          '- [x] done',
          '- [ ] todo',
          '',
          'See www.example.com now',
        ].join('\n')}
      />,
    );
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'pear' })).toBeInTheDocument();
    expect(container.querySelector('del')).toHaveTextContent('old');
    // Every form control has a name (axe's "label" rule).
    const boxes = screen.getAllByRole('checkbox', { name: 'Task' });
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([true, false]);
    expect(screen.getByRole('link', { name: 'www.example.com' })).toHaveAttribute(
      'href',
      'http://www.example.com',
    );
  });

  it('highlights fenced code and labels its language', async () => {
    const { container } = render(<Markdown engine={engine} text={'```js\nconst answer = 42; // yes\n```'} />);
    const code = container.querySelector('pre code');
    await waitFor(() => expect(code).toHaveClass('hljs', 'language-js'));
    expect(code?.querySelector('.hljs-keyword')).toHaveTextContent('const');
    expect(code?.querySelector('.hljs-number')).toHaveTextContent('42');
    expect(code?.querySelector('.hljs-comment')).toHaveTextContent('// yes');
    expect(container.querySelector('.md-code-lang')).toHaveTextContent('js');
  });

  it('labels a code block without a language as text and leaves unknown languages unhighlighted', () => {
    const { container } = render(
      <Markdown engine={engine} text={'```\nplain\n```\n\n```nosuchlang\nx = 1\n```'} />,
    );
    const labels = [...container.querySelectorAll('.md-code-lang')].map((el) => el.textContent);
    expect(labels).toEqual(['text', 'nosuchlang']);
    expect(container.querySelectorAll('pre code')[1]).toHaveTextContent('x = 1');
  });

  it('opens links in a new tab without an opener, and neutralizes javascript: URLs', () => {
    render(
      <Markdown engine={engine} text={'[docs](https://example.com/docs) and [bad](javascript:alert(1))'} />,
    );
    const link = screen.getByRole('link', { name: 'docs' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(screen.getByText('bad')).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain('javascript:');
  });

  it('resolves citations defined at the end of a finished answer, in any block', () => {
    const text = [
      'First paragraph cites [the spec][spec].',
      '',
      'Second paragraph has a footnote.[^1]',
      '',
      '[spec]: https://example.com/spec',
      '[^1]: The note itself.',
    ].join('\n');
    const { container } = render(<Markdown engine={engine} text={text} />);
    expect(screen.getByRole('link', { name: 'the spec' })).toHaveAttribute(
      'href',
      'https://example.com/spec',
    );
    expect(container.querySelectorAll('section.footnotes, section[data-footnotes]')).toHaveLength(1);
    expect(screen.getByText('The note itself.')).toBeInTheDocument();
    expect(container).not.toHaveTextContent('[spec]');
  });

  it('finds definitions inside lists and quotes too', () => {
    render(<Markdown engine={engine} text={'See [the spec][s].\n\n- [s]: https://example.com/spec'} />);
    expect(screen.getByRole('link', { name: 'the spec' })).toHaveAttribute(
      'href',
      'https://example.com/spec',
    );
  });

  it("gives each answer's footnotes ids of their own", () => {
    const text = 'Claim.[^1]\n\n[^1]: Source.';
    const { container } = render(
      <>
        <Markdown engine={engine} text={text} />
        <Markdown engine={engine} text={text} />
      </>,
    );
    const ids = [...container.querySelectorAll('[id]')].map((element) => element.id);
    expect(ids.length).toBe(6);
    expect(new Set(ids).size).toBe(ids.length);
    // Each footnote reference points at its own answer's note, and is described by its own heading.
    const refs = container.querySelectorAll('a[data-footnote-ref]');
    expect(refs).toHaveLength(2);
    for (const ref of refs) {
      const answer = ref.closest('.md')!;
      const target = container.querySelector(`[id="${ref.getAttribute('href')!.slice(1)}"]`);
      const heading = container.querySelector(`[id="${ref.getAttribute('aria-describedby')}"]`);
      expect(answer.contains(target)).toBe(true);
      expect(answer.contains(heading)).toBe(true);
      expect(heading).toHaveTextContent('Footnotes');
    }
  });
});

describe('Markdown security', () => {
  it('shows raw HTML as text instead of rendering it', () => {
    const payloads = [
      '<script>alert(1)</script>',
      'Inline <img src=x onerror=alert(1)> here',
      '<iframe src="https://evil.example"></iframe>',
    ];
    const { container } = render(<Markdown engine={engine} text={payloads.join('\n\n')} />);
    expect(container.querySelector('script, img, iframe')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container).toHaveTextContent('<script>alert(1)</script>');
    expect(container).toHaveTextContent('Inline <img src=x onerror=alert(1)> here');
    expect(container).toHaveTextContent('<iframe src="https://evil.example"></iframe>');
  });

  it('keeps a multi-line HTML block as one text block with its line breaks', () => {
    const { container } = render(<Markdown engine={engine} text={'<div>\n<b>bold?</b>\n</div>'} />);
    expect(container.querySelector('b, div.md > div')).toBeNull();
    const raw = container.querySelector('.md-raw-html');
    expect(raw?.textContent).toBe('<div>\n<b>bold?</b>\n</div>');
  });
});

describe('copy code', () => {
  const writeText = vi.fn<(text: string) => Promise<void>>();

  /** user-event installs its own clipboard stub in `setup()`, so ours goes in after it. */
  function setupWithClipboard() {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    return user;
  }

  beforeEach(() => {
    writeText.mockReset();
  });

  it('copies the code text and briefly reads "Copied"', async () => {
    writeText.mockResolvedValue(undefined);
    const user = setupWithClipboard();
    render(
      <Markdown
        engine={engine}
        text={'Two blocks:\n\n```py\nprint("a")\nprint("b")\n```\n\n```sh\nls\n```'}
      />,
    );
    const buttons = screen.getAllByRole('button', { name: 'Copy code' });
    expect(buttons).toHaveLength(2);

    await user.click(buttons[0]!);
    expect(writeText).toHaveBeenCalledWith('print("a")\nprint("b")');
    expect(buttons[0]).toHaveTextContent('Copied');
    expect(buttons[1]).toHaveTextContent('Copy code');

    // Back to its name after a moment.
    await waitFor(() => expect(buttons[0]).toHaveTextContent('Copy code'), { timeout: 3000 });
  });

  it('says so when the clipboard refuses', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    const user = setupWithClipboard();
    render(<Markdown engine={engine} text={'```\nx\n```'} />);
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(screen.getByRole('button', { name: 'Copy failed' })).toBeInTheDocument();
  });
});

describe('streaming', () => {
  it('does not re-parse finished blocks when text is appended', () => {
    const { rerender, container } = render(
      <Markdown engine={engine} streaming text={'First paragraph.\n\nSecond'} />,
    );
    expect(parsedSources()).toEqual(['First paragraph.', 'Second']);

    parser.mockClear();
    rerender(<Markdown engine={engine} streaming text={'First paragraph.\n\nSecond, growing'} />);
    rerender(<Markdown engine={engine} streaming text={'First paragraph.\n\nSecond, growing more'} />);
    expect(parsedSources()).toEqual(['Second, growing', 'Second, growing more']);

    // A new block starts: the finished one is parsed once in its final form, the first never again.
    parser.mockClear();
    rerender(
      <Markdown engine={engine} streaming text={'First paragraph.\n\nSecond, growing more.\n\nThi'} />,
    );
    expect(parsedSources()).toEqual(['Second, growing more.', 'Thi']);
    expect(container.querySelectorAll('p')).toHaveLength(3);
  });

  it('does not parse the last block again when the answer ends with the text it had', () => {
    const text = 'First paragraph.\n\n- a list\n- that grew';
    const { rerender, container } = render(<Markdown engine={engine} streaming text={text} />);
    parser.mockClear();
    rerender(<Markdown engine={engine} text={text} />);
    expect(parsedSources()).toEqual([]);
    expect(container.querySelectorAll('li')).toHaveLength(2);
  });

  it('parses only the last item of a growing list again', () => {
    const items = Array.from({ length: 6 }, (_, i) => `- item ${i} with **bold**`);
    let text = 'Intro.\n\n';
    const { rerender, container } = render(<Markdown engine={engine} streaming text={text} />);
    parser.mockClear();
    for (const item of items) {
      text += `${item}\n`;
      rerender(<Markdown engine={engine} streaming text={text} />);
    }
    expect(parsedSources()).toEqual(items);
    expect(container.querySelectorAll('ul > li')).toHaveLength(6);
  });

  it('renders a list parsed item by item as one parse of the whole list', () => {
    const list = '1. one **bold**\n   - nested\n\n2. [link](https://example.com)\n\n   more\n3. [ ] a task';
    const split = render(<Markdown engine={engine} text={list} />).container.querySelector('ol')!.outerHTML;
    // A table row above the list leaves the block to one parse (list.ts).
    const whole = render(<Markdown engine={engine} text={`| a |\n${list}`} />).container.querySelector('ol');
    expect(parsedSources()).toContain(`| a |\n${list}`);
    expect(split).toBe(whole!.outerHTML);
    expect(split).toContain('<li>\n<p>one <strong>bold</strong></p>');
  });

  it('parses a block nested past the limit once while its rest streams as written', () => {
    // Each line one quote deeper: from line MAX_NESTING on, the block is too deep.
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `${'>'.repeat(i + 1)} q${i}`).join('\n');
    const deep = MAX_NESTING + 3;
    const { rerender, container } = render(<Markdown engine={engine} streaming text={lines(deep)} />);
    const parsedPart = parsedSources();
    expect(parsedPart).toHaveLength(1);
    parser.mockClear();
    rerender(<Markdown engine={engine} streaming text={lines(deep + 1)} />);
    rerender(<Markdown engine={engine} streaming text={lines(deep + 2)} />);
    expect(parsedSources()).toEqual([]);
    expect(container.querySelector('.md-too-deep')).toHaveTextContent(`q${deep + 1}`);
    expect(container.querySelectorAll('blockquote')).toHaveLength(MAX_NESTING);
  });

  it('keeps per-delta parsing independent of answer length', async () => {
    const prefix = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with **bold** text.`).join('\n\n');
    let text = `${prefix}\n\nTail:`;
    const { rerender, container } = render(<Markdown engine={engine} streaming text={text} />);
    // A burst larger than a frame's share shows over a few frames.
    await waitFor(() => expect(container.querySelectorAll('p')).toHaveLength(201));
    parser.mockClear();
    for (const word of 'the last block keeps growing word by word'.split(' ')) {
      text += `${word} `;
      rerender(<Markdown engine={engine} streaming text={text} />);
    }
    // One parse per delta, each of the tail alone.
    expect(parsedSources()).toHaveLength(8);
    for (const source of parsedSources()) expect(source).not.toContain('Paragraph');
    expect(container.querySelectorAll('p')).toHaveLength(201);
  });

  it('shows no more of a burst than the last frame allowed when it renders for another reason', () => {
    // No frame comes: the reveal does not advance.
    const frames = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      const text = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with **bold** text.`).join('\n\n');
      const { rerender, container } = render(<Markdown engine={engine} streaming text={text} />);
      const first = container.querySelectorAll('p').length;
      rerender(<Markdown engine={engine} streaming text={text} />);
      rerender(<Markdown engine={engine} streaming text={text} />);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThan(200);
      expect(container.querySelectorAll('p')).toHaveLength(first);
    } finally {
      frames.mockRestore();
    }
  });

  it('renders a half-finished fenced code block as plain code while streaming, highlighted once closed', async () => {
    const { container, rerender } = render(
      <Markdown
        engine={engine}
        streaming
        text={'Here:\n\n```python\ndef greet(name):\n    return f"hi {name}'}
      />,
    );
    const code = container.querySelector('pre code');
    expect(code).toHaveClass('language-python');
    expect(code?.textContent).toBe('def greet(name):\n    return f"hi {name}');
    // Plain monospace lines while it streams, and the markdown parser never sees the code.
    expect(code?.querySelector('[class^="hljs-"]')).toBeNull();
    expect(parsedSources()).toEqual(['Here:']);
    expect(highlighter).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeInTheDocument();
    expect(container).not.toHaveTextContent('```');
    expect(container.firstChild).toHaveAttribute('aria-busy', 'true');

    // Blank lines inside the open fence stay inside the code block.
    rerender(
      <Markdown engine={engine} streaming text={'Here:\n\n```python\ndef greet(name):\n\n\n    return 1'} />,
    );
    expect(container.querySelectorAll('pre')).toHaveLength(1);
    expect(container.querySelector('pre code')).toHaveTextContent('return 1');

    expect(highlighter).not.toHaveBeenCalled();

    rerender(
      <Markdown
        engine={engine}
        text={'Here:\n\n```python\ndef greet(name):\n\n\n    return 1\n```\n\nDone.'}
      />,
    );
    expect(container.querySelectorAll('pre')).toHaveLength(1);
    expect(screen.getByText('Done.')).toBeInTheDocument();
    expect(container.firstChild).not.toHaveAttribute('aria-busy');
    await waitFor(() => expect(container.querySelector('pre code .hljs-keyword')).toHaveTextContent('def'));
    expect(highlighter).toHaveBeenCalledTimes(1);
  });

  it('starts over when given a different text', () => {
    const { rerender, container } = render(<Markdown engine={engine} text={'Alpha\n\nBeta'} />);
    rerender(<Markdown engine={engine} text={'Gamma'} />);
    expect(container).toHaveTextContent(/^Gamma$/);
  });
});

describe('an answer parsed ahead of its render (prepareAnswer)', () => {
  it('renders from the trees prepared, parsing nothing itself, the same as without them', () => {
    const plain = render(<Markdown engine={engine} text={answer} />);
    const expected = plain.container.innerHTML;
    plain.unmount();
    const prepared = new Set<unknown>();
    const prepare = engine.processor.prepare;
    vi.spyOn(engine.processor, 'prepare').mockImplementation((source) => {
      const tree = prepare(source);
      prepared.add(tree);
      return tree;
    });
    for (const _block of prepareAnswer(answer, engine.processor));
    parser.mockClear();
    const { container } = render(<Markdown engine={engine} text={answer} />);
    const taken = parser.mock.results.map((result) => result.value);
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.filter((tree) => !prepared.has(tree))).toEqual([]);
    expect(container.innerHTML).toBe(expected);
  });
});
