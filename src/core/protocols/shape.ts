/**
 * Shape checks for decoded events, on the slow path only (`JSON.parse` and the events that are not hot
 * deltas): the template fast paths match exact known shapes and never come here. Each protocol lists, per
 * event type, the fields its reducer reads; an event whose fields have another shape is reported as
 * `malformed_event` naming the event and the field, instead of failing somewhere inside the reducer.
 * Fields the reducers do not read are not checked: they may be anything.
 */
import {
  isJsonObject,
  jsonValue,
  MalformedEvent,
  notAnObject,
  notJson,
  type UnknownEvent,
  unknownEvent,
} from './json.ts';

/** A check of one decoded JSON value: null when it has the shape, else what is wrong with it. */
export type Shape = (value: unknown, path: string) => string | null;

type Fields = Record<string, unknown>;

const isFields = isJsonObject;

function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return `the number ${value}`;
  return `${typeof value} ${String(value)}`;
}

const wrong = (path: string, expected: string, value: unknown) =>
  `\`${path}\` is ${kindOf(value)} (expected ${expected})`;

const at = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

export const string: Shape = (value, path) =>
  typeof value === 'string' ? null : wrong(path, 'a string', value);

/** A token count: a finite number (`1e400` parses to Infinity). */
export const count: Shape = (value, path) =>
  typeof value === 'number' && Number.isFinite(value) ? null : wrong(path, 'a number', value);

/** A position (`index`, `output_index`, …): a whole number from 0. */
export const position: Shape = (value, path) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? null
    : wrong(path, 'a whole number from 0', value);

/** Absent or null, or else of `shape`. */
export function maybe(shape: Shape): Shape {
  return (value, path) => (value === undefined || value === null ? null : shape(value, path));
}

/** An object (not a list) whose listed fields have their shapes; other fields may be anything. */
export function object(fields: Record<string, Shape>): Shape {
  const entries = Object.entries(fields);
  return (value, path) => {
    if (!isFields(value)) return wrong(path, 'an object', value);
    for (const [key, shape] of entries) {
      const problem = shape(value[key], at(path, key));
      if (problem !== null) return problem;
    }
    return null;
  };
}

export function list(item: Shape): Shape {
  return (value, path) => {
    if (!Array.isArray(value)) return wrong(path, 'a list', value);
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], `${path}[${i}]`);
      if (problem !== null) return problem;
    }
    return null;
  };
}

/**
 * An object with a string `type`, checked further by the case for that type; a type not listed passes (new
 * block, item and delta types appear often, and are ignored).
 */
export function typed(cases: Record<string, Shape>): Shape {
  return (value, path) => {
    if (!isFields(value)) return wrong(path, 'an object', value);
    const type = value.type;
    if (typeof type !== 'string') return wrong(at(path, 'type'), 'a string', type);
    const shape = Object.hasOwn(cases, type) ? cases[type] : undefined;
    return shape === undefined ? null : shape(value, path);
  };
}

/**
 * One event's data, dispatched on its JSON `type` (Responses, Messages): the event, `unknownEvent`, or why a
 * known one cannot be read. `shapes` holds the event types whose fields the reducer reads (other types pass,
 * and the reducer ignores them). Data that cannot say what it is is malformed when its SSE name says it is
 * one of `known`, or when it is unnamed and not JSON at all (a known event cut or garbled); under any other
 * name (a gateway's own event, a vendor's debug line), or unnamed JSON without a type, it is skipped.
 */
export function decodeTyped<E>(
  data: string,
  eventName: string,
  shapes: Record<string, Shape>,
  known: ReadonlySet<string>,
): E | MalformedEvent | UnknownEvent {
  const value = jsonValue(data);
  const type = isFields(value) ? value.type : undefined;
  if (typeof type !== 'string') {
    const meant = known.has(eventName) || (eventName === 'message' && value === notJson);
    if (!meant) return unknownEvent;
    return isFields(value)
      ? new MalformedEvent(`The server sent an event without a type: ${wrong('type', 'a string', type)}.`)
      : notAnObject(data, value);
  }
  const shape = Object.hasOwn(shapes, type) ? shapes[type] : undefined;
  const problem = shape === undefined ? null : shape(value, '');
  return problem === null ? (value as E) : malformed(type, problem);
}

/** An event of a known type whose fields have the wrong shape. */
export function malformed(what: string, problem: string): MalformedEvent {
  return new MalformedEvent(`The server sent a ${what} event that cannot be read: ${problem}.`);
}

/** A string field of an error payload, read leniently: an error is reported whatever its details look like. */
export function errorText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** An error payload's object, read leniently (see `errorText`). */
export function errorFields(value: unknown): Fields {
  return isFields(value) ? value : {};
}
