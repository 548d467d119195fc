/** One dispatched SSE event, per the WHATWG "interpret an event stream" rules. */
export interface SseEvent {
  type: 'event';
  /** The `event:` field, or `message` when none was given. */
  event: string;
  /** All `data:` lines of the event joined with `\n`. */
  data: string;
  /** The last event id seen so far (persists across events). */
  id: string;
  /** When the bytes that completed this event arrived (clock of the reader, ms). */
  at: number;
}

/** A comment line (`: hopbase-keepalive`): never an event, but proof the connection is alive. */
export interface SseComment {
  type: 'comment';
  /** The text after the colon, with one leading space removed. */
  text: string;
  at: number;
}

export type SseItem = SseEvent | SseComment;
