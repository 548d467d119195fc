/**
 * Whether an input method is using this keydown: while a composition is open, and the keydown (key code
 * 229) Safari sends after `compositionend` for the key that ended it.
 */
export function isInputMethodKey(event: { isComposing: boolean; keyCode: number }): boolean {
  return event.isComposing || event.keyCode === 229;
}
