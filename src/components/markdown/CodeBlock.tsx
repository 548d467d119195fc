import { type ComponentProps, createContext, memo, useContext, useEffect, useMemo, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { type Run, splitChunks } from '../../markdown/codeChunks.ts';
import { codeLanguage } from '../../markdown/fence.ts';
import { CopyButton } from '../shared/CopyButton.tsx';
import { useEngine } from './engineContext.ts';

/**
 * Whether the block being rendered is still streaming: its code blocks then stay plain (append-only
 * lines), and are highlighted once, when the block is finished.
 */
export const LiveBlock = createContext(false);

/** Highlighted chunks applied per frame: a few hundred lines, well under a frame's budget. */
const CHUNKS_PER_FRAME = 4;

/** One chunk of lines: its own block box, rendered again only when its own text or colours change. */
const CodeChunk = memo(function CodeChunk({ text, runs }: { text: string; runs: readonly Run[] | null }) {
  if (runs === null) return <span className="md-code-chunk">{text}</span>;
  return (
    <span className="md-code-chunk">
      {runs.map((run, i) =>
        typeof run === 'string' ? (
          run
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a chunk's runs are replaced whole, never reordered
          <span key={i} className={run[0]}>
            {run[1]}
          </span>
        ),
      )}
    </span>
  );
});

interface Highlighted {
  code: string;
  language: string;
  chunks: Run[][];
}

/**
 * The colours for `code`, once it is finished: asked for once (a worker does the work), then applied a
 * few chunks per frame so that no single frame carries a 2,000-line block.
 */
function useHighlight(
  code: string,
  language: string,
  live: boolean,
): { chunks: Run[][] | null; applied: number } {
  const { highlighter } = useEngine();
  const [result, setResult] = useState<Highlighted | null>(null);
  const [applied, setApplied] = useState(0);
  const current = result !== null && result.code === code && result.language === language;

  useEffect(() => {
    if (live || !language) return;
    let cancelled = false;
    void highlighter.highlight(code, language).then((chunks) => {
      if (cancelled || chunks === null) return;
      setApplied(0);
      setResult({ code, language, chunks });
    });
    return () => {
      cancelled = true;
    };
  }, [highlighter, code, language, live]);

  const total = current ? result.chunks.length : 0;
  useEffect(() => {
    if (applied >= total) return;
    // The first few at once (a short block is done in one step), the rest frame by frame.
    if (applied === 0) {
      setApplied(Math.min(total, CHUNKS_PER_FRAME));
      return;
    }
    const frame = requestAnimationFrame(() => setApplied((n) => Math.min(total, n + CHUNKS_PER_FRAME)));
    return () => cancelAnimationFrame(frame);
  }, [applied, total]);

  return { chunks: current ? result.chunks : null, applied: current ? applied : 0 };
}

export interface CodeBlockProps {
  language: string;
  code: string;
  /** Still streaming: plain lines only, nothing highlighted yet. */
  live?: boolean;
}

/** A fenced code block: a header bar with the language and a copy button above the code. */
export function CodeBlock({ language, code, live = false }: CodeBlockProps) {
  const plain = useMemo(() => splitChunks(code), [code]);
  const { chunks, applied } = useHighlight(code, language, live);
  const highlighted = chunks !== null && applied > 0;
  const { t } = useI18n();
  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{language || t('markdown.plainText')}</span>
        <CopyButton text={code} label={t('markdown.copyCode')} className="md-code-copy" />
      </div>
      {/* Focusable, so that a long line can be scrolled into view from the keyboard (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
      <pre tabIndex={0}>
        <code className={codeClass(language, highlighted)}>
          {plain.map((text, i) => {
            const runs = chunks !== null && i < applied ? (chunks[i] ?? null) : null;
            // Chunks are only ever appended (or their text grows): the index identifies one for good.
            // biome-ignore lint/suspicious/noArrayIndexKey: append-only list, see above
            return <CodeChunk key={i} text={text} runs={runs} />;
          })}
        </code>
      </pre>
    </div>
  );
}

function codeClass(language: string, highlighted: boolean): string | undefined {
  const names = [highlighted ? 'hljs' : '', language ? `language-${language}` : ''].filter(Boolean).join(' ');
  return names || undefined;
}

/** Just enough of a hast node to read a code block's language and text. */
interface HastLike {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: readonly HastLike[];
}

/** The language from the inner `<code class="language-xxx">` that remark puts in every fenced block (its name only). */
function languageOf(pre: HastLike | undefined): string {
  const code = pre?.children?.find((child) => child.type === 'element' && child.tagName === 'code');
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return '';
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-'))
      return codeLanguage(name.slice('language-'.length));
  }
  return '';
}

function textOf(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return node.children?.map(textOf).join('') ?? '';
}

/** The markdown renderer's `<pre>` (a code block inside a list or quote): the same CodeBlock. */
export function PreFromMarkdown({ node }: ComponentProps<'pre'> & { node?: unknown }) {
  const live = useContext(LiveBlock);
  const pre = node as HastLike | undefined;
  // mdast-util-to-hast ends every code block with a newline that is not part of the code.
  return <CodeBlock language={languageOf(pre)} code={textOf(pre).replace(/\n$/, '')} live={live} />;
}
