/** Longest piece a single token may carry; longer words are split like a tokenizer would. */
const MAX_PIECE = 8;

/**
 * Splits text into word-sized pieces, each streamed as one delta and counted as one token.
 * Leading whitespace stays with the following word, as in real streams (`" the"`).
 */
export function splitTokens(text: string): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\s*\S+|\s+/g) ?? []) {
    const lead = word.length - word.trimStart().length;
    if (word.length - lead <= MAX_PIECE) {
      pieces.push(word);
      continue;
    }
    pieces.push(word.slice(0, lead + MAX_PIECE));
    for (let i = lead + MAX_PIECE; i < word.length; i += MAX_PIECE) pieces.push(word.slice(i, i + MAX_PIECE));
  }
  return pieces;
}

/** Irregular small fragments, the way tool-call arguments arrive (`{"ci`, `ty": "`, …). */
export function splitFragments(text: string): string[] {
  const sizes = [3, 5, 2, 6, 4];
  const pieces: string[] = [];
  for (let i = 0, n = 0; i < text.length; n++) {
    const size = sizes[n % sizes.length] ?? 4;
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}

/** Input token estimate from the prompt's serialized size (about four characters per token). */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}
