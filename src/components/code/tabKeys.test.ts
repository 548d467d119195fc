import { describe, expect, it } from 'vitest';
import { shownCode, tabAfter } from './tabKeys.ts';

describe('tabAfter', () => {
  it.each([
    [0, 'ArrowRight', 1],
    [3, 'ArrowRight', 0],
    [0, 'ArrowLeft', 3],
    [2, 'ArrowLeft', 1],
    [2, 'Home', 0],
    [1, 'End', 3],
    [1, 'Enter', null],
    [1, 'a', null],
  ])('from tab %i, %s goes to %s', (index, key, next) => {
    expect(tabAfter(index, key, 4)).toBe(next);
  });
});

describe('shownCode', () => {
  it.each([
    ['abc', 3, { text: 'abc', shortened: false }],
    ['abcd', 3, { text: 'abc…', shortened: true }],
    ['', 3, { text: '', shortened: false }],
  ])('%j within %i characters', (code, limit, shown) => {
    expect(shownCode(code, limit)).toEqual(shown);
  });
});
