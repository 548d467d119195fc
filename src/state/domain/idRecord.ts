/**
 * Records keyed by ids that come from data (a backup, another tab, the server): made without a prototype,
 * so that an id such as `__proto__`, `constructor` or `toString` is a key like any other and an id that
 * is not there reads as undefined, never as a built-in property. A spread (`{ ...record }`) or a literal
 * would bring the prototype back: every record a store keeps by id is made and copied here.
 */

/** A new record of `entries`, without a prototype. */
export function idRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const out: Record<string, T> = Object.create(null);
  for (const [id, value] of entries) out[id] = value;
  return out;
}

/** A copy of `record` (without a prototype) with `set` put in and `removed` taken out. */
export function withIds<T>(
  record: Readonly<Record<string, T>>,
  set: Iterable<readonly [string, T]>,
  removed: Iterable<string> = [],
): Record<string, T> {
  // Assigning to an object without a prototype defines the key, `__proto__` included.
  const out: Record<string, T> = Object.assign(Object.create(null), record);
  for (const [id, value] of set) out[id] = value;
  for (const id of removed) delete out[id];
  return out;
}

/** What `record` itself holds under `key`: never what it inherits (`constructor` of a plain object). */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
