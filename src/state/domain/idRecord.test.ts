import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idRecord, valuesOf, withIds } from './idRecord.ts';

/** Ids as data brings them: any text, the built-in names among them. */
const id = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', '2'));
const entries = fc.array(fc.tuple(id, fc.integer()));

describe('idRecord', () => {
  it('withIds copies a record key by key as Object.assign would, with the set put in and the removed taken out', () => {
    fc.assert(
      fc.property(entries, entries, fc.array(id), (start, set, removed) => {
        const record = idRecord(start);
        const expected = Object.assign(Object.create(null), record, idRecord(set)) as Record<string, number>;
        for (const gone of removed) delete expected[gone];
        const copy = withIds(record, set, removed);
        expect(Object.getPrototypeOf(copy)).toBeNull();
        expect(Object.entries(copy)).toEqual(Object.entries(expected));
        // The original is left as it was.
        expect(Object.entries(record)).toEqual(Object.entries(idRecord(start)));
      }),
    );
  });

  it('valuesOf gives the values in the order Object.values does', () => {
    fc.assert(
      fc.property(entries, (start) => {
        const record = idRecord(start);
        expect(valuesOf(record)).toEqual(Object.values(record));
      }),
    );
  });

  it('keeps `__proto__` as an id like any other', () => {
    const copy = withIds(idRecord([['a', 1]]), [['__proto__', 2]]);
    expect(Object.keys(copy)).toEqual(['a', '__proto__']);
    expect(valuesOf(copy)).toEqual([1, 2]);
  });
});
