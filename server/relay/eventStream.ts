import type { ServerResponse } from 'node:http';
import { type RelayItem, writeRelayEvent } from '../../src/core/index.ts';

/** A comment when nothing else went to a page for this long, so no proxy on the way takes it for dead. */
const KEEP_ALIVE_MS = 15_000;

/** The relay stream's own headers (docs/relay.md). */
const RELAY_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-store',
  'x-hopbase-relay': '1',
} as const;

/**
 * Writes an answer's events to one page as SSE: each as it is handed over, a keep-alive comment in
 * silences, and the response ends after `end`. The page going away stops the following (`until`), never
 * the answer.
 */
export class EventStream {
  private stop: (() => void) | undefined;
  private done = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    /** The last event the page has: the ones up to it are not sent again, but their end still closes. */
    private readonly after = 0,
    keepAliveMs = KEEP_ALIVE_MS,
  ) {
    // One timer per page, pushed back by each write rather than made anew.
    this.timer = setTimeout(() => this.beat(), keepAliveMs);
    this.timer.unref();
    res.once('close', () => this.finish());
  }

  /** The response's head, if not written yet: the relay's headers and `extra`. */
  open(extra: Record<string, string> = {}): void {
    if (this.res.headersSent) return;
    this.res.writeHead(200, { ...extra, ...RELAY_HEADERS });
    this.res.flushHeaders();
  }

  /** For `follow`: each event to the page. */
  readonly send = (event: RelayItem): void => {
    if (this.done) return;
    this.open();
    if (event.id > this.after) this.res.write(writeRelayEvent(event));
    this.timer.refresh();
    if (event.kind === 'end') {
      this.res.end();
      this.finish();
    }
  };

  /** How to stop following, once known: called when the page goes away or the end was sent. */
  until(stop: () => void): void {
    if (this.done) stop();
    else this.stop = stop;
  }

  private beat(): void {
    if (this.done) return;
    this.res.write(': keep-alive\n\n');
    this.timer.refresh();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.stop?.();
  }
}
