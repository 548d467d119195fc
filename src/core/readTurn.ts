import { keepShape } from './keepShape.ts';
import { adapters, type ProtocolAdapter, type Stepper } from './protocols/index.ts';
import { SseScanner, type SseSink } from './sse/parser.ts';
import type { SseItem } from './sse/types.ts';
import { emptyTurn, type Protocol, type Turn } from './turn.ts';

export interface ReadTurnOptions {
  signal?: AbortSignal;
  /** Called after each network chunk that changed the turn (callers batch renders further). */
  onUpdate?: (turn: Turn) => void;
  /**
   * Every SSE event and comment, in arrival order, stamped with its arrival time: for recording and the
   * watchdog. `output`: the event added output to the turn: a delta or a new tool call.
   */
  onItem?: (item: SseItem, output: boolean) => void;
  /**
   * Every chunk of bytes as received, with its arrival time and its text (decoded here once, a leading BOM
   * kept): for byte counts, the raw export and the watchdog.
   */
  onChunk?: (bytes: Uint8Array, at: number, text: string) => void;
  /** The clock stamping items; injectable for tests. */
  now?: () => number;
}

const streaming = { stream: true } as const;

/**
 * One stream's events into `turn`, through the stream's own stepper; builds `SseItem`s only for a caller
 * that records them. A class, not closures (see README, Performance).
 */
class TurnSink implements SseSink {
  turn: Turn = emptyTurn;
  private readonly stepper: Stepper;
  constructor(
    adapter: ProtocolAdapter<unknown>,
    private readonly onItem: ((item: SseItem, output: boolean) => void) | undefined,
  ) {
    this.stepper = adapter.newStepper();
  }

  event(event: string, data: string, id: string, at: number): void {
    const before = this.turn;
    if (before.status === 'streaming') this.turn = this.stepper.step(before, data, event);
    if (this.onItem !== undefined)
      this.onItem({ type: 'event', event, data, id, at }, this.turn.parts !== before.parts);
  }

  comment(text: string, at: number): void {
    this.onItem?.({ type: 'comment', text, at }, false);
  }
}

keepShape(new TurnSink(adapters.chat, undefined));

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

  const sink = new TurnSink(adapter, onItem);
  // Only items carry times and comments: without a recorder the scanner skips both.
  const parser = new SseScanner(sink, onItem === undefined ? null : now, onItem !== undefined);

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
    while (sink.turn.status === 'streaming') {
      const { done, value } = await reader.read();
      const before = sink.turn;
      if (done) {
        parser.feed(decoder.decode());
        parser.end();
      } else {
        const text = decoder.decode(value, streaming);
        onChunk?.(value, now(), text);
        parser.feed(text);
      }
      if (onUpdate !== undefined && sink.turn !== before) onUpdate(sink.turn);
      if (done) break;
    }
  } catch (error) {
    failure = error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  let turn = sink.turn;
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
