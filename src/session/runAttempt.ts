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
import { Recorder } from '../state/domain/recordings.ts';
import type { AttemptTrace } from '../state/domain/types.ts';
import { AttachmentMissing } from './attachmentData.ts';
import { corsAdvice } from './gateway.ts';

export interface AttemptProgress {
  turn: Turn;
  /** The recording so far: take a snapshot when applying progress, not on every chunk. */
  recorder: Recorder;
  watch: WatchState;
}

export interface AttemptOutcome {
  turn: Turn;
  httpError: HttpError | null;
  trace: AttemptTrace;
}

export interface RunAttemptOptions {
  protocol: Protocol;
  /** Sends the request (with its credentials) or opens a recording: the response to read. */
  open(signal: AbortSignal): Promise<Response>;
  /** Whether the response comes from another origin: a network failure may then be CORS. */
  crossOrigin: boolean;
  /** After a network failure: whether the page's security policy refused the connection. */
  refusedByPolicy?(): Promise<boolean>;
  /** When the first `received` bytes reached the server that ran the answer (`Connection.recordingTime`). */
  recordingTime?(received: number): number | undefined;
  signal: AbortSignal;
  onProgress(progress: AttemptProgress): void;
  /** How reading hands the thread back to the page (`readTurn`'s; the session waits for the next frame). */
  yieldToEventLoop?: () => Promise<void>;
  /** How long reading may work between two yields (`readTurn`'s). */
  workSliceMs?: number;
  now?: () => number;
}

const failed = (code: string, message: string): Turn => ({
  ...emptyTurn,
  status: 'error',
  error: { code, message },
});

/** One HTTP request and its stream, read to the end, with everything recorded on the way. */
export async function runAttempt(options: RunAttemptOptions): Promise<AttemptOutcome> {
  const { protocol, signal, onProgress } = options;
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  const recorder = new Recorder(startedAt);
  // The recording's clock: the page's, moved with each chunk the server timed to that chunk's time there.
  let shift = 0;
  const recorded = (at: number) => at + shift;
  let watch = startWatch(startedAt);
  const end = (turn: Turn, httpError: HttpError | null = null): AttemptOutcome => {
    recorder.end(recorded(now()));
    return { turn, httpError, trace: recorder.snapshot() };
  };

  let response: Response;
  try {
    response = await options.open(signal);
  } catch (error) {
    if (signal.aborted)
      return end({ ...emptyTurn, status: 'aborted', error: { code: 'aborted', message: 'Stopped.' } });
    if (error instanceof AttachmentMissing) return end(failed(error.code, error.message));
    const detail = error instanceof Error ? error.message : String(error);
    if (await options.refusedByPolicy?.())
      return end(
        failed('blocked_by_policy', `Refused by the page's Content-Security-Policy (connect-src): ${detail}`),
      );
    return end(
      failed('network_error', options.crossOrigin ? `${corsAdvice} (${detail})` : `Network error: ${detail}`),
    );
  }
  recorder.headers(now());

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

  let latest = emptyTurn;
  const report = () => onProgress({ turn: latest, recorder, watch });
  const turn = await readTurn(protocol, response.body, {
    signal,
    now,
    yieldToEventLoop: options.yieldToEventLoop,
    workSliceMs: options.workSliceMs,
    onChunk(bytes, at, text) {
      watch = noteBytes(watch, at);
      recorder.chunk(bytes.byteLength, text);
      const there = options.recordingTime?.(recorder.receivedBytes);
      if (there !== undefined) shift = startedAt + there - at;
      report();
    },
    onItem(item, output) {
      if (item.type === 'comment') {
        watch = noteKeepalive(watch, item.at);
        recorder.comment(recorded(item.at), item.text);
      } else {
        recorder.event(recorded(item.at), item.event, item.data, output);
      }
    },
    onUpdate(next) {
      // New content (not just usage or ids) is what proves the model is producing.
      if (next.parts !== latest.parts) {
        const at = now();
        watch = noteOutput(watch, at);
        recorder.output(recorded(at));
      }
      latest = next;
      report();
    },
  });
  return end(turn);
}
