/**
 * Unsent messages, one per conversation, kept for the tab (sessionStorage): a reload keeps the draft,
 * and switching conversations neither carries it along nor sends it to the wrong one.
 */
const prefix = 'hopbase-chat:draft:';

export function readDraft(key: string): string {
  try {
    return sessionStorage.getItem(prefix + key) ?? '';
  } catch {
    return '';
  }
}

export function writeDraft(key: string, text: string): void {
  try {
    if (text === '') sessionStorage.removeItem(prefix + key);
    else sessionStorage.setItem(prefix + key, text);
  } catch {
    // Storage full or disabled: the draft simply is not kept across reloads.
  }
}
