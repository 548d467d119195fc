import { describe, expect, it } from 'vitest';
import { LIST_PAGE, rowsToRender } from './listWindow.ts';

describe('rowsToRender', () => {
  it('renders every row of a short list', () => expect(rowsToRender(12, LIST_PAGE, -1)).toBe(12));
  it('renders a page of a long one', () => expect(rowsToRender(10_000, LIST_PAGE, 3)).toBe(LIST_PAGE));
  it('renders as far as the active conversation', () =>
    expect(rowsToRender(10_000, LIST_PAGE, 4_321)).toBe(4_322));
  it('renders what was asked for since', () => expect(rowsToRender(10_000, 300, -1)).toBe(300));
});
