import { adapters } from './protocols/index.ts';
import { MalformedEvent } from './protocols/json.ts';
import { createSseParser } from './sse/parser.ts';
import type { SseItem } from './sse/types.ts';
import { emptyTurn, type Protocol, type Turn } from './turn.ts';

export interface ReadTurnOptions {
  signal?: AbortSignal;
  /** Called after each network chunk that changed the turn (callers batch renders further). */
  onUpdate?: (turn: Turn) => void;
  /** Every SSE event and comment, in arrival order, stamped with its arrival time: for recording and the watchdog. */
  onItem?: (item: SseItem) => void;
  /** Every chunk of bytes as received, with its arrival time: for byte counts, raw export and the watchdog. */
  onChunk?: (bytes: Uint8Array, at: number) => void;
  /** The clock stamping items; injectable for tests. */
  now?: () => number;
}

const interruptedMessage = 'The connection closed before the answer was finished.';
const abortedMessage = 'Stopped before the answer was finished.';

/**
 * Reads one streamed answer to its end. Never throws for anything the server sends: a bad stream
 * ends as `error` or `interrupted`, with everything received before it kept.
 */
export async function readTurn(
  protocol: Protocol,
  body: ReadableStream<Uint8Array>,
  options: ReadTurnOptions = {},
): Promise<Turn> {
  const { signal, onUpdate, onItem, onChunk } = options;
  const now = options.now ?? (() => performance.now());
  const adapter = adapters[protocol];
  let turn = emptyTurn;

  const parser = createSseParser((item) => {
    onItem?.(item);
    if (item.type !== 'event' || turn.status !== 'streaming') return;
    const decoded = adapter.decode(item);
    turn =
      decoded instanceof MalformedEvent
        ? { ...turn, status: 'error', error: { code: decoded.code, message: decoded.message } }
        : adapter.reduce(turn, decoded);
  }, now);

  // The parser strips a leading BOM itself, so that feeding it text directly behaves the same.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const reader = body.getReader();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  let failure: unknown = null;
  try {
    while (turn.status === 'streaming') {
      const { done, value } = await reader.read();
      const before = turn;
      if (done) {
        parser.feed(decoder.decode());
        parser.end();
      } else {
        onChunk?.(value, now());
        parser.feed(decoder.decode(value, { stream: true }));
      }
      if (turn !== before) onUpdate?.(turn);
      if (done) break;
    }
  } catch (error) {
    failure = error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  // A terminal event may be followed by more bytes (`[DONE]` after `response.completed`): not needed.
  if (turn.status !== 'streaming') reader.cancel().catch(() => {});

  if (signal?.aborted && turn.status === 'streaming') {
    turn = { ...turn, status: 'aborted', error: { code: 'aborted', message: abortedMessage } };
  } else if (turn.status === 'streaming') {
    const detail = failure instanceof Error && failure.message ? ` (${failure.message})` : '';
    turn = {
      ...turn,
      status: 'interrupted',
      error: { code: 'interrupted', message: interruptedMessage + detail },
    };
  }
  return turn;
}
