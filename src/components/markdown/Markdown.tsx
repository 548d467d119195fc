import type { Element as HastElement, Root as HastRoot, Nodes, RootContent } from 'hast';
import { type Components, toJsxRuntime } from 'hast-util-to-jsx-runtime';
import {
  type ComponentProps,
  cloneElement,
  memo,
  type ReactElement,
  type ReactNode,
  startTransition,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { blockPlan, parsedWhole } from '../../markdown/blockPlan.ts';
import { type BlockScan, scanMarkdownBlocks } from '../../markdown/blocks.ts';
import { splitChunks } from '../../markdown/codeChunks.ts';
import { createMarkdownEngine, type MarkdownEngine } from '../../markdown/engine.ts';
import { fencedCode } from '../../markdown/fence.ts';
import { type ListCache, type ListSource, listParts } from '../../markdown/list.ts';
import { hasFormulas } from '../../markdown/mathSyntax.ts';
import { MAX_NESTING } from '../../markdown/nesting.ts';
import { type MarkdownProcessor, type MathRenderer, safeUrl } from '../../markdown/processor.ts';
import { advanceReveal, type Reveal, revealedLength, startReveal } from '../../markdown/reveal.ts';
import { tableRows, tableTree } from '../../markdown/table.ts';
import { pacing } from '../../session/pacing.ts';
import { CodeBlock, LiveBlock, PreFromMarkdown } from './CodeBlock.tsx';
import { EngineContext, useEngine } from './engineContext.ts';
import { useMathPending, useMathRenderer } from './useMath.ts';

/** External links open in a new tab without handing it our window; unsafe URLs are plain text. */
function Link({ href, children, node: _node, ...rest }: ComponentProps<'a'> & { node?: unknown }) {
  const safe = typeof href === 'string' ? safeUrl(href) : '';
  if (!safe) return <span className="md-neutralized-link">{children}</span>;
  const inPage = safe.startsWith('#');
  return (
    <a href={safe} {...rest} {...(inPage ? {} : { target: '_blank', rel: 'noopener noreferrer' })}>
      {children}
    </a>
  );
}

/** Wide tables scroll sideways on narrow screens instead of widening the page. */
function Table({ node: _node, ...rest }: ComponentProps<'table'> & { node?: unknown }) {
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
function ImageAsLink({ src, alt }: ComponentProps<'img'> & { node?: unknown }) {
  const { t } = useI18n();
  const label = alt ? t('markdown.image', { alt }) : t('markdown.image.untitled');
  const safe = typeof src === 'string' ? safeUrl(src) : '';
  if (!safe) return <span className="md-neutralized-link">{label}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}

/** A task list item's box, shown and not changed: named, as every form control must be. */
function TaskBox({ node: _node, ...rest }: ComponentProps<'input'> & { node?: unknown }) {
  const { t } = useI18n();
  return <input {...rest} aria-label={t('markdown.task')} />;
}

const components = {
  a: Link,
  img: ImageAsLink,
  input: TaskBox,
  pre: PreFromMarkdown,
  table: Table,
} as Partial<Components>;

const toJsxOptions = {
  Fragment,
  jsx,
  jsxs,
  components,
  ignoreInvalidStyle: true,
  passKeys: true,
  passNode: true,
} as const;

function toReact(tree: HastRoot): ReactNode {
  return toJsxRuntime(tree, toJsxOptions);
}

/**
 * What answers commonly hold, in small pieces: together they run every common path of the parser and the
 * conversion. Each is parsed in an idle moment of its own: cold, the whole sample at once was one task of
 * 25–40 ms, 51 ms on a loaded machine.
 */
const warmUpPieces = [
  'Some text.',
  '# Title\n\nSome *text*, **bold**, `code` and a [link](https://example.com).',
  '- one\n- two\n\n1. first',
  '> a quote',
  '| a | b |\n| - | - |\n| 1 | 2 |',
];

/** The engine of one app, KaTeX fetched from its own chunk (with its stylesheets). */
export function createEngine(): MarkdownEngine {
  return createMarkdownEngine(() => import('./mathRenderer.ts'));
}

/** The markdown renderer of one app: this chunk's component and the engine made for the app. */
export interface Renderer {
  Markdown: typeof Markdown;
  engine: MarkdownEngine;
  dispose(): void;
}

/**
 * The app's renderer, as its chunk arrives. It parses and converts a small sample once, piece by piece while
 * the page is idle: the first answer's frame then runs code already compiled (its cold first parse took 25–40
 * ms there).
 */
export function createRenderer(): Renderer {
  const engine = createEngine();
  const cancelWarmUp = inTurnWhenIdle(
    warmUpPieces.map((piece) => () => toReact(engine.processor.toHast(piece))),
  );
  return {
    Markdown,
    engine,
    dispose() {
      cancelWarmUp();
      engine.dispose();
    },
  };
}

/** Runs each of `works` in an idle moment of its own, in order; the returned function stops the rest. */
function inTurnWhenIdle(works: readonly (() => void)[]): () => void {
  let cancel = () => {};
  const from = (index: number) => {
    const work = works[index];
    if (work)
      cancel = whenIdle(() => {
        work();
        from(index + 1);
      });
  };
  from(0);
  return () => cancel();
}

/** Runs `work` when the page has nothing else to do (soon, where the browser cannot say when that is). */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 1_000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 0);
  return () => clearTimeout(id);
}

/** A run of lines shown as written; memoized, so a growing run lays out only its last chunk again. */
const PlainChunk = memo(function PlainChunk({ text }: { text: string }) {
  return <span className="md-code-chunk">{text}</span>;
});

const INDENT_CAP = ' '.repeat(2 * MAX_NESTING);
const DEEP_INDENT = new RegExp(`^[ \\t]{${INDENT_CAP.length + 1},}`, 'gm');

/**
 * Markdown nested past the limit, from its first too-deep line on: shown as written (indentation capped:
 * a 500-level list is a quarter of a megabyte of it), in chunks of lines.
 */
function TooDeep({ source }: { source: string }) {
  // Indentation past a few dozen columns says nothing more, and laying it out is what costs.
  const shown = source.replace(DEEP_INDENT, INDENT_CAP);
  return (
    <p className="md-too-deep">
      {splitChunks(shown).map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: chunks of an append-only text, see CodeBlock
        <PlainChunk key={i} text={text} />
      ))}
    </p>
  );
}

/** A table, parsed in groups of rows (table.ts): while it streams, only its last group is parsed again. */
function TableBlock({ source, math }: { source: string; math: MathRenderer | null }) {
  const { processor } = useEngine();
  const cache = useRef(new Map<string, HastRoot>()).current;
  const table = tableRows(source);
  const tree = table && tableTree(table, (group) => processor.toHast(group, math), cache);
  return <>{toReact(tree ?? processor.toHast(source, math))}</>;
}

/**
 * A list, parsed item by item (list.ts): while it streams, only its last item is parsed again, and only its
 * elements are made again (a finished item's are kept, so React passes over them).
 */
function ListBlock({ list, source, math }: { list: ListSource; source: string; math: MathRenderer | null }) {
  const { processor } = useEngine();
  const cache = useRef<ListCache>(new Map()).current;
  const made = useRef(new WeakMap<object, ReactNode>()).current;
  const parts = listParts(list, (markdown) => processor.toHast(markdown, math), cache);
  if (!parts) return <>{toReact(processor.toHast(source, math))}</>;
  const once = (key: HastElement | RootContent[], children: RootContent[]) => {
    if (!made.has(key)) made.set(key, toReact({ type: 'root', children }));
    return made.get(key);
  };
  const items = parts.items.map((item, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: items are only ever appended, so the index is the item's
    <Fragment key={i}>
      {'\n'}
      {once(item, [item])}
    </Fragment>
  ));
  const shell = toJsxRuntime(parts.list, toJsxOptions) as ReactElement;
  return (
    <>
      {parts.lead.length > 0 ? once(parts.lead, parts.lead) : null}
      {parts.lead.length > 0 ? '\n' : null}
      {cloneElement(shell, undefined, ...items, '\n')}
    </>
  );
}

/**
 * One block's markdown, parsed, its formulas rendered with `math` when given; nesting past the limit is
 * shown as plain text instead of parsed.
 */
function markdownOf(source: string, processor: MarkdownProcessor, math: MathRenderer | null): ReactNode {
  const plan = blockPlan(source);
  // Made again when KaTeX arrives: the groups parsed without it are parsed again with it.
  const key = math ? 'math' : 'tex';
  switch (plan.kind) {
    case 'table':
      return <TableBlock key={key} source={source} math={math} />;
    case 'list':
      return <ListBlock key={key} list={plan.list} source={source} math={math} />;
    case 'prose':
      return toReact(processor.toHast(source, math));
    case 'too-deep':
      return (
        <TooDeepBlock key={key} parsed={source.slice(0, plan.at)} rest={source.slice(plan.at)} math={math} />
      );
  }
}

/**
 * A block nested past the limit: what comes before its too-deep line, parsed, then the rest as written.
 * While the rest streams, the part before it stays the same: it is parsed and made into elements once (a
 * 24-level list took a parse and a reconciliation of its whole tree on every frame).
 */
function TooDeepBlock({ parsed, rest, math }: { parsed: string; rest: string; math: MathRenderer | null }) {
  const { processor } = useEngine();
  const head = useMemo(
    () => (parsed.length > 0 ? toReact(processor.toHast(parsed, math)) : null),
    [parsed, processor, math],
  );
  return (
    <>
      {head}
      <TooDeep source={rest} />
    </>
  );
}

/**
 * One top-level block. Memoized on its source, so a finished block is parsed exactly once. A block that is
 * a fenced code block is never parsed: its code is shown as it arrives (plain lines, append-only) and
 * highlighted once, when its closing fence arrives.
 */
const Block = memo(function Block({ source, live }: { source: string; live: boolean }) {
  const fence = fencedCode(source);
  const engine = useEngine();
  const math = useMathRenderer(engine.math, !fence && hasFormulas(source));
  // The parse does not depend on `live`: the answer's last block, the same text when the answer ends, is
  // not parsed again then (a long list's parse was most of the end's task).
  const prose = fence === null;
  const content = useMemo(
    () => (prose ? markdownOf(source, engine.processor, math) : null),
    [prose, source, engine.processor, math],
  );
  if (fence) return <CodeBlock language={fence.language} code={fence.code} live={live && !fence.closed} />;
  return <LiveBlock.Provider value={live}>{content}</LiveBlock.Provider>;
});

const CLOBBER = 'user-content-';
const LABEL = 'footnote-label';

/**
 * Footnote ids, links and the footnotes heading get the answer's own prefix: several answers share a page,
 * and each answer's references must point at its own notes.
 */
function prefixIds(node: Nodes, prefix: string): void {
  if (node.type === 'element') {
    const properties = (node as HastElement).properties;
    const { id, href, ariaDescribedBy } = properties;
    if (typeof id === 'string' && (id.startsWith(CLOBBER) || id === LABEL))
      properties.id = prefix + id.replace(CLOBBER, '');
    if (typeof href === 'string' && href.startsWith(`#${CLOBBER}`))
      properties.href = `#${prefix}${href.slice(CLOBBER.length + 1)}`;
    if (Array.isArray(ariaDescribedBy))
      properties.ariaDescribedBy = ariaDescribedBy.map((ref) => (ref === LABEL ? prefix + LABEL : ref));
  }
  if ('children' in node) for (const child of node.children) prefixIds(child as Nodes, prefix);
}

/** A whole answer in one parse (so its definitions resolve), its footnote ids its own. */
const WholeAnswer = memo(function WholeAnswer({ source }: { source: string }) {
  const prefix = `${useId()}-`;
  const { processor, math: katex } = useEngine();
  const math = useMathRenderer(katex, hasFormulas(source));
  const content = useMemo(() => {
    const tree = processor.toHast(source, math);
    prefixIds(tree, prefix);
    return toReact(tree);
  }, [processor, source, prefix, math]);
  return <div className="md">{content}</div>;
});

/**
 * `text` as far as it may be shown this frame (reveal.ts). Each next frame's share is a transition: its
 * parse runs in slices, and a render for another reason shows no more than the last frame did.
 */
function useRevealed(text: string, catchUp: boolean): string {
  // Only an answer that was live when it appeared catches up; a saved answer shows whole at once.
  const [reveal, advance] = useReducer(
    (last: Reveal, shown: number) => advanceReveal(last, shown, pacing.charsPerFrame),
    catchUp,
    (live) => startReveal(live, pacing.firstFrameChars),
  );
  const length = revealedLength(reveal, text.length);
  const behind = length < text.length;
  useEffect(() => {
    if (!behind) return;
    const frame = requestAnimationFrame(() => startTransition(() => advance(length)));
    return () => cancelAnimationFrame(frame);
  }, [behind, length]);
  return behind ? text.slice(0, length) : text;
}

/** Model output as GFM markdown, rendered block by block so a streaming answer stays cheap to update. */
export function Markdown({
  engine,
  text: latestText,
  streaming: latestStreaming = false,
  catchUp = latestStreaming,
}: {
  /** The app's engine (its parser, highlighter and KaTeX), from its markdown resources. */
  engine: MarkdownEngine;
  text: string;
  streaming?: boolean;
  /** Show a large text over several frames (an answer that arrived live); by default while streaming. */
  catchUp?: boolean;
}) {
  // A new text from an urgent render (a checkpoint, the answer's end) is parsed in a transition after it,
  // in slices: an urgent render shows the last text parsed. A text from a transition renders at once.
  const text = useDeferredValue(latestText);
  const streaming = useDeferredValue(latestStreaming);
  const visible = useRevealed(text, catchUp);
  // Still catching up counts as streaming: nothing is highlighted or parsed whole before the end shows.
  const live = streaming || visible.length < text.length;
  // A saved answer with formulas waits for KaTeX, invisible in its place, rather than flash its TeX.
  const mathPending = useMathPending(engine.math, !catchUp && !live && hasFormulas(text));
  if (mathPending) return <div className="md-loading md-pending">{text}</div>;
  // While it streams, the blocks show it as it comes; finished, one with definitions is parsed whole.
  const whole = !live && parsedWhole(text);
  return (
    <EngineContext.Provider value={engine}>
      {whole ? <WholeAnswer source={text} /> : <StreamingMarkdown text={visible} streaming={live} />}
    </EngineContext.Provider>
  );
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
  // Finished blocks keep their elements while the last one grows. One flat keyed list, so that the last
  // block, once finished, is the same component (a streamed code block is not built again).
  const closed = useMemo(
    // Finished blocks are only ever appended, so the index identifies a block for good.
    // biome-ignore lint/suspicious/noArrayIndexKey: append-only list, see above
    () => scan.closed.map((source, index) => <Block key={index} source={source} live={false} />),
    [scan.closed],
  );
  const blocks =
    scan.tail === ''
      ? closed
      : [...closed, <Block key={closed.length} source={scan.tail} live={streaming} />];
  return (
    <div className={streaming ? 'md md-streaming' : 'md'} aria-busy={streaming || undefined}>
      {blocks}
    </div>
  );
}
