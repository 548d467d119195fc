/**
 * Importing the app starts nothing: no listeners, timers or subscriptions, and no module holds a store.
 * `main.tsx` is the one exception by design: it is the startup that makes the instances.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const modules = import.meta.glob<Record<string, unknown>>([
  '../**/*.{ts,tsx}',
  '!../**/*.test.{ts,tsx}',
  '!../testing/**',
  '!../core/testing/**',
  '!./main.tsx',
]);

afterEach(() => vi.restoreAllMocks());

describe('the whole app graph, imported', () => {
  it('adds no listener and starts no timer', async () => {
    vi.resetModules();
    const started = [
      vi.spyOn(window, 'addEventListener'),
      vi.spyOn(document, 'addEventListener'),
      vi.spyOn(globalThis, 'setTimeout'),
      vi.spyOn(globalThis, 'setInterval'),
      vi.spyOn(globalThis, 'requestAnimationFrame'),
      vi.spyOn(globalThis, 'queueMicrotask'),
    ];
    const names = Object.keys(modules);
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) await modules[name]!();
    for (const spy of started) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
  });

  it('exports no store instance: state belongs to the instances made at startup', async () => {
    const held: string[] = [];
    for (const [name, load] of Object.entries(modules)) {
      for (const [exported, value] of Object.entries(await load())) {
        const candidate = value as { getState?: unknown; subscribe?: unknown } | null;
        if (typeof candidate?.getState === 'function' && typeof candidate.subscribe === 'function')
          held.push(`${name}: ${exported}`);
      }
    }
    expect(held).toEqual([]);
  });
});
