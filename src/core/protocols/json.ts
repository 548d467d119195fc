import type { Turn } from '../turn.ts';
import { fail } from '../turnBuilder.ts';

/**
 * Why an SSE event's data could not be read. A class, so that a decoded event (a plain object) and this
 * are told apart with `instanceof`, without wrapping every event in a result object.
 */
export class MalformedEvent {
  readonly code = 'malformed_event';
  constructor(readonly message: string) {}
}

/**
 * An event this app does not know (a name a gateway added, a vendor's debug event, data without the fields
 * of any known event): skipped, as the official SDKs skip it. Only a known event of the wrong shape is
 * malformed.
 */
export interface UnknownEvent {
  type: 'unknown';
}
export const unknownEvent: UnknownEvent = Object.freeze({ type: 'unknown' });

/** Outcome of reading one SSE event's data: the protocol event, or why it could not be read. */
export type Decoded<E> = E | MalformedEvent;

const excerpt = (data: string) => (data.length > 120 ? `${data.slice(0, 120)}…` : data);

/** What `jsonValue` gives for text that is not JSON. */
export const notJson: unique symbol = Symbol('not JSON');

/** An event's data parsed, or `notJson`. */
export function jsonValue(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return notJson;
  }
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why an event's data (`value` parsed from `data`) is no JSON object. */
export function notAnObject(data: string, value: unknown): MalformedEvent {
  return new MalformedEvent(
    value === notJson
      ? `The server sent an event that is not valid JSON: ${excerpt(data)}`
      : `The server sent an event that is not a JSON object: ${excerpt(data)}`,
  );
}

/** An event's data as a JSON object (every event of the three protocols is one), or why it is not. */
export function parseJson<E>(data: string): Decoded<E> {
  const value = jsonValue(data);
  return isJsonObject(value) ? (value as E) : notAnObject(data, value);
}

/**
 * The next turn for a decoded event; an event that could not be read ends the turn as an error. The
 * decoders check every field their reducer reads, so `reduce` does not throw; should a shape slip past
 * them all the same, the event is reported as malformed (naming it) rather than as a broken connection.
 */
export function reduceOrFail<E>(
  turn: Turn,
  decoded: Decoded<E>,
  reduce: (turn: Turn, event: E) => Turn,
): Turn {
  if (decoded instanceof MalformedEvent) return fail(turn, decoded.code, decoded.message);
  try {
    return reduce(turn, decoded);
  } catch (error) {
    const type = (decoded as { type?: unknown }).type;
    const what = typeof type === 'string' ? `a ${type} event` : 'an event';
    const reason = error instanceof Error ? error.message : String(error);
    return fail(turn, 'malformed_event', `The server sent ${what} that cannot be read (${reason}).`);
  }
}
