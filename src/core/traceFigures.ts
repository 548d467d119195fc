/**
 * Latency figures of one recorded attempt. Offsets are ms from the moment the request was sent;
 * items are the SSE events and comments in arrival order.
 */

export interface TraceInput {
  headersAt: number | null;
  firstOutputAt: number | null;
  endedAt: number | null;
  bytes: number;
  items: readonly { t: number; kind: 'event' | 'comment' }[];
}

export interface TraceFigures {
  timeToHeadersMs: number | null;
  timeToFirstTokenMs: number | null;
  durationMs: number | null;
  /** Output tokens per second of generation (first output to end; while it streams, to its last event). */
  tokensPerSecond: number | null;
  /** Whether tokens/s comes from reported usage or from counted output events. */
  tokensPerSecondSource: 'usage' | 'events' | null;
  /** The longest stretch without an event (keepalive comments do not break it: the model was silent), and where it started. */
  longestSilenceMs: number;
  longestSilenceStartMs: number;
  keepalives: number;
  events: number;
  bytes: number;
}

export function traceFigures(
  trace: TraceInput,
  outputTokens: number | null,
  outputEvents: number,
): TraceFigures {
  let keepalives = 0;
  let events = 0;
  let longestSilenceMs = 0;
  let longestSilenceStartMs = 0;
  // Silence is measured from the response headers (before them, the wait is time-to-headers).
  let previous = trace.headersAt;
  const gap = (from: number | null, to: number) => {
    if (from !== null && to - from > longestSilenceMs) {
      longestSilenceMs = to - from;
      longestSilenceStartMs = from;
    }
  };
  for (const item of trace.items) {
    if (item.kind === 'comment') {
      keepalives++;
      continue;
    }
    events++;
    gap(previous, item.t);
    previous = item.t;
  }
  if (trace.endedAt !== null) gap(previous, trace.endedAt);

  // While the answer streams, the rate so far: up to its last event.
  const until = trace.endedAt ?? (events > 0 ? previous : null);
  const generationMs = trace.firstOutputAt !== null && until !== null ? until - trace.firstOutputAt : null;
  const count = outputTokens ?? (outputEvents > 0 ? outputEvents : null);
  const tokensPerSecond =
    generationMs && generationMs > 0 && count !== null ? (count * 1000) / generationMs : null;
  return {
    timeToHeadersMs: trace.headersAt,
    timeToFirstTokenMs: trace.firstOutputAt,
    durationMs: trace.endedAt,
    tokensPerSecond,
    tokensPerSecondSource: tokensPerSecond === null ? null : outputTokens !== null ? 'usage' : 'events',
    longestSilenceMs,
    longestSilenceStartMs,
    keepalives,
    events,
    bytes: trace.bytes,
  };
}

/**
 * How long the model had been silent when a failed stream ended: the longest silence (keepalives do not
 * break it) when it runs up to the end or to the last event (the error itself); 0 otherwise. A capped
 * recording lacks its last items, so the gap before its end is unknown: 0.
 */
export function silenceBeforeEnd(trace: TraceInput & { truncated: boolean }): number {
  if (trace.endedAt === null || trace.truncated) return 0;
  const { longestSilenceMs, longestSilenceStartMs } = traceFigures(trace, null, 0);
  const lastEventAt = trace.items.findLast((item) => item.kind === 'event')?.t ?? trace.endedAt;
  return longestSilenceStartMs + longestSilenceMs >= lastEventAt ? longestSilenceMs : 0;
}
