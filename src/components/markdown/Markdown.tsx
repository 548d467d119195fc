import { type ComponentProps, memo, useId, useMemo, useState } from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { type BlockScan, scanMarkdownBlocks } from './blocks.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { remarkHtmlAsText } from './remarkHtmlAsText.ts';
import './highlight.css';
import './markdown.css';

// Module-level constants so every block gets the same plugin and component identities.
const remarkPlugins = [remarkGfm, remarkHtmlAsText];
const rehypePlugins = [rehypeHighlight];

/** External links open in a new tab without handing it our window. */
function Link({ node: _node, href, children, ...rest }: ComponentProps<'a'> & ExtraProps) {
  // react-markdown's default urlTransform empties dangerous URLs (`javascript:` …): show plain text.
  if (!href) return <span className="md-neutralized-link">{children}</span>;
  const inPage = href.startsWith('#');
  return (
    <a href={href} {...rest} {...(inPage ? {} : { target: '_blank', rel: 'noopener noreferrer' })}>
      {children}
    </a>
  );
}

/** Wide tables scroll sideways on narrow screens instead of widening the page. */
function Table({ node: _node, ...rest }: ComponentProps<'table'> & ExtraProps) {
  return (
    // Focusable, so that it can be scrolled sideways from the keyboard too (WCAG 2.1.1).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard
    <div className="md-table-wrap" tabIndex={0}>
      <table {...rest} />
    </div>
  );
}

/**
 * Images in model output are not loaded: a prompt injection could use an image URL to send data out.
 * They show as a link the person can choose to open.
 */
function ImageAsLink({ src, alt }: ComponentProps<'img'> & ExtraProps) {
  const label = `Image: ${alt || 'untitled'}`;
  if (typeof src !== 'string' || !src) return <span className="md-neutralized-link">{label}</span>;
  return (
    <a href={src} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}

const components: Components = { a: Link, img: ImageAsLink, pre: CodeBlock, table: Table };

/** One top-level block. Memoized on its source, so a finished block is parsed exactly once. */
const MarkdownBlock = memo(function MarkdownBlock({ source }: { source: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
      {source}
    </ReactMarkdown>
  );
});

/**
 * All finished blocks. The scan hands back the same array until another block finishes, so while the
 * last block grows this is skipped entirely: per-delta work does not depend on how many blocks precede it.
 */
const FinishedBlocks = memo(function FinishedBlocks({ blocks }: { blocks: readonly string[] }) {
  return blocks.map((source, index) => (
    // Finished blocks are only ever appended, so the index identifies a block for good.
    // biome-ignore lint/suspicious/noArrayIndexKey: append-only list, see above
    <MarkdownBlock key={index} source={source} />
  ));
});

/**
 * A line that starts a reference-style link definition (`[label]: url`) or a footnote (`[^1]: note`),
 * also inside list items and quotes. A false match only costs one parse of the whole answer.
 */
const DEFINITION = /^[ \t]*(?:(?:[>*+-]|\d{1,9}[.)])[ \t]*)*\[[^\]\n]+\]:/m;

interface HastNode {
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * remark-gfm names the footnotes heading of every answer `footnote-label`: this gives it the answer's own
 * prefix, and the references described by it, as the other footnote ids get theirs.
 */
function rehypePrefixFootnoteLabel(prefix: string) {
  const label = 'footnote-label';
  const visit = (node: HastNode) => {
    const properties = node.properties;
    if (properties?.id === label) properties.id = prefix + label;
    const describedBy = properties?.ariaDescribedBy;
    if (Array.isArray(describedBy) && describedBy.includes(label)) {
      properties!.ariaDescribedBy = describedBy.map((id) => (id === label ? prefix + label : id));
    }
    node.children?.forEach(visit);
  };
  return visit;
}

/** A whole answer in one parse; its footnote ids get a prefix of their own, as several answers share a page. */
const WholeAnswer = memo(function WholeAnswer({ source }: { source: string }) {
  const prefix = `${useId()}-`;
  const plugins = useMemo(
    () => ({
      remarkRehype: { clobberPrefix: prefix },
      rehype: [...rehypePlugins, [rehypePrefixFootnoteLabel, prefix]] as Options['rehypePlugins'],
    }),
    [prefix],
  );
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={plugins.rehype}
        remarkRehypeOptions={plugins.remarkRehype}
        components={components}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
});

/** Model output as GFM markdown, rendered block by block so a streaming answer stays cheap to update. */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // Definitions (citations at the end of an answer) only resolve within one parse: a finished answer
  // that has any is parsed whole, once. While it streams, the blocks show it as it comes.
  if (!streaming && DEFINITION.test(text)) return <WholeAnswer source={text} />;
  return <StreamingMarkdown text={text} streaming={streaming} />;
}

function StreamingMarkdown({ text, streaming }: { text: string; streaming: boolean }) {
  // The previous scan lets the next one resume from the open block instead of rescanning everything.
  // Kept in state and updated during render (React's "adjust state on prop change" pattern).
  const [cached, setCached] = useState<BlockScan | null>(null);
  let scan = cached;
  if (scan === null || scan.text !== text) {
    scan = scanMarkdownBlocks(text, cached);
    setCached(scan);
  }
  return (
    <div className={streaming ? 'md md-streaming' : 'md'} aria-busy={streaming || undefined}>
      <FinishedBlocks blocks={scan.closed} />
      {scan.tail !== '' && <MarkdownBlock source={scan.tail} />}
    </div>
  );
}
