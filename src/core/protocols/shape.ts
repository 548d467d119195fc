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

/**
 * What is wrong with a value: what was expected, what came, and where. The path is built only when a check
 * fails, innermost step first: these checks run on every event off the template paths, mostly in V8's
 * first tiers, where a string made per field checked was a measurable part of a short answer.
 */
export class Problem {
  /** `.key` or `[index]`, innermost first. */
  private readonly steps: string[] = [];
  constructor(
    private readonly expected: string,
    private readonly value: unknown,
  ) {}

  /** The problem, one step further out (`key` of an object, or `[index]` of a list). */
  within(step: string): Problem {
    this.steps.push(step);
    return this;
  }

  /** What is wrong, and where in the event. */
  text(): string {
    let path = '';
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const step = this.steps[i]!;
      path = step.startsWith('[') || path === '' ? path + step : `${path}.${step}`;
    }
    return `\`${path}\` is ${kindOf(this.value)} (expected ${this.expected})`;
  }
}

/** A check of one decoded JSON value: null when it has the shape, else what is wrong with it. */
export type Shape = (value: unknown) => Problem | null;

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

export const string: Shape = (value) => (typeof value === 'string' ? null : new Problem('a string', value));

/** A token count: a finite number (`1e400` parses to Infinity). */
export const count: Shape = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? null : new Problem('a number', value);

/** A position (`index`, `output_index`, …): a whole number from 0. */
export const position: Shape = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? null
    : new Problem('a whole number from 0', value);

/** Absent or null, or else of `shape`. */
export function maybe(shape: Shape): Shape {
  return (value) => (value === undefined || value === null ? null : shape(value));
}

/** An object (not a list) whose listed fields have their shapes; other fields may be anything. */
export function object(fields: Record<string, Shape>): Shape {
  const keys = Object.keys(fields);
  const shapes = keys.map((key) => fields[key]!);
  return (value) => {
    if (!isFields(value)) return new Problem('an object', value);
    for (let i = 0; i < keys.length; i++) {
      const problem = shapes[i]!(value[keys[i]!]);
      if (problem !== null) return problem.within(keys[i]!);
    }
    return null;
  };
}

export function list(item: Shape): Shape {
  return (value) => {
    if (!Array.isArray(value)) return new Problem('a list', value);
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i]);
      if (problem !== null) return problem.within(`[${i}]`);
    }
    return null;
  };
}

/**
 * An object with a string `type`, checked further by the case for that type; a type not listed passes (new
 * block, item and delta types appear often, and are ignored).
 */
export function typed(cases: Record<string, Shape>): Shape {
  return (value) => {
    if (!isFields(value)) return new Problem('an object', value);
    const type = value.type;
    if (typeof type !== 'string') return new Problem('a string', type).within('type');
    const shape = Object.hasOwn(cases, type) ? cases[type] : undefined;
    return shape === undefined ? null : shape(value);
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
      ? new MalformedEvent(
          `The server sent an event without a type: ${new Problem('a string', type).within('type').text()}.`,
        )
      : notAnObject(data, value);
  }
  const shape = Object.hasOwn(shapes, type) ? shapes[type] : undefined;
  const problem = shape === undefined ? null : shape(value);
  return problem === null ? (value as E) : malformed(type, problem);
}

/** An event of a known type whose fields have the wrong shape. */
export function malformed(what: string, problem: Problem): MalformedEvent {
  return new MalformedEvent(`The server sent a ${what} event that cannot be read: ${problem.text()}.`);
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
