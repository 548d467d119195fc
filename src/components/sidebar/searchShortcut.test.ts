import { describe, expect, it } from 'vitest';
import {
  isApplePlatform,
  isSearchShortcut,
  isTextField,
  type ShortcutContext,
  type ShortcutKey,
  shortcutHint,
} from './searchShortcut.ts';

const key = (k: string, mods: Partial<ShortcutKey> = {}): ShortcutKey => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  defaultPrevented: false,
  ...mods,
});
const pc: ShortcutContext = { apple: false, typing: false, modalOpen: false };
const mac: ShortcutContext = { ...pc, apple: true };

describe('isSearchShortcut', () => {
  it.each<[string, ShortcutKey, ShortcutContext, boolean]>([
    ['Ctrl+K', key('k', { ctrlKey: true }), pc, true],
    ['Ctrl+K while typing', key('k', { ctrlKey: true }), { ...pc, typing: true }, true],
    ['Ctrl+K with Caps Lock', key('K', { ctrlKey: true }), pc, true],
    ['Ctrl+Shift+K', key('K', { ctrlKey: true, shiftKey: true }), pc, false],
    ['Ctrl+Alt+K', key('k', { ctrlKey: true, altKey: true }), pc, false],
    ['Meta+K off Apple', key('k', { metaKey: true }), pc, false],
    ['⌘K on Apple', key('k', { metaKey: true }), mac, true],
    ['Ctrl+K on Apple (delete to end of line)', key('k', { ctrlKey: true }), mac, false],
    ['K alone', key('k'), pc, false],
    ['/ outside text fields', key('/'), pc, true],
    ['/ on Apple', key('/'), mac, true],
    ['/ while typing', key('/'), { ...pc, typing: true }, false],
    ['Ctrl+/', key('/', { ctrlKey: true }), pc, false],
    ['anything under a modal dialog', key('k', { ctrlKey: true }), { ...pc, modalOpen: true }, false],
    ['a key something else handled', key('/', { defaultPrevented: true }), pc, false],
  ])('%s → %s', (_name, event, context, expected) => {
    expect(isSearchShortcut(event, context)).toBe(expected);
  });
});

describe('isApplePlatform and shortcutHint', () => {
  it.each([
    ['MacIntel', true, '⌘K'],
    ['iPhone', true, '⌘K'],
    ['Win32', false, 'Ctrl+K'],
    ['Linux x86_64', false, 'Ctrl+K'],
    ['', false, 'Ctrl+K'],
  ])('%j → %s, %j', (platform, apple, hint) => {
    expect(isApplePlatform(platform)).toBe(apple);
    expect(shortcutHint(apple)).toBe(hint);
  });
});

describe('isTextField', () => {
  const make = (html: string) => {
    const holder = document.createElement('div');
    holder.innerHTML = html;
    return holder.firstElementChild;
  };
  it.each([
    ['<input>', true],
    ['<input type="search">', true],
    ['<input type="email">', true],
    ['<input type="checkbox">', false],
    ['<input type="button">', false],
    ['<textarea></textarea>', true],
    ['<select></select>', true],
    ['<div contenteditable="true"></div>', true],
    ['<button>Go</button>', false],
    ['<div></div>', false],
  ])('%s → %s', (html, expected) => {
    expect(isTextField(make(html))).toBe(expected);
  });
  it('is false for no element', () => expect(isTextField(null)).toBe(false));
});
