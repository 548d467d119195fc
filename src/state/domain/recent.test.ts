import { describe, expect, it } from 'vitest';
import { newestIds, sameIds } from './recent.ts';
import type { Conversation } from './types.ts';

const at = (...times: number[]): Record<string, Conversation> =>
  Object.fromEntries(
    times.map((updatedAt, i) => [`c${i}`, { id: `c${i}`, title: '', createdAt: 0, updatedAt, messages: [] }]),
  );

describe('newestIds', () => {
  it('orders by last change, newest first', () => expect(newestIds(at(1, 3, 2))).toEqual(['c1', 'c2', 'c0']));
  it('keeps only as many as asked', () => expect(newestIds(at(5, 1, 9, 7, 3), 2)).toEqual(['c2', 'c3']));
  it('keeps the first seen of equal times', () => expect(newestIds(at(4, 4, 4), 2)).toEqual(['c0', 'c1']));
  it('finds the newest last of a long history', () => {
    const times = Array.from({ length: 5_000 }, (_, i) => i);
    expect(newestIds(at(...times), 3)).toEqual(['c4999', 'c4998', 'c4997']);
  });
  it('is empty for none', () => expect(newestIds({})).toEqual([]));
});

describe('sameIds', () => {
  it('same order', () => expect(sameIds(['a', 'b'], ['a', 'b'])).toBe(true));
  it('other order', () => expect(sameIds(['b', 'a'], ['a', 'b'])).toBe(false));
  it('one more', () => expect(sameIds(['a'], ['a', 'b'])).toBe(false));
  it('none known', () => expect(sameIds(null, [])).toBe(false));
});
