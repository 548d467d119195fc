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

/** Outcome of reading one SSE event's data as JSON: the protocol event, or why it could not be read. */
export type Decoded<E> = E | MalformedEvent;

const excerpt = (data: string) => (data.length > 120 ? `${data.slice(0, 120)}…` : data);

/** An event's data as a JSON object (every event of the three protocols is one), or why it is not. */
export function parseJson<E>(data: string): Decoded<E> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return new MalformedEvent(`The server sent an event that is not valid JSON: ${excerpt(data)}`);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as E;
  return new MalformedEvent(`The server sent an event that is not a JSON object: ${excerpt(data)}`);
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
