/**
 * A code block is shown as chunks of lines, each its own block box: while it streams only the last chunk
 * changes (earlier ones are neither re-rendered nor laid out again), and once highlighted the colours are
 * applied chunk by chunk, a few per frame. Shared by the page and the highlighting worker.
 */
export const CHUNK_LINES = 40;

/** A piece of highlighted code: plain text, or text with highlight.js class names. */
export type Run = string | readonly [className: string, text: string];

/** `code` cut into chunks of CHUNK_LINES lines; every chunk but the last ends with its line feed. */
export function splitChunks(code: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  let lines = 0;
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) {
    if (++lines === CHUNK_LINES) {
      chunks.push(code.slice(start, i + 1));
      start = i + 1;
      lines = 0;
    }
  }
  if (start < code.length || chunks.length === 0) chunks.push(code.slice(start));
  return chunks;
}
