import type { RelayOutcome } from '../../src/core/index.ts';

/**
 * The relay's events (docs/relay.md, `src/core/relay.ts`: the page reads them with the same code): the
 * gateway's body in pieces, numbered from 1, then one `end` with the answer's outcome. The same shape in
 * memory, in the database and on the wire.
 */

export const outcomes = [
  'complete',
  'cut',
  'stopped',
  'lost',
  'too-large',
] as const satisfies readonly RelayOutcome[];

/** How an answer ended (an `end` event without its id). */
export type Ending = { outcome: RelayOutcome; message?: string };

/** The highest id `Last-Event-ID` may name: ids are counts of pieces, far below this. */
const MAX_EVENT_ID = 2 ** 31 - 1;

/**
 * `Last-Event-ID` as a number: absent or empty is 0 (from the start); anything but one decimal whole
 * number up to 2³¹−1 (a list, a sign, a fraction, a huge value) is null: the request is refused with 400.
 */
export function lastEventId(header: string | string[] | undefined): number | null {
  if (header === undefined) return 0;
  if (typeof header !== 'string') return null;
  const text = header.trim();
  if (text === '') return 0;
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_EVENT_ID ? id : null;
}
