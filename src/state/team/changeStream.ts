import * as v from 'valibot';

/**
 * The person's changes as the team server pushes them (`GET /api/changes`, Server-Sent Events): each change
 * names what changed and its version, never the content, and carries its place in the order of changes,
 * which a reconnecting stream sends back (`Last-Event-ID`, or `since` when opened anew) to get what it missed.
 */

const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const changeFields = {
  kind: v.picklist(['conversation', 'settings']),
  id: v.string(),
  version: count,
  deleted: v.boolean(),
};
/** One change; its place is the event's id. */
const change = v.pipe(v.string(), v.parseJson(), v.object(changeFields));
/** A page of missed changes, each with its place (`change`). */
const changes = v.pipe(v.string(), v.parseJson(), v.array(v.object({ ...changeFields, change: count })));

export type RemoteChange = v.InferOutput<typeof change> & {
  /** Its place in the order of the person's changes. */
  readonly position: number;
};

export type StreamEvent =
  | { kind: 'change'; change: RemoteChange }
  /** Missed changes, several at once, in their order. */
  | { kind: 'changes'; changes: RemoteChange[] }
  /** What was missed since `since` has been sent: from now on, live changes. */
  | { kind: 'ready' }
  /** The connection dropped: the browser reconnects on its own, from the last change it heard. */
  | { kind: 'interrupted' }
  /** The server may have missed changes on its side: open the stream again, from the last change heard. */
  | { kind: 'missed' }
  /** The server refused the stream (the session ended, too many streams): the caller decides what next. */
  | { kind: 'closed' };

export interface ChangeStream {
  close(): void;
}

/** Opens the stream from change `since`; `listener` hears its events until it is closed. */
export type OpenChangeStream = (since: number, listener: (event: StreamEvent) => void) => ChangeStream;

/** One event of the stream as the page hears it (undefined: not one it knows, or not sound). */
export function readStreamEvent(type: string, data: string, lastEventId: string): StreamEvent | undefined {
  if (type === 'ready') return { kind: 'ready' };
  if (type === 'resync') return { kind: 'missed' };
  if (type === 'changes') {
    const read = v.safeParse(changes, data);
    return read.success
      ? {
          kind: 'changes',
          changes: read.output.map(({ change, ...rest }) => ({ ...rest, position: change })),
        }
      : undefined;
  }
  if (type !== 'change') return undefined;
  const read = v.safeParse(change, data);
  const position = Number(lastEventId);
  return read.success && Number.isSafeInteger(position)
    ? { kind: 'change', change: { ...read.output, position } }
    : undefined;
}

/** The stream's address from change `since`: what was missed comes a page per event (`changes`). */
export const changeStreamPath = (since: number) => `/api/changes?since=${since}&batch=1`;

/** The stream through the browser's EventSource, which reconnects on its own after a dropped connection. */
export const openChangeStream: OpenChangeStream = (since, listener) => {
  const source = new EventSource(changeStreamPath(since));
  const hear = (event: MessageEvent<string>) => {
    const read = readStreamEvent(event.type, event.data, event.lastEventId);
    if (read) listener(read);
  };
  for (const type of ['change', 'changes', 'ready', 'resync']) source.addEventListener(type, hear);
  source.addEventListener('error', () => {
    listener({ kind: source.readyState === EventSource.CLOSED ? 'closed' : 'interrupted' });
  });
  return { close: () => source.close() };
};
