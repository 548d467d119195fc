import type { OutputUnit, Schema } from '@cfworker/json-schema';
import { metaSchema2020 } from './metaSchema.ts';

/** Where a JSON text stops being JSON: 1-based line and column, when the parser says. */
export interface TextPlace {
  line: number;
  column: number;
}

/** Why a text is not a schema a tool or an answer can use. */
export type SchemaProblem =
  | { kind: 'json'; place: TextPlace | null }
  | { kind: 'notObject' }
  /** `path`: a JSON Pointer into the schema (`/properties/city/type`); `keyword`: the rule it breaks. */
  | { kind: 'schema'; path: string; keyword: string };

export type ReadSchema =
  | { ok: true; schema: Record<string, unknown> }
  | { ok: false; problem: SchemaProblem };

/** A place in an answer that breaks its schema: a JSON Pointer (`''`: the whole answer) and the rule. */
export interface Violation {
  path: string;
  keyword: string;
}

/** The line and column of a character offset in `text`. */
export function placeOf(text: string, offset: number): TextPlace {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

/** The parser's `at position N` (every engine's message that has a place says it this way). */
function jsonPlace(text: string, error: unknown): TextPlace | null {
  const message = error instanceof Error ? error.message : '';
  const at = /position (\d+)/.exec(message);
  if (at) return placeOf(text, Number(at[1]));
  return /end of (JSON|data)/i.test(message) ? placeOf(text, text.length) : null;
}

/**
 * The deepest of the validator's findings: each enclosing keyword that failed because of it is reported
 * too (`properties`, `anyOf`), and the person wants the place itself.
 */
function deepest(errors: readonly OutputUnit[]): OutputUnit | undefined {
  let found: OutputUnit | undefined;
  for (const e of errors) if (!found || e.instanceLocation.length > found.instanceLocation.length) found = e;
  return found;
}

/** `#/properties/a` to `/properties/a`: a JSON Pointer as the person reads it. */
function pointer(location: string): string {
  return location.replace(/^#/, '');
}

/** Keywords that fail because a part of the value failed: the part's own finding says where and why. */
const applicators = new Set([
  '$ref',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'unevaluatedItems',
  'contains',
  'allOf',
  'anyOf',
  'oneOf',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'propertyNames',
]);

/** Each rule the value breaks, once, where it breaks it: an enclosing keyword failing through it left out. */
function violationsOf(errors: readonly OutputUnit[]): Violation[] {
  const own = errors.filter((e) => !applicators.has(e.keyword));
  const kept = errors.filter(
    (e) =>
      !applicators.has(e.keyword) ||
      !own.some(
        (o) =>
          o.instanceLocation === e.instanceLocation ||
          o.instanceLocation.startsWith(`${e.instanceLocation}/`),
      ),
  );
  const seen = new Map<string, Violation>();
  for (const e of kept) {
    const path = pointer(e.instanceLocation);
    seen.set(`${path} ${e.keyword}`, { path, keyword: e.keyword });
  }
  return [...seen.values()];
}

export interface SchemaChecker {
  /** A JSON Schema typed by a person: JSON, an object, and valid against draft 2020-12's meta-schema. */
  readSchema(text: string): ReadSchema;
  /** Where `value` breaks `schema` (none: it matches). */
  check(schema: Record<string, unknown>, value: unknown): Violation[];
}

/**
 * The checker, its validator (@cfworker/json-schema: it interprets schemas, where Ajv compiles them with
 * `new Function`, which the app's Content-Security-Policy forbids) fetched the first time it is needed.
 */
export async function schemaChecker(): Promise<SchemaChecker> {
  const { Validator } = await import('@cfworker/json-schema');
  const meta = new Validator(metaSchema2020 as Schema, '2020-12', false);
  return {
    readSchema(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return { ok: false, problem: { kind: 'json', place: jsonPlace(text, error) } };
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { ok: false, problem: { kind: 'notObject' } };
      const found = deepest(meta.validate(value).errors);
      if (found)
        return {
          ok: false,
          problem: { kind: 'schema', path: pointer(found.instanceLocation), keyword: found.keyword },
        };
      return { ok: true, schema: value as Record<string, unknown> };
    },
    check(schema, value) {
      return violationsOf(new Validator(schema, '2020-12', false).validate(value).errors);
    },
  };
}
