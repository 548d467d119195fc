/** Outcome of reading one SSE event's data as JSON: the protocol event, or why it could not be read. */
export type Decoded<E> = { ok: true; event: E } | { ok: false; code: 'malformed_event'; message: string };

export function parseJson<E>(data: string): Decoded<E> {
  try {
    const value: unknown = JSON.parse(data);
    if (value !== null && typeof value === 'object') return { ok: true, event: value as E };
  } catch {
    // fall through: reported below with a short excerpt of what arrived
  }
  const excerpt = data.length > 120 ? `${data.slice(0, 120)}…` : data;
  return {
    ok: false,
    code: 'malformed_event',
    message: `The server sent an event that is not valid JSON: ${excerpt}`,
  };
}

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
