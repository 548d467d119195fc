/**
 * Text in the form searches compare it in, shared by the browser's search (which maps matches back to the
 * original text to highlight them) and the server's (which stores conversations' text folded, to search
 * them in the database): both find the same conversations for the same words.
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
