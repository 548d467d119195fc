import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { isClientId } from '../db/database.ts';
import { FORWARDED_REQUEST_HEADERS } from '../proxy.ts';
import { type GatewayRefusal, protocolAt } from '../teamGateway.ts';
import { type AnswerReading, type MeterOptions, meterRequest } from '../usageMeter.ts';
import { EventStream } from './eventStream.ts';
import type { Ending } from './events.ts';
import type { InnerBackend } from './innerBackend.ts';
import type { AnswerKey, Relay } from './relay.ts';

/**
 * Runs one answer for a page (docs/relay.md, "Starting an answer"): the page's request goes to the
 * backend through the relay's own connection (`innerBackend.ts`), and a streamed answer is relayed: kept
 * as it comes, sent to the page from the relay's log, and run to its end whether the page stays or not.
 * Anything else the backend answers goes to the page as it is, and nothing is kept.
 */

/**
 * What the backend sees of the page's request: what the proxy forwards (type, version and beta headers,
 * ids), the key the simulator may ask for (the proxy drops it and adds the server's), and what the
 * backend judges the request's source by (Host, Origin, Sec-Fetch-Site), as the page sent them. Not the
 * cookie, nor this hop's own headers (`expect`: Node already answered 100-continue to the page).
 */
const TO_BACKEND = new Set([
  ...FORWARDED_REQUEST_HEADERS,
  'content-length',
  'authorization',
  'x-api-key',
  'host',
  'origin',
  'sec-fetch-site',
]);

/** Headers of the backend's answer that belong to its connection to the runner, not to the page's. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

function backendHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name of TO_BACKEND) if (incoming[name] !== undefined) headers[name] = incoming[name];
  return headers;
}

function answerHeaders(incoming: IncomingHttpHeaders, drop: ReadonlySet<string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !drop.has(name))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  // An answer whose connection is to close (a refused body): the page's closes too, its leftover unread.
  if (incoming.connection === 'close') headers.connection = 'close';
  return headers;
}

/** The type, length and encoding of the gateway's body describe it, not the relay stream. */
const NOT_RELAYED = new Set(['content-type', 'content-length', 'content-encoding']);

/**
 * The attempt a request asks the relay to run (`x-hopbase-relay: 1`, with the conversation and attempt
 * ids), to a path that asks a model; undefined: the request is answered as it always was.
 */
export function relayedAttempt(
  req: IncomingMessage,
  path: string,
): { attemptId: string; conversationId: string } | undefined {
  const {
    'x-hopbase-relay': relay,
    'x-hopbase-attempt': attemptId,
    'x-hopbase-conversation': conversationId,
  } = req.headers;
  if (req.method !== 'POST' || relay !== '1' || !protocolAt(path)) return undefined;
  if (typeof attemptId !== 'string' || typeof conversationId !== 'string') return undefined;
  return isClientId(attemptId) && isClientId(conversationId) ? { attemptId, conversationId } : undefined;
}

export interface AnswerStart {
  key: AnswerKey;
  conversationId: string;
  /** Team mode: the person's limits, checked once the attempt id is known to be new. */
  admit?: () => Promise<GatewayRefusal | null>;
  /** Team mode: where the answer's usage is recorded (once, by the runner). */
  meter?: MeterOptions | undefined;
  /** Answers the page with an error in its protocol's shape. */
  refuse(refusal: GatewayRefusal): void;
  /**
   * Gives back the request's place under the server's caps, once the page's response is over and the
   * answer (if it was relayed) has ended: a running answer holds the gateway's call, watched or not.
   */
  release(): void;
  log(line: string): void;
}

export async function runAnswer(
  relay: Relay,
  inner: InnerBackend,
  req: IncomingMessage,
  res: ServerResponse,
  start: AnswerStart,
): Promise<void> {
  let pageOpen = !res.destroyed;
  let running = false;
  const settle = () => {
    if (!pageOpen && !running) start.release();
  };
  res.once('close', () => {
    pageOpen = false;
    settle();
  });
  const { key } = start;
  if (!(await relay.claim(key, start.conversationId))) {
    start.refuse({
      status: 409,
      kind: 'invalid_request',
      code: 'conflict',
      message: `There is an answer under attempt id ${key.attemptId} already: a new attempt needs a new id.`,
      headers: { connection: 'close' },
    });
    return;
  }
  const refusal = await start.admit?.();
  if (refusal || !pageOpen) {
    await relay.unclaim(key);
    if (refusal) start.refuse(refusal);
    return;
  }

  const calledAt = performance.now();
  const upstream = inner.request({
    method: 'POST',
    path: req.url ?? '/',
    headers: backendHeaders(req.headers),
  });
  let relayed = false;
  // The page went away before the backend answered: its request is incomplete, or unwanted.
  res.once('close', () => {
    if (!relayed) upstream.destroy();
  });
  upstream.on('error', (error) => {
    if (relayed) return;
    void relay.unclaim(key);
    if (!pageOpen || res.headersSent) {
      res.destroy();
      return;
    }
    start.log(`relay: ${req.url}: the backend failed (${error.message})`);
    start.refuse({ status: 502, kind: 'server', message: 'The server could not reach its backend.' });
  });
  req.pipe(upstream);
  // After the pipe: the meter's listener on the body comes after the one that sends it on.
  const readAnswer = start.meter && meterRequest(req, start.meter);

  upstream.on('response', (answer) => {
    answer.on('error', () => {});
    const status = answer.statusCode ?? 502;
    const type = String(answer.headers['content-type'] ?? '');
    const encoding = answer.headers['content-encoding'];
    const reading = readAnswer?.(status, type);
    const stream =
      status >= 200 &&
      status <= 299 &&
      /^text\/event-stream\b/i.test(type) &&
      (encoding === undefined || encoding === 'identity');
    if (!stream || !pageOpen) {
      void relay.unclaim(key);
      passOn(answer, res, reading);
      return;
    }
    relayed = true;
    running = true;
    // A byte order mark is the gateway's byte like any other: kept, so the pieces join to its body.
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let ending: Ending | undefined;
    const finish = (end: Ending) => {
      if (ending) return;
      ending = end;
      // A body cut inside a character ends there: its bytes were never whole text.
      const tail = decoder.decode();
      if (tail && end.outcome === 'complete') run.piece(tail, Math.round(performance.now() - calledAt), 0);
      run.end(end);
      running = false;
      void reading?.end(end.outcome === 'complete');
      settle();
    };
    const stop = (end: Ending) => {
      finish(end);
      answer.destroy();
      upstream.destroy();
    };
    const run = relay.begin(key, stop);
    const page = new EventStream(res);
    page.open(answerHeaders(answer.headers, NOT_RELAYED));
    page.until(run.answer.follow(0, page.send));
    answer.on('data', (chunk: Buffer) => {
      if (ending) return;
      reading?.take(chunk);
      const text = decoder.decode(chunk, { stream: true });
      if (!text) return;
      const over = run.piece(text, Math.round(performance.now() - calledAt), chunk.length);
      if (over) stop(over);
    });
    answer.on('end', () => finish({ outcome: 'complete' }));
    answer.on('close', () => {
      if (!answer.complete)
        finish({ outcome: 'cut', message: "The gateway's answer broke off, or the gateway went silent." });
    });
  });
}

/** The backend's answer as it is (an error, a whole JSON answer): status, headers and body. */
function passOn(answer: IncomingMessage, res: ServerResponse, reading: AnswerReading | undefined): void {
  if (res.destroyed || res.headersSent) {
    answer.destroy();
    void reading?.end(false);
    return;
  }
  res.writeHead(answer.statusCode ?? 502, answerHeaders(answer.headers, new Set()));
  answer.on('data', (chunk: Buffer) => reading?.take(chunk));
  answer.pipe(res);
  answer.on('close', () => {
    void reading?.end(answer.complete);
    if (!answer.complete) res.destroy();
  });
}
