import type { ServerResponse } from 'node:http';

/** One SSE event; Chat events have no `event:` name. `data` is already serialized. */
export interface SseEvent {
  event?: string;
  data: string;
}

const KEEPALIVE = ': hopbase-keepalive\n\n';

function formatEvent({ event, data }: SseEvent): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`;
}

/**
 * An open `text/event-stream` response. Each `send` is a single write of complete events, so the
 * keepalive timer can only ever land between events. `signal` aborts when the stream ends for any
 * reason, including the client going away, so whoever drives the stream can stop its own timers.
 */
export class SseStream {
  private readonly controller = new AbortController();
  private readonly keepalive: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    keepaliveMs: number,
    headers: Record<string, string>,
  ) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.keepalive = setInterval(() => this.write(KEEPALIVE), Math.max(1, keepaliveMs));
    res.on('close', () => this.stop());
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  send(events: readonly SseEvent[]): void {
    if (events.length > 0) this.write(events.map(formatEvent).join(''));
  }

  /** Normal end of the response (after a terminal event or a mid-stream error). */
  end(): void {
    this.stop();
    if (!this.res.writableEnded) this.res.end();
  }

  /** Cuts the connection without a terminal event or the final HTTP chunk. */
  cut(): void {
    this.stop();
    this.res.destroy();
  }

  private write(text: string): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(text);
  }

  private stop(): void {
    clearInterval(this.keepalive);
    this.controller.abort();
  }
}
