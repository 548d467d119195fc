import { PieceTimes, type RelayAccess, relayedBody } from './relayedBody.ts';
import type { RelayLink, StopReason } from './streamSource.ts';

const answerPath = (attemptId: string) => `/api/answers/${encodeURIComponent(attemptId)}`;

/**
 * The page's side of an answer the server runs (docs/relay.md): its body read through the relay, a stop
 * asked of the server (on whichever process runs it), and the server told once the answer is stored.
 */
export class ServerRelay {
  private readonly attemptId: string;
  private readonly access: RelayAccess;
  private readonly times = new PieceTimes();

  constructor(attemptId: string, access: RelayAccess) {
    this.attemptId = attemptId;
    this.access = access;
  }

  /**
   * The gateway's stream from the relay: `first` is the start's own response; null picks the answer up
   * from its first piece. A stop (but not the page going away) stops the answer on the server too.
   */
  body(first: Response | null, signal: AbortSignal, link: RelayLink): Response {
    signal.addEventListener(
      'abort',
      () => {
        if ((signal.reason as StopReason) !== 'disposed') this.send('/stop', 'POST');
      },
      { once: true },
    );
    const body = relayedBody(first, this.attemptId, this.access, signal, link, this.times);
    return new Response(body, {
      status: 200,
      headers: first?.headers ?? { 'content-type': 'text/event-stream' },
    });
  }

  /** When the server received the first `received` bytes of the body, in ms after it sent the request. */
  recordingTime(received: number): number | undefined {
    return this.times.at(received);
  }

  /** The answer is stored whole: the server may forget it (after a grace for other pages still reading). */
  forget(): void {
    this.send('', 'DELETE');
  }

  private send(path: string, method: 'POST' | 'DELETE'): void {
    // Kept alive: a stop pressed as the page closes still reaches the server. A failure changes nothing
    // here: the server forgets the answer on its own in time.
    this.access
      .fetch(answerPath(this.attemptId) + path, { method, keepalive: true })
      .then((response) => response.body?.cancel())
      .catch(() => {});
  }
}
