import type { SseEvent } from './sse/types.ts';

/**
 * The relay between the page and a server that runs the answer (docs/relay.md): the gateway's body in
 * numbered pieces, then how the answer ended. The page joins the pieces and reads them as a direct stream.
 */

/** How a relayed answer ended on the server. */
export type RelayOutcome = 'complete' | 'cut' | 'stopped' | 'lost' | 'too-large';

export type RelayItem =
  /** A piece of the gateway's body; `t`: ms after the server sent the request. */
  | { kind: 'piece'; id: number; t: number; text: string }
  | { kind: 'end'; id: number; outcome: RelayOutcome; message?: string };

const outcomes: ReadonlySet<string> = new Set<RelayOutcome>([
  'complete',
  'cut',
  'stopped',
  'lost',
  'too-large',
]);

/** The header each side sends to say it relays (the page: it can read one; the server: this is one). */
export const relayHeader = 'x-hopbase-relay';

/** An event id: a positive integer within the range a number counts exactly. */
export function relayId(text: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

function record(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** One relay event read, or null when it is none (a relay's bytes come from our own server: never guessed). */
export function readRelayEvent({
  event,
  data,
  id: idText,
}: Pick<SseEvent, 'event' | 'data' | 'id'>): RelayItem | null {
  const id = relayId(idText);
  const fields = record(data);
  if (id === null || fields === null) return null;
  if (event === 'end') {
    const { outcome, message } = fields;
    if (typeof outcome !== 'string' || !outcomes.has(outcome)) return null;
    return {
      kind: 'end',
      id,
      outcome: outcome as RelayOutcome,
      ...(typeof message === 'string' && { message }),
    };
  }
  const { t, text } = fields;
  if (event !== 'message' || typeof t !== 'number' || !Number.isFinite(t) || typeof text !== 'string')
    return null;
  return { kind: 'piece', id, t, text };
}

/** A relay item as the server writes it. */
export function writeRelayEvent(item: RelayItem): string {
  if (item.kind === 'piece')
    return `id: ${item.id}\ndata: ${JSON.stringify({ t: item.t, text: item.text })}\n\n`;
  const { outcome, message } = item;
  return `id: ${item.id}\nevent: end\ndata: ${JSON.stringify({ outcome, ...(message !== undefined && { message }) })}\n\n`;
}
