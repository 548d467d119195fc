import { describe, expect, it } from 'vitest';
import { type ComposerKey, composerKeyAction } from './keys.ts';

const key = (patch: Partial<ComposerKey>): ComposerKey => ({
  key: 'Enter',
  shiftKey: false,
  isComposing: false,
  keyCode: 13,
  ...patch,
});

describe('composerKeyAction', () => {
  it.each<[string, Partial<ComposerKey>, boolean, string]>([
    ['Enter sends', {}, false, 'send'],
    ['Shift+Enter is a new line', { shiftKey: true }, false, 'none'],
    ['Enter that confirms a conversion never sends', { isComposing: true, keyCode: 229 }, false, 'none'],
    ["Safari's Enter after the composition ended (keyCode 229) never sends", { keyCode: 229 }, false, 'none'],
    ['Escape stops a streaming answer', { key: 'Escape', keyCode: 27 }, true, 'stop'],
    ['Escape with nothing streaming does nothing', { key: 'Escape', keyCode: 27 }, false, 'none'],
    [
      'Escape during a composition cancels the composition, not the answer',
      { key: 'Escape', keyCode: 229, isComposing: true },
      true,
      'none',
    ],
    ['another key does nothing', { key: 'a', keyCode: 65 }, true, 'none'],
  ])('%s', (_name, patch, streaming, action) => {
    expect(composerKeyAction(key(patch), streaming)).toBe(action);
  });
});
