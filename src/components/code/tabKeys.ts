/**
 * The tab a key moves to in a row of `count` tabs (WAI-ARIA tabs: arrows wrap around, Home and End go to
 * the ends); null: the key is not the tab list's.
 */
export function tabAfter(index: number, key: string, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** The most of a snippet the dialog shows (an image's base64 can be megabytes); Copy always copies all. */
export const shownCodeChars = 100_000;

/** What the dialog shows of `code`, and whether that is only its beginning. */
export function shownCode(code: string, limit = shownCodeChars): { text: string; shortened: boolean } {
  return code.length <= limit
    ? { text: code, shortened: false }
    : { text: `${code.slice(0, limit)}…`, shortened: true };
}
