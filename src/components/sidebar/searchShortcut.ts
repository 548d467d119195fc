/**
 * The keyboard shortcut that focuses the conversation search: Ctrl+K (⌘K on Apple systems) from anywhere,
 * and "/" when no text field has focus (typing a slash into a message must stay a slash).
 */

export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
}

export interface ShortcutContext {
  /** macOS or iOS: the Command key, not Control (Control+K deletes to the end of the line there). */
  apple: boolean;
  /** Focus is in a text field. */
  typing: boolean;
  /** A modal dialog is open: the page behind it is out of reach. */
  modalOpen: boolean;
}

export function isSearchShortcut(event: ShortcutKey, context: ShortcutContext): boolean {
  if (event.defaultPrevented || context.modalOpen || event.altKey || event.shiftKey) return false;
  if (event.key.toLowerCase() === 'k')
    return context.apple ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return event.key === '/' && !event.ctrlKey && !event.metaKey && !context.typing;
}

export function isApplePlatform(platform: string): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** How the key combination reads in the search box's placeholder (beside "/", in the catalog's words). */
export function shortcutHint(apple: boolean): string {
  return apple ? '⌘K' : 'Ctrl+K';
}

/** The same, for `aria-keyshortcuts`. */
export function shortcutKeys(apple: boolean): string {
  return apple ? 'Meta+K /' : 'Control+K /';
}

const nonTextInputs = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Whether typing into `element` writes text (where "/" is a character, not a shortcut). */
export function isTextField(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLInputElement) return !nonTextInputs.has(element.type);
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  // `isContentEditable` where the DOM has it (jsdom does not), the attribute otherwise.
  if (!(element instanceof HTMLElement)) return false;
  return (
    element.isContentEditable === true ||
    element.closest('[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]') !==
      null
  );
}
