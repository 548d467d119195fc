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

export function parseJson<E>(data: string): Decoded<E> {
  try {
    const value: unknown = JSON.parse(data);
    if (value !== null && typeof value === 'object') return value as E;
  } catch {
    // fall through: reported below with a short excerpt of what arrived
  }
  const excerpt = data.length > 120 ? `${data.slice(0, 120)}…` : data;
  return new MalformedEvent(`The server sent an event that is not valid JSON: ${excerpt}`);
}

/** The next turn for a decoded event; an event that could not be read ends the turn as an error. */
export function reduceOrFail<E>(
  turn: Turn,
  decoded: Decoded<E>,
  reduce: (turn: Turn, event: E) => Turn,
): Turn {
  return decoded instanceof MalformedEvent
    ? fail(turn, decoded.code, decoded.message)
    : reduce(turn, decoded);
}
