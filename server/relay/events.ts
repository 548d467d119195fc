/**
 * The relay's events (docs/relay.md): the gateway's body in pieces, numbered from 1, then one `end` with
 * the answer's outcome. The same shape in memory, in the database and on the wire.
 */

export const outcomes = ['complete', 'cut', 'stopped', 'lost', 'too-large'] as const;
type Outcome = (typeof outcomes)[number];

export type RelayEvent =
  /** `text`: the gateway's bytes as UTF-8; `t`: ms after the gateway was called. */
  | { id: number; type: 'piece'; t: number; text: string }
  | { id: number; type: 'end'; outcome: Outcome; message?: string };

export type Ending = { outcome: Outcome; message?: string };

/** One event as SSE: the piece's JSON on one `data` line (JSON escapes every line break). */
export function sseEvent(event: RelayEvent): string {
  if (event.type === 'piece')
    return `id: ${event.id}\ndata: ${JSON.stringify({ t: event.t, text: event.text })}\n\n`;
  const { outcome, message } = event;
  return `id: ${event.id}\nevent: end\ndata: ${JSON.stringify(message === undefined ? { outcome } : { outcome, message })}\n\n`;
}

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
