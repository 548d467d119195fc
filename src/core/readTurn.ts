import { keepShape } from './keepShape.ts';
import { formatCount, type ReadLimits, readLimits } from './limits.ts';
import { adapters, type ProtocolAdapter, type Stepper } from './protocols/index.ts';
import { ChunkDecoder } from './sse/chunkDecoder.ts';
import { SseScanner, type SseSink } from './sse/parser.ts';
import type { SseItem } from './sse/types.ts';
import { emptyTurn, type Protocol, type Turn, type TurnPart } from './turn.ts';
import { fail } from './turnBuilder.ts';
import { yieldToEventLoop } from './yieldToEventLoop.ts';

export interface ReadTurnOptions {
  signal?: AbortSignal;
  /**
   * Called after each network chunk that changed the turn, and before each yield to the event loop
   * within one (callers batch renders further).
   */
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
  /** The clock stamping items and timing the work between yields; injectable for tests. */
  now?: () => number;
  /**
   * Hands the thread back to the event loop (`yieldToEventLoop` by default; the session waits for the next
   * frame, tests pass their own): called when reading has worked `workSliceMs` since it last yielded or
   * last waited for the network, and once when the first output arrives, so that a page can paint while a
   * fast stream is read, and shows the first output in the next frame.
   */
  yieldToEventLoop?: () => Promise<void>;
  /** How long reading may work between two yields (8 ms, half a frame, by default). */
  workSliceMs?: number;
  /** Caps on what one answer may hold (`readLimits` by default; tests pass small ones). */
  limits?: Partial<ReadLimits>;
}

/**
 * An exception thrown by one of the caller's callbacks: a bug in the caller, not something the server did,
 * so it ends the turn as `app_error`, never as a broken connection.
 */
class CallbackError {
  constructor(
    readonly callback: string,
    readonly error: unknown,
  ) {}
}

/** One function for every stream (a closure made per stream starts unoptimized after each GC). */
const defaultNow = () => performance.now();

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One stream's events into `turn`, through the stream's own stepper; builds `SseItem`s only for a caller
 * that records them. A class, not closures (see docs/performance.md).
 */
class TurnSink implements SseSink {
  turn: Turn = emptyTurn;
  private readonly stepper: Stepper;
  /**
   * The turn last handed out (to `onUpdate`) and its parts: never written into again. A turn made since,
   * with parts made since, is this sink's alone, and deltas are written into it. Never with a recorder,
   * which compares the parts before and after each event.
   */
  private shared: Turn = emptyTurn;
  private sharedParts: TurnPart[] = emptyTurn.parts;
  private readonly inPlace: boolean;
  constructor(
    adapter: ProtocolAdapter<unknown>,
    private readonly onItem: ((item: SseItem, output: boolean) => void) | undefined,
  ) {
    this.stepper = adapter.newStepper();
    this.inPlace = onItem === undefined;
  }

  /** The turn, to hand out: from now on it is never written into. */
  handOut(): Turn {
    this.shared = this.turn;
    this.sharedParts = this.turn.parts;
    return this.turn;
  }

  event(event: string, data: string, id: string, at: number): void {
    const before = this.turn;
    if (before.status === 'streaming') {
      const owned =
        this.inPlace &&
        before !== this.shared &&
        before.parts !== this.sharedParts &&
        before.parts !== emptyTurn.parts;
      this.turn = this.stepper.step(before, data, event, owned);
    }
    if (this.onItem !== undefined)
      this.item({ type: 'event', event, data, id, at }, this.turn.parts !== before.parts);
  }

  comment(text: string, at: number): void {
    if (this.onItem !== undefined) this.item({ type: 'comment', text, at }, false);
  }

  private item(item: SseItem, output: boolean): void {
    try {
      this.onItem!(item, output);
    } catch (error) {
      throw new CallbackError('onItem', error);
    }
  }
}

keepShape(new TurnSink(adapters.chat, undefined));

const interruptedMessage = 'The connection closed before the answer was finished.';
const abortedMessage = 'Stopped before the answer was finished.';

/**
 * Text longer than this is fed to the scanner in slices (`firstOutputSlice` until the first output), so
 * that the caps are checked, and the reader may yield, within it too: 64 k characters take a millisecond
 * or two to read.
 */
const feedSlice = 1 << 16;
/** Until the first output: a fast stream's first read may hold a thousand events, and the first one shows. */
const firstOutputSlice = 1 << 12;

/**
 * How long reading may work before it yields, unless the caller says (`ReadTurnOptions.workSliceMs`):
 * everything the network has delivered is otherwise read in one task (each `read()` of a body with bytes
 * waiting resolves at once, in a microtask), and a fast stream would keep the page from painting for as
 * long as that takes. Half a frame; checked per chunk or slice, never per event.
 */
const defaultWorkSliceMs = 8;
/**
 * A `read()` that took longer than this waited for the network, across tasks (a frame could paint
 * meanwhile): the work slice starts again after it, so a stream at a model's pace never yields for nothing.
 */
const waitedMs = 1;
/**
 * A chunk shorter than this, read without callbacks, takes a few microseconds: the time it arrived stands
 * for the time its reading ended, and the clock is read once for it instead of twice (a clock reading cost
 * a tenth of a server's one-event chunk in Node).
 */
const shortChunk = 1 << 12;

/** Characters the turn holds: what `ReadLimits.answerChars` caps. */
function answerChars(turn: Turn): number {
  let n = turn.text.length + turn.reasoning.length + turn.refusal.length;
  const calls = turn.toolCalls;
  for (let i = 0; i < calls.length; i++) n += calls[i]!.arguments.length;
  return n;
}

/**
 * Why the stream must stop here for its size, or null. The caps come as numbers: an object made per stream
 * for them (the options spread over the defaults) lost its shape at every GC and deoptimized this check.
 */
function overLimit(sink: TurnSink, parser: SseScanner, answerCap: number, eventCap: number): string | null {
  if (answerChars(sink.turn) > answerCap) {
    return `The answer passed ${formatCount(answerCap)} characters (text, reasoning and tool arguments together), the most HopBase Chat keeps of one answer: reading stopped there, and everything up to it is kept.`;
  }
  if (parser.bufferedChars() > eventCap) {
    return `One event passed ${formatCount(eventCap)} characters before it ended, more than HopBase Chat keeps of one event: reading stopped there, and everything before it is kept.`;
  }
  return null;
}

/** Ends the turn as `too_large` when it passed a cap. */
function checkSize(sink: TurnSink, parser: SseScanner, answerCap: number, eventCap: number): void {
  if (sink.turn.status !== 'streaming') return;
  const tooLarge = overLimit(sink, parser, answerCap, eventCap);
  if (tooLarge !== null) sink.turn = fail(sink.turn, 'too_large', tooLarge);
}

/**
 * When one stream's reading hands the thread back, and what its caller has been shown of the turn. A
 * class, not closures (see docs/performance.md): the read loop keeps its own variables in registers.
 */
class Pacer {
  /** When reading last started working: after a yield, or after a read that waited. */
  private workingSince: number;
  /** The clock's last reading, when reading last stopped to ask for more: a read that came long after waited. */
  private asked: number;
  /** When the chunk being read arrived. */
  private at: number;
  /**
   * Whether the first output has been handed over (reading then goes on in larger slices). Without
   * `onUpdate` nobody is shown it, so there is nothing to yield for: a server's or a script's reading
   * starts in larger slices at once and yields only when its work slice is used up.
   */
  outputShown: boolean;
  /** The turn last handed to `onUpdate`. */
  private reported: Turn;

  constructor(
    private readonly sink: TurnSink,
    private readonly now: () => number,
    private readonly yieldNow: () => Promise<void>,
    private readonly onUpdate: ((turn: Turn) => void) | undefined,
    private readonly workSliceMs: number,
  ) {
    this.workingSince = now();
    this.asked = this.workingSince;
    this.at = this.workingSince;
    this.reported = sink.turn;
    this.outputShown = onUpdate === undefined;
  }

  /** A chunk came: the time it came; a read that waited starts the work slice again. */
  received(): number {
    const at = this.now();
    if (at - this.asked > waitedMs) this.workingSince = at;
    this.at = at;
    return at;
  }

  /**
   * Whether to yield now: the first output has just arrived, or the work slice is used up. `short`: the
   * chunk was short and read without callbacks, so the time it arrived is the time now.
   */
  due(short: boolean): boolean {
    if (!this.outputShown && this.sink.turn.parts.length > 0) {
      this.outputShown = true;
      return true;
    }
    this.asked = short ? this.at : this.now();
    return this.asked - this.workingSince >= this.workSliceMs;
  }

  /** Hands the turn to `onUpdate` if it changed since. */
  update(): void {
    const { turn } = this.sink;
    if (this.onUpdate === undefined || turn === this.reported) return;
    this.reported = this.sink.handOut();
    try {
      this.onUpdate(turn);
    } catch (error) {
      throw new CallbackError('onUpdate', error);
    }
  }

  /** Shows what was read, then yields. */
  async yield(): Promise<void> {
    this.update();
    await this.yieldNow();
    this.workingSince = this.now();
    this.asked = this.workingSince;
  }
}

/** What the read loop does once `ChunkReader` has read what it may of a chunk. */
const readNext = 0;
/** Yield, then go on with the rest of the chunk (`ChunkReader.goOn`). */
const yieldWithin = 1;
/** The chunk is read: yield, then read the next one. */
const yieldThenRead = 2;
type Next = typeof readNext | typeof yieldWithin | typeof yieldThenRead;

/**
 * A chunk's reading, from its bytes to the turn: everything `readTurn` does per chunk but wait. Synchronous
 * and apart from the read loop on purpose: the loop's optimized code inlines the body's own stream code,
 * which V8 throws away when a stream is collected, so the loop runs unoptimized; this class's methods
 * stay optimized from stream to stream (see docs/performance.md).
 */
class ChunkReader {
  // The parser strips a leading BOM itself, so that feeding it text directly behaves the same.
  private readonly decoder = new ChunkDecoder();
  private readonly parser: SseScanner;
  /** Without callbacks, reading a short chunk is all parsing: see `shortChunk`. */
  private readonly quiet: boolean;
  /** The chunk being read, and how far. */
  private text = '';
  private at = 0;
  private short = false;

  constructor(
    private readonly sink: TurnSink,
    private readonly pacer: Pacer,
    now: () => number,
    onItem: ReadTurnOptions['onItem'],
    private readonly onChunk: ReadTurnOptions['onChunk'],
    private readonly answerCap: number,
    private readonly eventCap: number,
  ) {
    // Only items carry times and comments: without a recorder the scanner skips both.
    this.parser = new SseScanner(sink, onItem === undefined ? null : now, onItem !== undefined);
    this.quiet = onChunk === undefined && onItem === undefined;
  }

  /** A chunk from the network: read up to its end, or until a yield is due within it. */
  take(bytes: Uint8Array): Next {
    const received = this.pacer.received();
    const text = this.decoder.decode(bytes);
    this.short = this.quiet && text.length < shortChunk;
    if (this.onChunk !== undefined) {
      try {
        this.onChunk(bytes, received, text);
      } catch (error) {
        throw new CallbackError('onChunk', error);
      }
    }
    this.text = text;
    this.at = 0;
    return this.goOn();
  }

  /** Reads on in the chunk, a slice at a time, checking the caps after each. */
  goOn(): Next {
    const { text, sink, pacer, parser } = this;
    for (;;) {
      const at = this.at;
      const end = Math.min(text.length, at + (pacer.outputShown ? feedSlice : firstOutputSlice));
      parser.feed(at === 0 && end === text.length ? text : text.slice(at, end));
      checkSize(sink, parser, this.answerCap, this.eventCap);
      this.at = end;
      if (end === text.length || sink.turn.status !== 'streaming') break;
      if (pacer.due(false)) return yieldWithin;
    }
    return this.chunkRead();
  }

  /** The chunk is read, or its reading stopped: whether to yield before the next. */
  chunkRead(): Next {
    this.text = '';
    if (this.sink.turn.status === 'streaming' && this.pacer.due(this.short)) return yieldThenRead;
    this.pacer.update();
    return readNext;
  }

  /** The stream ended: what the decoder held, then the end of the events. */
  end(): void {
    this.parser.feed(this.decoder.end());
    this.parser.end();
    this.pacer.update();
  }
}

{
  const sink = new TurnSink(adapters.chat, undefined);
  const pacer = new Pacer(sink, () => 0, yieldToEventLoop, undefined, defaultWorkSliceMs);
  keepShape(pacer);
  keepShape(new ChunkReader(sink, pacer, () => 0, undefined, undefined, 0, 0));
}

/**
 * Reads one streamed answer to its end. Never throws: a bad stream ends as `error` (an error event, a
 * malformed event, an answer past the caps: `too_large`) or `interrupted` (the bytes stopped before the
 * terminal event), with everything received before it kept. An exception from one of the caller's
 * callbacks ends it as `error` with code `app_error`.
 */
export async function readTurn(
  protocol: Protocol,
  body: ReadableStream<Uint8Array>,
  options: ReadTurnOptions = {},
): Promise<Turn> {
  const { signal, onUpdate, onItem, onChunk } = options;
  const now = options.now ?? defaultNow;
  const answerCap = options.limits?.answerChars ?? readLimits.answerChars;
  const eventCap = options.limits?.eventChars ?? readLimits.eventChars;
  const adapter = adapters[protocol];

  const sink = new TurnSink(adapter, onItem);
  const reader = body.getReader();
  let onAbort: (() => void) | undefined;
  if (signal !== undefined) {
    onAbort = () => {
      reader.cancel(signal.reason).catch(() => {});
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  /** Why reading the body failed (the network, or the body's own error): the stream was cut. */
  let failure: unknown = null;
  const pacer = new Pacer(
    sink,
    now,
    options.yieldToEventLoop ?? yieldToEventLoop,
    onUpdate,
    options.workSliceMs ?? defaultWorkSliceMs,
  );
  const chunks = new ChunkReader(sink, pacer, now, onItem, onChunk, answerCap, eventCap);
  try {
    while (sink.turn.status === 'streaming') {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        failure = error;
        break;
      }
      if (chunk.done) {
        chunks.end();
        break;
      }
      let next = chunks.take(chunk.value);
      while (next === yieldWithin) {
        await pacer.yield();
        // Stopped meanwhile: the rest of this chunk is not read.
        next = signal?.aborted ? chunks.chunkRead() : chunks.goOn();
      }
      if (next === yieldThenRead) await pacer.yield();
    }
  } catch (error) {
    // Not the network: a caller's callback threw (or, were there such a bug, the reader itself).
    const where = error instanceof CallbackError ? `${error.callback} threw` : 'the reader threw';
    const reason = reasonOf(error instanceof CallbackError ? error.error : error);
    sink.turn = fail(
      sink.turn,
      'app_error',
      `HopBase Chat failed while handling this answer (${where}: ${reason}).`,
    );
  } finally {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
  let turn = sink.turn;
  // A terminal event may be followed by more bytes (`[DONE]` after `response.completed`): not needed.
  // After a cap or an app error, nothing more is read either: the request is cancelled.
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
