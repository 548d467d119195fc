import * as v from 'valibot';

/**
 * What comes from outside (the database, a backup, an imported file) is checked by valibot schemas where
 * it enters. Every schema's message is what it expects ("a string"), so that what is wrong reads as the
 * field and that: `messages[1].attempts: expected a list`.
 */

export type Plain = Record<string, unknown>;

export function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const aString = v.string('a string');
export const aNumber = v.pipe(v.number('a number'), v.finite('a number'));
export const aList = <T extends v.GenericSchema>(item: T) => v.array(item, 'a list');
/** An object of any content (a request body, tool parameters): a list is not one. */
export const anObject = v.custom<Plain>(isPlain, 'an object');

/**
 * Strings by id (a conversation's choice at each fork), every key kept: the keys are ids from data, which
 * valibot's `record` would drop when named `__proto__`, `constructor` or `prototype`. Read them with
 * `ownValue`.
 */
export const stringsById = v.pipe(
  anObject,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const input = dataset.value;
    const wrong = Object.entries(input).find(([, value]) => typeof value !== 'string');
    if (wrong) {
      const [key, value] = wrong;
      addIssue({ message: 'a string', path: [{ type: 'object', origin: 'value', input, key, value }] });
    }
  }),
  // A spread defines each own key as it is, `__proto__` too.
  v.transform((o) => ({ ...o }) as Record<string, string>),
);

/** What `schema` expects, as its message says (through the wrappers and pipes a field may add). */
function expects(schema: unknown): string | undefined {
  const s = schema as { message?: unknown; pipe?: unknown[]; wrapped?: unknown };
  if (typeof s.message === 'string') return s.message;
  return s.pipe ? expects(s.pipe[0]) : s.wrapped ? expects(s.wrapped) : undefined;
}

/** A missing field is reported with what its schema expects. */
function missingField(entries: v.ObjectEntries) {
  return (issue: v.BaseIssue<unknown>) => {
    const key = issue.path?.at(-1)?.key;
    return (typeof key === 'string' && expects(entries[key])) || 'an object';
  };
}

/**
 * These fields checked, any other kept as it is (a newer version's: writing the record back loses nothing).
 * Not in a pipe, for `v.variant`'s options; `fields` is the same after checking that it is an object.
 */
export function looseFields<const E extends v.ObjectEntries>(entries: E) {
  return v.looseObject(entries, missingField(entries));
}

export function fields<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(anObject, looseFields(entries));
}

/** These fields checked, and only these kept; `what` says what the value is when it is not an object. */
export function onlyFields<const E extends v.ObjectEntries>(entries: E, what = 'an object') {
  return v.pipe(v.custom<Plain>(isPlain, what), v.object(entries, missingField(entries)));
}

/** The path of an issue as a person reads it: `messages[1].attempts[0].turn`, `headers["content-type"]`. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const { key } of issue.path ?? []) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(key)) out += `[${JSON.stringify(key)}]`;
    else out += out === '' ? key : `.${key}`;
  }
  return out;
}

/** The first thing wrong, said as `<path>: expected <what>` (`root` naming the value itself). */
function reasonOf(issues: readonly v.BaseIssue<unknown>[], root?: string): string {
  const [issue] = issues;
  const path = issue ? pathOf(issue) || root : root;
  const expected = `expected ${issue?.message ?? 'something else'}`;
  return path ? `${path}: ${expected}` : expected;
}

/** `value` checked by `schema`: what it reads as, or why it cannot be used (the first thing wrong). */
export function check<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  root?: string,
): { ok: true; value: v.InferOutput<S> } | { ok: false; reason: string } {
  const read = v.safeParse(schema, value, { abortEarly: true });
  return read.success ? { ok: true, value: read.output } : { ok: false, reason: reasonOf(read.issues, root) };
}
