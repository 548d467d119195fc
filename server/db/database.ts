import * as v from 'valibot';

/**
 * The one way the server talks to its database, whichever engine holds it: PostgreSQL through a pool
 * (`postgres.ts`, several server processes may share it) or PGlite in this process (`pglite.ts`). Both run
 * the same SQL: PGlite is PostgreSQL compiled to WebAssembly.
 */

export interface Queryable {
  /**
   * The rows of one parameterized statement (`$1`, `$2`…). Rows are `unknown`: they enter the program
   * through `rows()`, which checks each against its schema.
   */
  query(sql: string, params?: readonly unknown[]): Promise<unknown[]>;
}

/** A transaction's own connection: its notifications are sent when it commits, and not at all if it rolls back. */
export interface Transaction extends Queryable {
  notify(channel: string, payload: string): Promise<void>;
}

export interface ListenHandlers {
  message(payload: string): void;
  /**
   * The listening connection was lost and is back: notifications sent meanwhile were missed, so whoever
   * depends on them should read again what they follow.
   */
  reconnected?(): void;
}

export interface Database extends Queryable {
  readonly engine: 'postgres' | 'pglite';
  /** `work` with a transaction: committed when it resolves, rolled back when it throws (the error is rethrown). */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Listens on `channel` until the returned function is called. Resolves once listening. */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Each row checked against `schema`: the single place rows from the database enter the program. */
export function rows<S extends v.GenericSchema>(schema: S, found: readonly unknown[]): v.InferOutput<S>[] {
  return found.map((row) => v.parse(schema, row));
}

/** The one row `schema` describes, or undefined when there was none. */
export function firstRow<S extends v.GenericSchema>(
  schema: S,
  found: readonly unknown[],
): v.InferOutput<S> | undefined {
  return found.length === 0 ? undefined : v.parse(schema, found[0]);
}

/** Both engines are set to read `bigint` as a number (PGlite does by default); these are counts, sums and ms. */
export const int = v.pipe(v.number(), v.safeInteger());
export const timestamp = v.date();

/**
 * An id the browser made (conversation, attempt, attachment): PostgreSQL's text cannot hold NUL, and the
 * schema caps the length. Any other id names nothing, without asking the database.
 */
export const clientId = v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.regex(/^[^\0]*$/));
export const isClientId = (id: string) => v.is(clientId, id);

/**
 * How deep a JSON value from a request may nest: far beyond what a record of the app's holds (a request
 * body's tool schemas are its deepest part), far below what runs the stack out when the value is written
 * as JSON (about 10,000 levels in Node: parsing has no such limit).
 */
const MAX_DEPTH = 512;

/** Whether `value` nests at most `left` levels deep: recursion only as deep as that. */
function nestsAtMost(value: unknown, left: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (left === 0) return false;
  if (Array.isArray(value)) return value.every((member) => nestsAtMost(member, left - 1));
  for (const key in value) if (!nestsAtMost((value as Record<string, unknown>)[key], left - 1)) return false;
  return true;
}

/** Refuses, as invalid, a value from a request nested too deep to be written as JSON. */
export const shallowEnough = <T>() =>
  v.check<T, string>((value) => nestsAtMost(value, MAX_DEPTH), `nested at most ${MAX_DEPTH} levels deep`);

/** The version a write was made from: 0 for a row not stored yet. */
export const baseVersion = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/**
 * A write refused of what is kept once under its id (a file, a recording, a request body): `different`:
 * other content is stored under the id; `deleted`: its conversation was deleted, and nothing was stored.
 */
export type Refused = { ok: false; reason: 'different' | 'deleted' };
