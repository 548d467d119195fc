import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shortenData } from './attachments.ts';
import type { Conversation, Json } from './conversation.ts';
import { type ErrorFamily, errorBody, familyForPath, type HttpError, requestIdFor } from './errors.ts';
import {
  answerPreflight,
  applyCors,
  type Body,
  type Handler,
  isAllowedHost,
  isJsonContentType,
  readBody,
  sameOriginOnly,
  sendJson,
} from './http.ts';
import { type SimOptions, simOptionsFromEnv } from './options.ts';
import { playOnce, playStream } from './player.ts';
import { chatProtocol } from './protocols/chat.ts';
import { messagesProtocol } from './protocols/messages.ts';
import type { Protocol, ProviderMemory } from './protocols/protocol.ts';
import { responsesProtocol } from './protocols/responses.ts';
import { planResponse, promptOf, SCENARIOS, scenarioFor } from './scenarios.ts';
import type { Encoder, Step } from './script.ts';
import { SseStream } from './sse-writer.ts';

export type { SimOptions } from './options.ts';

export interface LoggedRequest {
  id: number;
  at: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /**
   * Parsed JSON, or the raw text when the body is not JSON; `null` when there was none. A body over
   * `LOG_BODY_LIMIT` bytes is kept as its first `LOG_BODY_LIMIT` characters and a `…[truncated …]` marker.
   */
  body: unknown;
  /** SHA-256 (hex) of the body's bytes exactly as received, to tell byte-identical requests apart. */
  rawSha256: string;
}

export interface Simulator {
  /** Serves `/v1/*` and `/__sim/*`; anything else goes to `next` (or gets a 404). */
  readonly handle: Handler;
  readonly options: SimOptions;
  /** Generations still running (streams open, or non-streaming answers waiting out a pause). */
  activeGenerations(): number;
  requests(): readonly LoggedRequest[];
  clearRequests(): void;
  /** Stops every running generation. */
  close(): void;
}

const PROTOCOLS: Record<string, Protocol> = {
  '/v1/chat/completions': chatProtocol,
  '/v1/responses': responsesProtocol,
  '/v1/messages': messagesProtocol,
};

const MODELS_CREATED = 1_767_225_600;
/** The request log keeps the newest `LOG_LIMIT` requests, with bodies up to `LOG_BODY_LIMIT` bytes in full. */
export const LOG_LIMIT = 200;
export const LOG_BODY_LIMIT = 64 * 1024;
/** How many `sim-flaky` first attempts are remembered, waiting for their retry; the oldest are forgotten. */
export const FLAKY_MEMORY = 1000;
/** How many function calls made after a reasoning item are remembered (Responses); the oldest are forgotten. */
const CALL_MEMORY = 1000;
const REDACTED_HEADERS = ['authorization', 'x-api-key', 'cookie'];

function modelEntry(id: string, description: string): Json {
  return { id, object: 'model', created: MODELS_CREATED, owned_by: 'hopbase-sim', description };
}

function presentedKeys(req: IncomingMessage): string[] {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const apiKey = req.headers['x-api-key'];
  return [bearer, typeof apiKey === 'string' ? apiKey : undefined].filter((k): k is string => !!k);
}

function unauthorized(family: ErrorFamily, missing: boolean): HttpError {
  const message =
    family === 'anthropic'
      ? missing
        ? 'x-api-key header is required'
        : 'invalid x-api-key'
      : missing
        ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
        : 'Incorrect API key provided. You can find your API key in your HopBase dashboard.';
  return { status: 401, kind: 'authentication', message, code: missing ? null : 'invalid_api_key' };
}

function loggedBody(body: Body, json: { value: unknown } | undefined): unknown {
  if (body.tooLarge) return `[${body.size} bytes, over the limit]`;
  // Images and files show as their start and length: the parts stay readable, whatever their size.
  const short = json && shortenData(json.value);
  if (short !== json?.value && JSON.stringify(short).length <= LOG_BODY_LIMIT) return short;
  if (body.size > LOG_BODY_LIMIT) {
    return `${body.text.slice(0, LOG_BODY_LIMIT)}…[truncated: ${body.size} bytes in all]`;
  }
  return json ? json.value : body.text || null;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

class SimulatorImpl implements Simulator {
  readonly options: SimOptions;
  private readonly log: LoggedRequest[] = [];
  private nextId = 1;
  /** How to stop each running generation, by the log id of its request. */
  private readonly running = new Map<number, () => void>();
  /** `sim-flaky` request hashes whose first attempt has already failed. */
  private readonly flakyFailed = new Set<string>();
  /** Function calls made after a reasoning item, by call id: the item a stateless follow-up must send back. */
  private readonly callReasoning = new Map<string, string>();
  private readonly memory: ProviderMemory = {
    rememberCall: (callId, reasoningItemId) => {
      this.callReasoning.set(callId, reasoningItemId);
      // A Map iterates in insertion order: the first key is the oldest call.
      if (this.callReasoning.size > CALL_MEMORY)
        this.callReasoning.delete(this.callReasoning.keys().next().value as string);
    },
    reasoningBefore: (callId) => this.callReasoning.get(callId),
  };

  constructor(options: SimOptions) {
    this.options = options;
  }

  readonly handle: Handler = (req, res, next) => {
    this.route(req, res, next).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const family = familyForPath(new URL(req.url ?? '/', 'http://simulator').pathname);
      const message = `Simulator error: ${error instanceof Error ? error.message : String(error)}`;
      sendJson(
        res,
        500,
        errorBody(family, { status: 500, kind: 'server', message }, requestIdFor(family).value),
      );
    });
  };

  activeGenerations(): number {
    return this.running.size;
  }

  requests(): readonly LoggedRequest[] {
    return this.log;
  }

  clearRequests(): void {
    this.log.length = 0;
  }

  close(): void {
    for (const stop of [...this.running.values()]) stop();
  }

  private async route(
    req: IncomingMessage,
    res: ServerResponse,
    next?: (error?: unknown) => void,
  ): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://simulator').pathname;
    const gateway = path === '/v1' || path.startsWith('/v1/');
    const control = path === '/__sim' || path.startsWith('/__sim/');
    if (!gateway && !control && next) {
      next();
      return;
    }
    if (control) {
      // Test hooks: no CORS, and no answer to another site's page (it could read every prompt).
      if (sameOriginOnly(req, res)) this.control(req, res, path);
      return;
    }
    applyCors(res);
    if (req.method === 'OPTIONS') {
      answerPreflight(req, res);
      return;
    }
    await this.gateway(req, res, path);
  }

  private control(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (path === '/__sim/requests' && req.method === 'GET') {
      sendJson(res, 200, this.log);
    } else if (path === '/__sim/requests' && req.method === 'DELETE') {
      this.clearRequests();
      res.writeHead(204).end();
    } else if (path === '/__sim/status' && req.method === 'GET') {
      const { keepaliveMs, stallMs, deltaMs, apiKey } = this.options;
      sendJson(res, 200, {
        mode: 'simulator',
        activeGenerations: this.activeGenerations(),
        activeRequests: [...this.running.keys()],
        requests: this.log.length,
        options: { keepaliveMs, stallMs, deltaMs, requiresKey: apiKey !== undefined },
      });
    } else {
      sendJson(res, 404, { error: `No simulator endpoint ${req.method} ${path}` });
    }
  }

  private async gateway(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const family = familyForPath(path);
    const requestId = requestIdFor(family);
    res.setHeader(requestId.header, requestId.value);
    const fail = (error: HttpError, headers: Record<string, string> = {}) =>
      sendJson(res, error.status, errorBody(family, error, requestId.value), headers);

    const body = await readBody(req, this.options.maxBodyBytes);
    const json = parseJson(body.text);
    const logId = this.record(req, path, body, json);

    if (this.options.apiKey !== undefined) {
      const keys = presentedKeys(req);
      if (!keys.includes(this.options.apiKey)) return fail(unauthorized(family, keys.length === 0));
    }
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: SCENARIOS.map((s) => modelEntry(s.id, s.description)),
      });
    }
    const model = req.method === 'GET' ? SCENARIOS.find((s) => path === `/v1/models/${s.id}`) : undefined;
    if (model) return sendJson(res, 200, modelEntry(model.id, model.description));

    const protocol = req.method === 'POST' ? PROTOCOLS[path] : undefined;
    if (!protocol) {
      const message = family === 'anthropic' ? 'Not Found' : `Invalid URL (${req.method} ${path})`;
      return fail({ status: 404, kind: 'not_found', message });
    }
    if (body.tooLarge) {
      const message = `Request body of ${body.size} bytes exceeds the limit of ${this.options.maxBodyBytes} bytes.`;
      return fail({ status: 413, kind: 'too_large', message, code: 'request_too_large' });
    }
    const contentType = req.headers['content-type'];
    if (!isJsonContentType(contentType)) {
      const message = `Unsupported content type '${contentType ?? '(none)'}'. Send the body as application/json.`;
      return fail({ status: 415, kind: 'unsupported_media', message });
    }
    if (json === undefined) {
      const message =
        family === 'anthropic'
          ? 'There was an error parsing the body of your request: it is not valid JSON.'
          : 'We could not parse the JSON body of your request. The API expects a JSON payload, but what was sent was not valid JSON.';
      return fail({ status: 400, kind: 'invalid_request', message });
    }
    const parsed = protocol.parse(json.value, this.memory);
    if (!parsed.ok) return fail(parsed.error);

    const conv = parsed.conversation;
    const scenario = scenarioFor(conv.model);
    const plan = planResponse(conv, scenario, {
      stallMs: this.options.stallMs,
      flakyAttemptFails: scenario.fault === 'flaky' && this.firstAttempt(`${path} ${body.sha256}`),
    });
    if (plan.kind === 'rate_limit') {
      const seconds = this.options.retryAfterS;
      const message = `Rate limit reached for ${conv.model}. Please try again in ${seconds}s.`;
      return fail(
        { status: 429, kind: 'rate_limit', message, code: 'rate_limit_exceeded' },
        { 'retry-after': String(seconds), 'x-should-retry': 'true' },
      );
    }
    const encoder = protocol.encoder(conv, json.value as Json, this.memory);
    if (conv.stream) await this.stream(logId, res, plan.steps, encoder, conv);
    else
      await this.answerOnce(logId, res, plan.steps, encoder, conv, (message) =>
        fail({ status: 500, kind: 'server', message }),
      );
  }

  private async stream(
    logId: number,
    res: ServerResponse,
    steps: Step[],
    encoder: Encoder,
    conv: Conversation,
  ): Promise<void> {
    const stream = new SseStream(res, this.options.keepaliveMs, {});
    await this.track(
      logId,
      () => stream.cut(),
      () => playStream(steps, encoder, promptOf(conv), stream, this.options.deltaMs),
      stream.signal,
    );
  }

  private async answerOnce(
    logId: number,
    res: ServerResponse,
    steps: Step[],
    encoder: Encoder,
    conv: Conversation,
    fail: (message: string) => void,
  ): Promise<void> {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const stop = () => {
      controller.abort();
      res.destroy();
    };
    await this.track(
      logId,
      stop,
      async () => {
        const outcome = await playOnce(steps, encoder, promptOf(conv), controller.signal);
        if (outcome.kind === 'body') sendJson(res, 200, outcome.body);
        else if (outcome.kind === 'fail') fail(outcome.message);
        else res.destroy();
      },
      controller.signal,
    );
  }

  /** Counts a generation as running until it settles; a rejection caused by its own abort is expected. */
  private async track(
    logId: number,
    stop: () => void,
    run: () => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    this.running.set(logId, stop);
    try {
      await run();
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.running.delete(logId);
    }
  }

  /** `sim-flaky`: true for the first attempt of a request (same path, same body bytes), false for its retry. */
  private firstAttempt(key: string): boolean {
    if (this.flakyFailed.delete(key)) return false;
    this.flakyFailed.add(key);
    // A Set iterates in insertion order: the first key is the oldest attempt still waiting for a retry.
    if (this.flakyFailed.size > FLAKY_MEMORY)
      this.flakyFailed.delete(this.flakyFailed.values().next().value as string);
    return true;
  }

  /** Logs a request; returns its id. */
  private record(
    req: IncomingMessage,
    path: string,
    body: Body,
    json: { value: unknown } | undefined,
  ): number {
    const headers = { ...req.headers };
    for (const name of REDACTED_HEADERS) if (headers[name] !== undefined) headers[name] = '[redacted]';
    const id = this.nextId++;
    this.log.push({
      id,
      at: new Date().toISOString(),
      method: req.method ?? 'GET',
      path,
      headers,
      body: loggedBody(body, json),
      rawSha256: body.sha256,
    });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    return id;
  }
}

/** A simulator with options from `HOPBASE_SIM_*`, overridden by `options`. */
export function createSimulator(options: Partial<SimOptions> = {}): Simulator {
  return new SimulatorImpl({ ...simOptionsFromEnv(), ...options });
}

export interface RunningSimulator {
  url: string;
  port: number;
  simulator: Simulator;
  close(): Promise<void>;
}

/**
 * Serves a simulator on its own HTTP server; port 0 picks a free port. It answers only requests whose
 * `Host` is a loopback name or `host` (any IP address too when `host` is `0.0.0.0` or `::`), so a
 * page that rebinds its own domain name to this machine cannot read or clear `/__sim/requests`.
 */
export async function startSimulator(
  options: Partial<SimOptions> & { port?: number; host?: string } = {},
): Promise<RunningSimulator> {
  const { port = 0, host = '127.0.0.1', ...simOptions } = options;
  const simulator = createSimulator(simOptions);
  const server = createServer((req, res) => {
    if (isAllowedHost(req.headers.host, host)) simulator.handle(req, res);
    else
      sendJson(res, 403, {
        error: `This simulator answers only requests addressed to localhost, a loopback address or ${host} (Host header).`,
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    simulator,
    close: () =>
      new Promise<void>((resolve) => {
        simulator.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
