/**
 * Remark plugin: raw HTML in model output is shown as literal text, never rendered or executed.
 * Markdown is parsed with HTML recognized (so a `<script>` block stays together), then every `html`
 * node becomes plain text. Inline HTML becomes a text node; block HTML becomes a paragraph so it
 * still sits in a block container, with its line breaks kept.
 */

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hProperties?: Record<string, unknown> };
}

/** Containers whose children are blocks (flow content), where a bare text node would not belong. */
const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

function convert(parent: MdNode): void {
  const children = parent.children;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type === 'html') {
      const text: MdNode = { type: 'text', value: child.value ?? '' };
      children[i] = FLOW_PARENTS.has(parent.type)
        ? // The class keeps the HTML's line breaks visible (white-space: pre-wrap).
          { type: 'paragraph', children: [text], data: { hProperties: { className: ['md-raw-html'] } } }
        : text;
    } else {
      convert(child);
    }
  }
}

export function remarkHtmlAsText() {
  return (tree: MdNode): void => convert(tree);
}
