/** A block that is one fenced code block, open or closed: rendered straight, without the markdown parser. */
export interface FencedCode {
  /** The first word of the info string (`ts` in ```` ```ts title="x" ````), or '' for none. */
  language: string;
  code: string;
  /** Whether its closing fence has arrived (else it is still streaming, or ran to the end of the answer). */
  closed: boolean;
}

const LANGUAGE = /^[A-Za-z0-9_+#.-]+/;

/**
 * The language name an info string's first word starts with, or ''. The parser ends that word only at a
 * space or tab: any other whitespace (a form feed) or character would go into the code element's class.
 */
export function codeLanguage(word: string): string {
  return LANGUAGE.exec(word)?.[0] ?? '';
}

const OPENING = /^( {0,3})(`{3,}|~{3,})([^\n]*)$/;

/**
 * `block` as a fenced code block, when it is exactly one (from its opening line to its closing line, or to
 * its end when not closed): the same code and language the markdown parser gives (CommonMark: the opening
 * fence's indentation is removed from each line; the info string's first word, escapes resolved).
 */
export function fencedCode(block: string): FencedCode | null {
  const firstEnd = block.indexOf('\n');
  const first = firstEnd === -1 ? block : block.slice(0, firstEnd);
  const opening = OPENING.exec(first.replace(/\r$/, ''));
  if (!opening) return null;
  const indent = opening[1]!.length;
  const marks = opening[2]!;
  // CommonMark trims spaces and tabs only.
  const info = opening[3]!.replace(/^[ \t]+|[ \t]+$/g, '');
  // A backtick fence's info string may not contain backticks (that is inline code).
  if (marks[0] === '`' && info.includes('`')) return null;
  const language = codeLanguage((info.split(/[ \t]/, 1)[0] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1'));
  if (firstEnd === -1) return { language, code: '', closed: false };
  const body = block.slice(firstEnd + 1);
  const closing = `^ {0,3}${marks[0] === '`' ? '`' : '~'}{${marks.length},}[ \\t]*$`;
  // A streaming block is read again at every frame: one scan of the text, not a pass per line, unless
  // lines are to be dedented or end in CR (or the text holds the other line breaks `$` stops at).
  if (indent === 0 && !OTHER_BREAKS.test(body)) return unindented(language, body, closing);
  return byLines(language, body, indent, new RegExp(closing));
}

/** Line breaks other than LF that a multiline `$` or `^` stops at. */
const OTHER_BREAKS = /[\r\u2028\u2029]/;

/** The code of a fence that needs no dedenting, its lines all ending in LF: one scan for the closing line. */
function unindented(language: string, body: string, closing: string): FencedCode | null {
  const match = new RegExp(closing, 'm').exec(body);
  if (match === null) return { language, code: body, closed: false };
  // Anything after the closing fence is more markdown: not a block of code alone.
  if (match.index + match[0].length !== body.length) return null;
  return { language, code: match.index === 0 ? '' : body.slice(0, match.index - 1), closed: true };
}

/** The code line by line: each dedented by the opening fence's indentation, a CR at its end dropped. */
export function byLines(language: string, body: string, indent: number, closing: RegExp): FencedCode | null {
  const lines = body.split('\n');
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    if (closing.test(lines[i]!.replace(/\r$/, ''))) {
      // Anything after the closing fence is more markdown: not a block of code alone.
      if (i !== lines.length - 1) return null;
      end = i;
    }
  }
  const closed = end < lines.length;
  const code = lines.slice(0, end).map((line) => dedent(line.replace(/\r$/, ''), indent));
  return { language, code: code.join('\n'), closed };
}

function dedent(line: string, indent: number): string {
  let i = 0;
  while (i < indent && line[i] === ' ') i++;
  return line.slice(i);
}
