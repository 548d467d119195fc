import type { Root as HastRoot } from 'hast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { remarkHtmlAsText } from './remarkHtmlAsText.ts';

/**
 * The markdown pipeline, built once (on first use) and reused for every block of every answer:
 * react-markdown built a new processor on each render, and with it re-registered the highlighter's 37
 * grammars. Highlighting is not part of it: code blocks are highlighted once closed, off the main thread.
 */
function build() {
  return unified().use(remarkParse).use(remarkGfm).use(remarkHtmlAsText).use(remarkRehype).freeze();
}

let processor: ReturnType<typeof build> | null = null;

/** Markdown source to an HTML syntax tree (raw HTML already turned into text). */
export function toHast(source: string): HastRoot {
  processor ??= build();
  return processor.runSync(processor.parse(source)) as HastRoot;
}

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * A URL from model output, or '' when it is not safe to follow (`javascript:`, `data:` …): relative URLs
 * and http(s), mailto, irc and xmpp only, as react-markdown's default did.
 */
export function safeUrl(value: string): string {
  const colon = value.indexOf(':');
  const questionMark = value.indexOf('?');
  const numberSign = value.indexOf('#');
  const slash = value.indexOf('/');
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (questionMark !== -1 && colon > questionMark) ||
    (numberSign !== -1 && colon > numberSign) ||
    SAFE_PROTOCOL.test(value.slice(0, colon))
  ) {
    return value;
  }
  return '';
}
