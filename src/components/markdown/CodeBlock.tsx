import { type ComponentProps, useEffect, useState } from 'react';
import type { ExtraProps } from 'react-markdown';

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

type CopyState = 'idle' | 'copied' | 'failed';

const COPY_LABEL: Record<CopyState, string> = { idle: 'Copy code', copied: 'Copied', failed: 'Copy failed' };

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      // `navigator.clipboard` is missing outside secure contexts: that lands in `catch` too.
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button type="button" className="md-code-copy" data-state={state} onClick={copy}>
      {COPY_LABEL[state]}
    </button>
  );
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
        <CopyButton text={code} />
      </div>
      <pre {...rest}>{children}</pre>
    </div>
  );
}
