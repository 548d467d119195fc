import 'fake-indexeddb/auto';
import { createStore, promisifyRequest, setMany } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { readRange } from './database.ts';

const db = createStore('hopbase-ranges', 'state');

/** What `readRange` gave: the keys of each chunk, and where to go on. */
async function read(after: string | null, count: number, chunk: number) {
  const chunks: string[][] = [];
  let goOnAfter: string | null | undefined;
  await db('readonly', (store) => {
    readRange(
      store,
      { prefix: 'conversation:', after, count, chunk },
      (records) => chunks.push(records.map(([key, value]) => `${key}=${String(value)}`)),
      (next) => {
        goOnAfter = next;
      },
    );
    return promisifyRequest(store.transaction);
  });
  return { chunks, goOnAfter };
}

describe('readRange', () => {
  it('reads a prefix’s records in key order by chunks, and says where to go on until none are left', async () => {
    // Keys of other kinds on both sides of the prefix are never read.
    await setMany(
      [
        ['active-conversation', 'c1'],
        ['conversation:c1', 1],
        ['conversation:c2', 2],
        ['conversation:c3', 3],
        ['conversation:c4', 4],
        ['conversation:c5', 5],
        ['deleted:c9', 9],
      ],
      db,
    );
    expect(await read(null, 4, 2)).toEqual({
      chunks: [
        ['conversation:c1=1', 'conversation:c2=2'],
        ['conversation:c3=3', 'conversation:c4=4'],
      ],
      goOnAfter: 'conversation:c4',
    });
    expect(await read('conversation:c4', 4, 2)).toEqual({
      chunks: [['conversation:c5=5']],
      goOnAfter: null,
    });
    // Exactly as many as were asked for: the next batch finds none.
    expect(await read('conversation:c3', 2, 2)).toEqual({
      chunks: [['conversation:c4=4', 'conversation:c5=5']],
      goOnAfter: 'conversation:c5',
    });
    expect(await read('conversation:c5', 2, 2)).toEqual({ chunks: [], goOnAfter: null });
  });

  it('asks for the records a chunk at a time, two chunks ahead, never the whole batch in one task', async () => {
    await setMany(
      Array.from({ length: 9 }, (_, i) => [`conversation:d${i}`, i] as [string, number]),
      db,
    );
    const asked: number[] = [];
    const chunks: string[][] = [];
    await db('readonly', (store) => {
      let gets = 0;
      const counting = new Proxy(store, {
        get(target, name) {
          if (name === 'get')
            return (key: IDBValidKey) => {
              gets++;
              return target.get(key);
            };
          const value: unknown = Reflect.get(target, name, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      readRange(
        counting,
        { prefix: 'conversation:d', after: null, count: 9, chunk: 2 },
        (records) => {
          asked.push(gets);
          chunks.push(records.map(([key]) => key.slice('conversation:'.length)));
        },
        () => {},
      );
      return promisifyRequest(store.transaction);
    });
    expect(chunks).toEqual([['d0', 'd1'], ['d2', 'd3'], ['d4', 'd5'], ['d6', 'd7'], ['d8']]);
    // When each chunk arrives: its own and the next one asked for, and the one after that just now.
    expect(asked).toEqual([6, 8, 9, 9, 9]);
  });
});
