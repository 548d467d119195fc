import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { isJsonContentType } from '../simulator/http.ts';
import { type Protocol, readTurn, type Turn } from '../src/core/index.ts';
import type { AttemptUsage, Usage } from './db/usage.ts';

/**
 * Team mode's record of what each answer cost, read from the answer the server relays (never from what a
 * browser says): the bytes the backend writes to the client are passed on as they are written, and read
 * by the core's own stream reader (`readTurn`, the very reducers that show usage in the app) on the side.
 * Nothing waits for the reading: a chunk goes to the client first, then to the reader's queue. When the
 * answer ends — finished, stopped by the client, or cut by the gateway — its usage so far is recorded:
 * a cut answer is billed all the same.
 */

/** The most of a request body kept to find its model: a chat's whole body, unless it carries files. */
const MODEL_PREFIX_BYTES = 64 * 1024;
/** A whole (not streamed) answer longer than this is not read: as much as the core takes of one event. */
const MAX_JSON_ANSWER_BYTES = 16 * 1024 * 1024;
/** The largest count a usage row holds (PostgreSQL's integer). */
const MAX_TOKENS = 2 ** 31 - 1;

const modelName = v.pipe(v.string(), v.maxLength(500));
const bodyWithModel = v.object({ model: modelName });
/** `{"model":"…"` at the very start of a body: how the app, and most SDKs, write it. */
const LEADING_MODEL = /^\s*\{\s*"model"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** The model a request body asks for: from the whole body if it is short, else from its first field. */
function modelIn(prefix: string, whole: boolean): string | undefined {
  try {
    if (whole) {
      const parsed = v.safeParse(bodyWithModel, JSON.parse(prefix));
      return parsed.success ? parsed.output.model : undefined;
    }
    const leading = LEADING_MODEL.exec(prefix)?.[1];
    const parsed = leading === undefined ? undefined : v.safeParse(modelName, JSON.parse(leading));
    return parsed?.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Watches the request body as the backend reads it (a listener beside the backend's own, added after it:
 * it changes neither the flow nor the pace) for the model it asks for; keeps at most its first 64 kB, and
 * only until the model is known.
 */
function watchModel(req: IncomingMessage): () => string | undefined {
  const chunks: Buffer[] = [];
  let size = 0;
  let model: string | undefined;
  const settle = (whole: boolean) => {
    req.off('data', onData);
    model = modelIn(Buffer.concat(chunks).toString('utf8'), whole);
    chunks.length = 0;
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MODEL_PREFIX_BYTES) settle(false);
  };
  req.on('data', onData);
  req.once('end', () => {
    if (size < MODEL_PREFIX_BYTES) settle(true);
  });
  return () => model;
}

/**
 * A whole answer (not streamed) as the events its stream would have carried it in, so that `readTurn`
 * reads its usage as it reads a stream's: the core knows each protocol's usage in one place.
 */
const asEvents: Record<Protocol, (json: string) => string[]> = {
  // A chat.completion reads as one chunk (its message is no delta, and not needed: its usage and model are).
  chat: (json) => [json, '[DONE]'],
  responses: (json) => [`{"type":"response.completed","response":${json}}`],
  messages: (json) => [`{"type":"message_start","message":${json}}`, '{"type":"message_stop"}'],
};

/** Events as SSE: a line break in the JSON (pretty-printed answers have them) continues the `data`. */
function sse(events: readonly string[]): ReadableStream<Uint8Array> {
  const text = events.map((data) => `data: ${data.replace(/\r\n|\r|\n/g, '\ndata: ')}\n\n`).join('');
  return new Blob([text]).stream();
}

/**
 * Bytes gathered before the reader is handed them: each chunk handed over costs a web stream's read (a few
 * microseconds, twice what reading a delta costs), and a model's stream comes an event per chunk. Usage is
 * needed at the end, not live: at most this much waits per answer.
 */
const FEED_BATCH_BYTES = 4096;

/** A stream the tapped bytes are put in, as they are written, a few kB at a time; reading happens later. */
class Feed {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private open = true;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  readonly body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      this.controller = controller;
    },
    // The reader stopped (the answer's terminal event came, or a cap): the rest is not wanted.
    cancel: () => {
      this.open = false;
    },
  });

  put(chunk: Uint8Array): void {
    if (!this.open) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= FEED_BATCH_BYTES) this.flush();
  }

  close(): void {
    if (!this.open) return;
    this.flush();
    this.open = false;
    this.controller?.close();
  }

  private flush(): void {
    const { pending } = this;
    if (pending.length === 0) return;
    this.controller?.enqueue(pending.length === 1 ? pending[0]! : Buffer.concat(pending));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

type Answer =
  | { kind: 'none' }
  | { kind: 'stream'; feed: Feed; turn: Promise<Turn> }
  | { kind: 'json'; chunks: Uint8Array[]; size: number };

/** What the backend answered, from its status and type: a streamed answer, a whole JSON one, or nothing to bill (an error). */
function answerOf(status: number, type: string, protocol: Protocol): Answer {
  if (status < 200 || status > 299) return { kind: 'none' };
  if (/^text\/event-stream\b/i.test(type)) {
    const feed = new Feed();
    return { kind: 'stream', feed, turn: readTurn(protocol, feed.body) };
  }
  return isJsonContentType(type) ? { kind: 'json', chunks: [], size: 0 } : { kind: 'none' };
}

/** An answer being read for its usage: its bytes as they come, then its end. */
export interface AnswerReading {
  take(chunk: Uint8Array): void;
  /** The answer is over: `whole` when all of it came. Resolves once its row is written (or none was due). */
  end(whole: boolean): Promise<void>;
}

/**
 * Starts reading a request for its usage: watches its body for the model (call it after the backend has
 * its own listener on the body), and gives, once the answer's status and type are known, the reading of
 * that answer. Shared by the answers the server relays as they are (`meterAnswer`) and those it runs
 * (`relay/runner.ts`): one answer, one row, however many pages read it.
 */
export function meterRequest(
  req: IncomingMessage,
  options: MeterOptions,
): (status: number, type: string) => AnswerReading {
  const requested = watchModel(req);
  return (status, type) => {
    const answer = answerOf(status, type, options.protocol);
    return {
      take(chunk) {
        if (answer.kind === 'stream') answer.feed.put(chunk);
        else if (answer.kind === 'json' && answer.size <= MAX_JSON_ANSWER_BYTES) {
          answer.chunks.push(chunk);
          answer.size += chunk.length;
        }
      },
      end(whole) {
        let reading: Promise<Turn> | undefined;
        if (answer.kind === 'stream') {
          answer.feed.close();
          reading = answer.turn;
        } else if (answer.kind === 'json') {
          const complete = whole && answer.size <= MAX_JSON_ANSWER_BYTES;
          const json = complete ? Buffer.concat(answer.chunks).toString('utf8') : '';
          answer.chunks.length = 0;
          // A cut JSON answer cannot be read: it is recorded as interrupted, without figures.
          reading = readTurn(options.protocol, sse(complete ? asEvents[options.protocol](json) : []));
        }
        return record(reading, requested, options);
      },
    };
  };
}

/** Writes the attempt's row once its answer is read; never rejects: a failure is logged. */
async function record(
  reading: Promise<Turn> | undefined,
  requested: () => string | undefined,
  options: MeterOptions,
): Promise<void> {
  try {
    const turn = await reading;
    if (!turn) return;
    const row = usageRow(turn, requested() ?? turn.model ?? '', options);
    // An attempt id the person used before names an earlier request's row: this one gets its own.
    if (!(await options.usage.add(row)))
      await options.usage.add({ ...row, attemptId: `srv_${randomUUID()}` });
  } catch (error) {
    options.log(
      `usage: could not record an answer's usage (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** Bytes a response is given, in whichever form `write` and `end` took them. */
function bytesOf(chunk: unknown, encoding: unknown): Uint8Array | undefined {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, Buffer.isEncoding(String(encoding)) ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk : undefined;
}

/**
 * Passes every chunk written to `res` to `take` right after it went to the client, and calls `closed`
 * when the response is over (finished or cut). `end(chunk)` writes its chunk without calling `write`.
 */
function tap(res: ServerResponse, take: (chunk: Uint8Array) => void, closed: () => void): void {
  const write = res.write as (...args: unknown[]) => boolean;
  const end = res.end as (...args: unknown[]) => ServerResponse;
  const pass = (args: unknown[]) => {
    const bytes = bytesOf(args[0], args[1]);
    if (bytes?.length) take(bytes);
  };
  res.write = ((...args: unknown[]) => {
    const ok = write.apply(res, args);
    pass(args);
    return ok;
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    const ended = end.apply(res, args);
    pass(args);
    return ended;
  }) as ServerResponse['end'];
  res.once('close', closed);
}

const tokens = (n: number | undefined) => Math.min(MAX_TOKENS, Math.max(0, Math.round(n ?? 0)));

/** The attempt's row: its figures as the answer gave them, as far as it went. */
function usageRow(turn: Turn, model: string, meter: Omit<MeterOptions, 'usage' | 'log'>): AttemptUsage {
  const usage = turn.usage;
  return {
    attemptId: meter.attemptId ?? `srv_${randomUUID()}`,
    conversationId: meter.conversationId,
    protocol: meter.protocol,
    model,
    startedAt: meter.startedAt,
    inputTokens: tokens(usage?.inputTokens),
    outputTokens: tokens(usage?.outputTokens),
    cachedTokens: tokens(usage?.cachedTokens),
    cacheWriteTokens: tokens(usage?.cacheWriteTokens),
    reasoningTokens: tokens(usage?.reasoningTokens),
    // Stopped, cut, or ended by an error before it finished: billed for what it got to.
    interrupted: turn.status !== 'complete',
  };
}

export interface MeterOptions {
  protocol: Protocol;
  /** The browser's id for the attempt (`x-hopbase-attempt`); undefined: the server makes one. */
  attemptId: string | undefined;
  conversationId: string;
  startedAt: Date;
  /** The person's usage: where the row goes. */
  usage: Pick<Usage, 'add'>;
  log: (line: string) => void;
}

/**
 * Has the backend answer the request (`forward`) and records the usage of that answer: the response is
 * tapped before, the request body watched after (the backend's own listener first). Resolves once the row
 * is written, or nothing was to be (an error answer bills nothing); never rejects: a failure is logged.
 */
export function meterAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  options: MeterOptions,
  forward: () => void,
): Promise<void> {
  let reading: AnswerReading | undefined;
  let done: (recorded: Promise<void>) => void = () => {};
  const ended = new Promise<void>((resolve) => {
    done = resolve;
  });
  // The server set its security headers before the backend's `writeHead`, which then merges its own into
  // them: the answer's type can be read back. Nothing sent yet: nothing to bill.
  const answered = () =>
    res.headersSent ? readAnswer(res.statusCode, String(res.getHeader('content-type') ?? '')) : none;
  const none: AnswerReading = { take: () => {}, end: () => Promise.resolve() };
  let readAnswer: (status: number, type: string) => AnswerReading = () => none;
  tap(
    res,
    (chunk) => {
      reading ??= answered();
      reading.take(chunk);
    },
    () => {
      reading ??= answered();
      done(reading.end(res.writableFinished));
    },
  );
  forward();
  readAnswer = meterRequest(req, options);
  return ended;
}
