import type { ComponentProps } from 'react';
import type { ExtraProps } from 'react-markdown';
import { CopyButton } from '../shared/CopyButton.tsx';

/** Just enough of a hast node to read its class names and text. */
interface HastLike {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: readonly HastLike[];
}

/** The language from the inner `<code class="language-xxx">` that remark puts in every fenced block. */
function languageOf(pre: HastLike | undefined): string | null {
  const code = pre?.children?.find((child) => child.type === 'element' && child.tagName === 'code');
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-')) return name.slice('language-'.length);
  }
  return null;
}

/** The code as text, read from the syntax tree (highlighting only wraps it in spans). */
function textOf(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return node.children?.map(textOf).join('') ?? '';
}

/** Replaces react-markdown's `<pre>`: a header bar with the language and a copy button above the code. */
export function CodeBlock({ node, children, ...rest }: ComponentProps<'pre'> & ExtraProps) {
  const language = languageOf(node as HastLike | undefined);
  // mdast-util-to-hast ends every code block with a newline that is not part of the code.
  const code = textOf(node as HastLike | undefined).replace(/\n$/, '');
  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{language ?? 'text'}</span>
        <CopyButton text={code} label="Copy code" className="md-code-copy" />
      </div>
      {/* Focusable, so that a long line can be scrolled into view from the keyboard (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
      <pre {...rest} tabIndex={0}>
        {children}
      </pre>
    </div>
  );
}
