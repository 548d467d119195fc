import type { KeyboardEvent } from 'react';
import { isInputMethodKey } from '../shared/inputMethod.ts';

/** The parts of a keydown in the message box that decide what it means. */
export interface ComposerKey {
  key: string;
  shiftKey: boolean;
  /** The native event's: true while an input method composes (Chinese, Japanese, Korean…). */
  isComposing: boolean;
  /** 229 is a key the input method took: Safari sends the keydown that ends a composition after it ended. */
  keyCode: number;
}

export type ComposerKeyAction = 'send' | 'stop' | 'none';

/**
 * What a keydown in the message box does. A key an input method is using is its own: Enter that confirms
 * a conversion never sends, and Escape that cancels one never stops the answer. Otherwise Enter sends
 * (Shift+Enter is a new line) and Escape stops a streaming answer.
 */
export function composerKeyAction(event: ComposerKey, streaming: boolean): ComposerKeyAction {
  if (isInputMethodKey(event)) return 'none';
  if (event.key === 'Enter' && !event.shiftKey) return 'send';
  if (event.key === 'Escape' && streaming) return 'stop';
  return 'none';
}

/** A message box's keydown handler: Enter does `onSend`; Escape does `onEscape` when given (a stop, a cancel). */
export function composerKeyDown(onSend: () => void, onEscape?: () => void) {
  return (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = composerKeyAction(
      { key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing, keyCode: e.keyCode },
      onEscape !== undefined,
    );
    if (action === 'none') return;
    e.preventDefault();
    if (action === 'send') onSend();
    else onEscape?.();
  };
}
