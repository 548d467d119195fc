import {
  createSseParser,
  type RelayItem,
  type RelayOutcome,
  readRelayEvent,
  relayHeader,
} from '../../core/index.ts';
import type { RelayLink } from './streamSource.ts';

/** The browser's word on its network (`online` and `offline` on the window). */
export interface NetworkEvents {
  /** Calls `listener` on each such event until the returned function is called. */
  on(event: 'online' | 'offline', listener: () => void): () => void;
}

export interface RelayAccess {
  fetch: typeof fetch;
  /** Waits before a reconnection (resolves early when `signal` aborts). */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Going offline breaks the connection at once (a connection over a network that is gone may hang for
   * minutes before it fails), and coming back online reconnects at once.
   */
  network?: NetworkEvents;
}

/** Waits between reconnections: quick at first (a reload's blip), then every few seconds. */
const reconnectDelaysMs = [0, 250, 500, 1000, 2000, 4000];

/**
 * Silence after which the connection is taken for broken: the server writes a comment when it has sent
 * nothing for 15 s, so a connection this quiet is one whose network went away without a word.
 */
const relaySilenceMs = 40_000;
const silenceCheckMs = 5_000;

export const relayEventsPath = (attemptId: string) => `/api/answers/${encodeURIComponent(attemptId)}/events`;

/** Why a relayed answer ended without finishing, as the reader's interruption names it. */
const endedBecause: Record<Exclude<RelayOutcome, 'complete'>, string> = {
  cut: "the gateway's answer broke off",
  stopped: 'stopped from another page or device',
  lost: 'the server stopped while running this answer',
  'too-large': 'the answer grew past the size the server keeps',
};

/**
 * When each stretch of the joined body reached the server (its pieces' `t`), by byte offset: a recording
 * of a relayed answer is timed as the server received it, not as this page read it (a page that picks an
 * answer up reads its first pieces all at once).
 */
export class PieceTimes {
  private readonly ends: number[] = [];
  private readonly times: number[] = [];
  private bytes = 0;
  /** Where the last lookup ended: reading only goes forward. */
  private cursor = 0;

  note(byteLength: number, t: number): void {
    this.bytes += byteLength;
    this.ends.push(this.bytes);
    this.times.push(t);
  }

  /** The server's time for the piece that holds the last of the first `received` bytes (none yet: undefined). */
  at(received: number): number | undefined {
    if (received <= 0) return undefined;
    while (this.cursor < this.ends.length - 1 && this.ends[this.cursor]! < received) this.cursor++;
    return this.times[this.cursor];
  }
}

/** The server cannot go on with this answer: connecting again would not help. */
class RelayGone extends Error {}

/** Whether a response is a relay stream (not an error in JSON, not the gateway's own stream). */
export function isRelay(response: Response): boolean {
  return (
    response.ok &&
    response.body !== null &&
    response.headers.get(relayHeader) === '1' &&
    (response.headers.get('content-type') ?? '').includes('text/event-stream')
  );
}

/** One connection to the server's relay: its bytes read as relay items. */
class RelayConnection {
  readonly items: RelayItem[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private readonly parser = createSseParser((item) => {
    if (item.type !== 'event') return;
    const read = readRelayEvent(item);
    if (read) this.items.push(read);
  });

  /** When bytes last came (performance.now). */
  lastBytesAt = performance.now();

  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }

  /** Reads the next bytes into `items`; false once the connection has ended (cleanly or not). */
  async read(): Promise<boolean> {
    try {
      const { done, value } = await this.reader.read();
      this.lastBytesAt = performance.now();
      this.parser.feed(this.decoder.decode(value, { stream: !done }));
      return !done;
    } catch {
      return false;
    }
  }

  close(reason?: unknown): Promise<void> {
    return this.reader.cancel(reason).catch(() => {});
  }
}

/**
 * The gateway's body as the server relays it: its pieces joined, in order, once. When the connection to
 * the server breaks, the page connects again from the last piece it has (`Last-Event-ID`) for as long as
 * it takes, so the reader sees one unbroken stream; how the answer ended on the server decides how this
 * one ends. `first`: the start's own response; null: a resumption, which connects from the first piece.
 */
export function relayedBody(
  first: Response | null,
  attemptId: string,
  access: RelayAccess,
  signal: AbortSignal,
  link: Pick<RelayLink, 'reconnecting' | 'resumed'>,
  times?: PieceTimes,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId = 0;
  let connection = first && new RelayConnection(first);
  // A connection the network left behind is closed here: reading it then ends, and the page reconnects.
  const stopWatchingOffline = access.network?.on('offline', () => void connection?.close());
  const silenceWatch = setInterval(() => {
    if (connection && performance.now() - connection.lastBytesAt > relaySilenceMs) void connection.close();
  }, silenceCheckMs);
  const finished = () => {
    stopWatchingOffline?.();
    clearInterval(silenceWatch);
  };

  /** The wait before connecting again, cut short when the browser comes back online. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        stopWatchingOnline?.();
        resolve();
      };
      const stopWatchingOnline = access.network?.on('online', done);
      void access.wait(ms, signal).then(done);
    });

  /** Connects from the last piece; throws when the server no longer has the answer, or on a stop. */
  const connect = async (broken: boolean): Promise<RelayConnection> => {
    let announced = broken;
    if (broken) link.reconnecting();
    for (let tries = 0; ; tries++) {
      await pause(reconnectDelaysMs[Math.min(tries, reconnectDelaysMs.length - 1)]!);
      signal.throwIfAborted();
      const response = await access
        .fetch(relayEventsPath(attemptId), {
          headers: { 'last-event-id': String(lastId), accept: 'text/event-stream' },
          signal,
        })
        .catch(() => null);
      signal.throwIfAborted();
      if (response && isRelay(response)) {
        if (announced) link.resumed();
        return new RelayConnection(response);
      }
      await response?.body?.cancel().catch(() => {});
      if (response?.status === 404) throw new RelayGone('the server no longer has this answer');
      if (response?.status === 401 || response?.status === 403)
        throw new RelayGone('signed out: the server keeps the answer for the person who asked');
      if (!announced) link.reconnecting();
      announced = true;
    }
  };

  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        await next(controller);
      } catch (error) {
        finished();
        throw error;
      }
    },
    cancel(reason) {
      finished();
      return connection?.close(reason);
    },
  });

  /** Hands the reader the next piece, or ends the stream as the answer ended. */
  async function next(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      connection ??= await connect(false);
      const item = connection.items.shift();
      if (item?.kind === 'piece') {
        // A piece already read (sent again after a reconnection) is not read twice.
        if (item.id <= lastId) continue;
        lastId = item.id;
        if (item.text === '') continue;
        const bytes = encoder.encode(item.text);
        times?.note(bytes.byteLength, item.t);
        controller.enqueue(bytes);
        return;
      }
      if (item?.kind === 'end') {
        finished();
        await connection.close();
        if (item.outcome === 'complete') controller.close();
        else controller.error(new Error(item.message ?? endedBecause[item.outcome]));
        return;
      }
      if (await connection.read()) continue;
      if (connection.items.length > 0) continue;
      // The connection ended before the answer did: the answer goes on on the server.
      connection = await connect(true);
    }
  }
}

/** The window's `online` and `offline` events. */
export function windowNetwork(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
): NetworkEvents {
  return {
    on(event, listener) {
      target.addEventListener(event, listener);
      return () => target.removeEventListener(event, listener);
    },
  };
}
