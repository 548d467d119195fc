import {
  emptyTurn,
  type HttpError,
  noteBytes,
  noteKeepalive,
  noteOutput,
  type Protocol,
  parseHttpError,
  readTurn,
  startWatch,
  type Turn,
  type WatchState,
} from '../core/index.ts';
import type { AttemptTrace, SentRequest } from '../state/types.ts';
import { corsAdvice } from './gateway.ts';

/** Caps on what one attempt records for the inspector, so a runaway stream cannot exhaust memory. */
export const traceLimits = { items: 20_000, rawChars: 4_000_000 };

export function emptyTrace(): AttemptTrace {
  return {
    headersAt: null,
    firstOutputAt: null,
    endedAt: null,
    bytes: 0,
    deltaEvents: 0,
    items: [],
    raw: '',
    truncated: false,
  };
}

export interface AttemptProgress {
  turn: Turn;
  trace: AttemptTrace;
  watch: WatchState;
}

export interface AttemptOutcome {
  turn: Turn;
  httpError: HttpError | null;
  trace: AttemptTrace;
}

export interface RunAttemptOptions {
  protocol: Protocol;
  request: SentRequest;
  /** Credentials, added here and never stored with the request. */
  authHeaders: Record<string, string>;
  /** Whether the gateway is on another origin (a network failure may then be CORS). */
  direct: boolean;
  signal: AbortSignal;
  onProgress(progress: AttemptProgress): void;
  fetchImpl?: typeof fetch;
  now?: () => number;
}

const failed = (code: string, message: string): Turn => ({
  ...emptyTurn,
  status: 'error',
  error: { code, message },
});

/** One HTTP request and its stream, read to the end, with everything recorded on the way. */
export async function runAttempt(options: RunAttemptOptions): Promise<AttemptOutcome> {
  const { protocol, request, signal, onProgress } = options;
  const now = options.now ?? (() => performance.now());
  const fetchImpl = options.fetchImpl ?? fetch;
  const startedAt = now();
  let watch = startWatch(startedAt);
  let trace = emptyTrace();
  const since = (at: number) => Math.round(at - startedAt);
  const end = (turn: Turn, httpError: HttpError | null = null): AttemptOutcome => {
    trace = { ...trace, endedAt: since(now()) };
    return { turn, httpError, trace };
  };

  let response: Response;
  try {
    response = await fetchImpl(request.url, {
      method: 'POST',
      headers: { ...request.headers, ...options.authHeaders },
      body: JSON.stringify(request.body),
      signal,
    });
  } catch (error) {
    if (signal.aborted)
      return end({ ...emptyTurn, status: 'aborted', error: { code: 'aborted', message: 'Stopped.' } });
    const detail = error instanceof Error ? error.message : String(error);
    return end(
      failed('network_error', options.direct ? `${corsAdvice} (${detail})` : `Network error: ${detail}`),
    );
  }
  trace = { ...trace, headersAt: since(now()) };

  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || !response.body || (contentType !== '' && !contentType.includes('text/event-stream'))) {
    const text = await response.text().catch(() => '');
    const httpError = parseHttpError(response.status, response.headers, text);
    const error = response.ok
      ? failed(
          'unexpected_response',
          `Expected an event stream, got ${contentType || 'no content type'}: ${httpError.message}`,
        )
      : failed(httpError.code, httpError.message);
    return end(error, response.ok ? null : httpError);
  }

  const record = (item: AttemptTrace['items'][number]) => {
    if (trace.items.length < traceLimits.items) trace.items.push(item);
    else trace.truncated = true;
  };
  let latest = emptyTurn;
  const report = () => onProgress({ turn: latest, trace: { ...trace }, watch });
  const turn = await readTurn(protocol, response.body, {
    signal,
    now,
    onChunk(bytes, at, text) {
      watch = noteBytes(watch, at);
      trace.bytes += bytes.byteLength;
      if (trace.raw.length < traceLimits.rawChars) trace.raw += text;
      else trace.truncated = true;
      report();
    },
    onItem(item, content) {
      if (item.type === 'comment') {
        watch = noteKeepalive(watch, item.at);
        record({ t: since(item.at), kind: 'comment', event: '', data: item.text });
      } else {
        if (content) trace.deltaEvents++;
        record({ t: since(item.at), kind: 'event', event: item.event, data: item.data });
      }
    },
    onUpdate(next) {
      // New content (not just usage or ids) is what proves the model is producing.
      if (next.parts !== latest.parts) {
        const at = now();
        watch = noteOutput(watch, at);
        if (trace.firstOutputAt === null) trace.firstOutputAt = since(at);
      }
      latest = next;
      report();
    },
  });
  return end(turn);
}
