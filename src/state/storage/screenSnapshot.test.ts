import { describe, expect, it, vi } from 'vitest';
import {
  forgetScreenSnapshot,
  keepScreenSnapshot,
  localStorageHere,
  readScreenSnapshot,
  type ScreenSnapshot,
  SNAPSHOT_LIMIT,
} from './screenSnapshot.ts';

const snapshot: ScreenSnapshot = {
  address: '/c/abc',
  build: '/assets/index-1.js',
  lang: 'en',
  stylesheets: ['/assets/math-1.css'],
  html: '<div class="app">Hello</div>',
};

/** A Storage of its own (jsdom's localStorage is shared by the file's tests); `full` refuses writes. */
function memoryStorage() {
  const items = new Map<string, string>();
  const storage = {
    items,
    full: false,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (storage.full) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key: string) => void items.delete(key),
  };
  return storage;
}

describe('the screen snapshot kept for the next load', () => {
  it('is read back as kept', () => {
    const storage = memoryStorage();
    expect(keepScreenSnapshot(storage, snapshot)).toBe(true);
    expect(readScreenSnapshot(storage)).toEqual(snapshot);
  });

  it('is none when nothing, or something else, is kept under its name', () => {
    const storage = memoryStorage();
    expect(readScreenSnapshot(storage)).toBeNull();
    keepScreenSnapshot(storage, snapshot);
    const [key] = storage.items.keys();
    for (const stored of [
      '{',
      'null',
      '[]',
      '{"address":"/"}',
      JSON.stringify({ ...snapshot, stylesheets: 'x' }),
    ]) {
      storage.items.set(key!, stored);
      expect(readScreenSnapshot(storage), stored).toBeNull();
    }
    storage.items.set(key!, JSON.stringify({ ...snapshot, html: 'x'.repeat(SNAPSHOT_LIMIT + 1) }));
    expect(readScreenSnapshot(storage)).toBeNull();
  });

  it('over the limit is not kept, and leaves no older one behind', () => {
    const storage = memoryStorage();
    keepScreenSnapshot(storage, snapshot);
    expect(keepScreenSnapshot(storage, { ...snapshot, html: 'x'.repeat(SNAPSHOT_LIMIT + 1) })).toBe(false);
    expect(readScreenSnapshot(storage)).toBeNull();
  });

  it('that the storage refuses leaves no older one behind', () => {
    const storage = memoryStorage();
    keepScreenSnapshot(storage, snapshot);
    storage.items.set('other', 'kept');
    storage.full = true;
    expect(keepScreenSnapshot(storage, { ...snapshot, html: '<p>newer</p>' })).toBe(false);
    expect(readScreenSnapshot(storage)).toBeNull();
    expect(storage.items.get('other')).toBe('kept');
  });

  it('is kept nowhere where the browser refuses the site its localStorage', () => {
    const refused = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The site is not allowed to keep data', 'SecurityError');
    });
    expect(localStorageHere()).toBeNull();
    refused.mockRestore();
    expect(localStorageHere()).toBe(localStorage);
  });

  it('is forgotten', () => {
    const storage = memoryStorage();
    keepScreenSnapshot(storage, snapshot);
    forgetScreenSnapshot(storage);
    expect(readScreenSnapshot(storage)).toBeNull();
    expect(storage.items.size).toBe(0);
  });
});
