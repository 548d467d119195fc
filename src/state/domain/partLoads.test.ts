import { describe, expect, it } from 'vitest';
import { createPartLoadsStore, loadParts, type PartLoad, type PartLoadsStore } from './partLoads.ts';

describe('a part asked for', () => {
  it('is asked for once while it is being read, and again after a failure', () => {
    const store = createPartLoadsStore();
    const changes: unknown[] = [];
    store.subscribe((state) => changes.push(state.loads));
    store.getState().want('att');
    store.getState().want('att');
    expect(changes).toEqual([{ att: 'loading' }]);
    store.setState({ loads: { att: 'failed' } });
    store.getState().want('att');
    expect(store.getState().loads).toEqual({ att: 'loading' });
  });
});

/**
 * Persistence as `loadParts` sees it: every part asked for is read once, and each read ends when
 * the test says how (`read`: in memory, or why not).
 */
function fakePersistence(store: PartLoadsStore) {
  const reads: string[] = [];
  store.subscribe(({ loads }) => {
    for (const id of Object.keys(loads)) if (loads[id] === 'loading' && !reads.includes(id)) reads.push(id);
  });
  return {
    reads,
    async read(id: string, outcome: 'found' | Exclude<PartLoad, 'loading'>) {
      // Reads end later, as the database's do.
      await Promise.resolve();
      reads.splice(reads.indexOf(id), 1);
      store.setState((s) => {
        const { [id]: _, ...loads } = s.loads;
        return { loads: outcome === 'found' ? loads : { ...loads, [id]: outcome } };
      });
    },
  };
}

/** Whether `promise` has settled by the time the microtasks queued now have run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

describe('loadParts (an export waiting for the recordings it needs, a Retry for its body)', () => {
  it('asks for each part and resolves, with no problem, once all are in memory', async () => {
    const store = createPartLoadsStore();
    const persistence = fakePersistence(store);
    const loaded = loadParts(store, ['a', 'b']);
    expect(persistence.reads).toEqual(['a', 'b']);
    await persistence.read('a', 'found');
    expect(await settledYet(loaded)).toBe(false);
    await persistence.read('b', 'found');
    expect(await loaded).toEqual({});
    expect(store.getState().loads).toEqual({});
  });

  it('resolves with what could not be read, and why, once none is being read', async () => {
    const store = createPartLoadsStore();
    const persistence = fakePersistence(store);
    const loaded = loadParts(store, ['a', 'b', 'c', 'd']);
    await persistence.read('a', 'missing');
    await persistence.read('b', 'found');
    await persistence.read('c', 'unreadable');
    expect(await settledYet(loaded)).toBe(false);
    await persistence.read('d', 'failed');
    expect(await loaded).toEqual({ a: 'missing', c: 'unreadable', d: 'failed' });
  });

  it('asks again for one that failed before, and waits for one already being read', async () => {
    const store = createPartLoadsStore();
    store.setState({ loads: { earlier: 'failed' } });
    const persistence = fakePersistence(store);
    store.getState().want('inspected');
    const loaded = loadParts(store, ['earlier', 'inspected']);
    expect(persistence.reads).toEqual(['inspected', 'earlier']);
    await persistence.read('earlier', 'found');
    expect(await settledYet(loaded)).toBe(false);
    await persistence.read('inspected', 'found');
    expect(await loaded).toEqual({});
  });

  it('resolves at once when it needs none', async () => {
    const store = createPartLoadsStore();
    const persistence = fakePersistence(store);
    expect(await loadParts(store, [])).toEqual({});
    expect(persistence.reads).toEqual([]);
  });
});
