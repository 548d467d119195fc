/**
 * Conversations' text as searches see it (answers' markdown as plain words) and the form they compare it
 * in (folded): shared by the browser's search, which maps matches back to the original text to highlight
 * them, and the server's, which stores conversations' text folded to search them in the database. Both
 * find the same conversations for the same words.
 */

/** Combining diacritics (Latin, Greek, Cyrillic…). Kana voicing marks (U+3099, U+309A) are not among them. */
const diacritics = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/** Letters with no decomposition that people type without their stroke or ligature. */
const letters: Record<string, string> = { ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ı: 'i', ß: 'ss', æ: 'ae', œ: 'oe' };
const lettersPattern = /[łøđħıßæœ]/g;

/**
 * What folding does not leave as is: a run of whitespace, a non-ASCII character with its combining marks, an
 * ASCII character followed by combining marks. Every other character (plain ASCII) is only lowercased.
 */
export const special = /\s+|\P{ASCII}\p{M}*|\p{ASCII}\p{M}+/gu;

export function foldUnit(unit: string): string {
  if (/^\s/.test(unit)) return ' ';
  return unit
    .normalize('NFKD')
    .replace(diacritics, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(lettersPattern, (letter) => letters[letter] ?? letter);
}

/**
 * The form text is compared in: lowercase, without accents (NFKD minus combining diacritics, so "café" is
 * "cafe" and full-width "ＡＢＣ" is "abc"), whitespace runs as one space. Kana keep their voicing marks and
 * CJK characters are left alone. Each unit folds on its own, which is what lets `toOriginal` map back.
 */
export function fold(text: string): string {
  return text.replace(special, foldUnit).toLowerCase();
}

const fenceLine = /^\s{0,3}(`{3,}|~{3,})/;
const tableRule = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function plainInline(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w])_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)/g, '$1$2')
    .replace(/`+([^`]+)`+/g, '$1');
}

/**
 * An answer's markdown as the words a person reads: no heading, quote or list markers, emphasis, link
 * syntax, table rules and pipes, or code fences (the code itself is kept as written).
 */
export function markdownToPlain(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opening = fenceLine.exec(line)?.[1];
    if (fence !== null) {
      if (
        opening &&
        opening[0] === fence[0] &&
        opening.length >= fence.length &&
        !line.trim().slice(opening.length)
      ) {
        fence = null;
      } else out.push(line);
      continue;
    }
    if (opening) {
      fence = opening;
      continue;
    }
    if (tableRule.test(line) && line.includes('-') && line.includes('|')) continue;
    let text = line.replace(/^\s{0,3}(>\s?)+/, '').replace(/^\s{0,3}#{1,6}\s+/, '');
    text = text.replace(/^(\s*)([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, '$1');
    if (/^\s*\|.*\|\s*$/.test(text)) {
      text = text
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .join('  ');
    }
    out.push(plainInline(text));
  }
  return out.join('\n');
}
