/**
 * Each store changes only through its own named actions: no module sets another's state directly. Read
 * as source, since a `setState` call is as easy to add as it is hard to spot in review.
 */
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../testing/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('store ownership', () => {
  it('reads the whole app', () => expect(Object.keys(sources).length).toBeGreaterThan(100));

  it('has no setState on a store outside the store itself', () => {
    // `this.setState` is a React class component's own state; `set` inside createStore is the store's.
    const outside = Object.entries(sources).flatMap(([name, text]) =>
      text
        .split('\n')
        .map((line, i) => ({ line, at: `${name}:${i + 1}` }))
        .filter(({ line }) => /(?<!this)\.setState\(/.test(line))
        .map(({ at }) => at),
    );
    expect(outside).toEqual([]);
  });
});
