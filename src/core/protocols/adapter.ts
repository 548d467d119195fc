import type { HttpRequestSpec, TurnRequest } from '../conversation.ts';
import type { ParameterSupport } from '../parameters.ts';
import type { RequestProblem } from '../reasoning.ts';
import type { Turn } from '../turn.ts';
import type { Decoded } from './json.ts';

/**
 * `decode` then `reduce` for one stream, as `readTurn` runs them (an unreadable event ends the turn as an
 * error), with a faster path for deltas. It holds that stream's decoding state (cursor, remembered
 * prefixes): one per stream, never shared.
 */
export interface Stepper {
  /**
   * `owned`: nobody but the caller holds `turn` or its parts array, so a delta may be written into them
   * (`appendText`); the slow path never does.
   */
  step(turn: Turn, data: string, eventName: string, owned: boolean): Turn;
}

/** How a protocol carries the API key. */
export interface Credentials {
  /** Protocols whose credentials are the same headers name the same family: one model list serves them all. */
  family: string;
  /** The headers that carry a key (never shown: the inspector and exports name them without their value). */
  key(apiKey: string): Record<string, string>;
  /** What a page calling the gateway itself, across origins, sends beside them (no secret: shown as is). */
  direct?: Record<string, string>;
}

export interface ModelInfo {
  id: string;
  description?: string;
}

/** The gateway's model list as a protocol asks for it: a GET of `path` with its credentials. */
export interface ModelListing {
  path: string;
  /** The answer's JSON to the models it names. */
  read(body: unknown): ModelInfo[];
}

/** The official SDK that sends a protocol's requests: the code "View code" writes for Python and TypeScript. */
export interface OfficialSdk {
  /** Python's package (`from openai import OpenAI`) and npm's (`import OpenAI from 'openai'`). */
  python: string;
  npm: string;
  /** The client class both export. */
  client: string;
  /** The client's method that sends the request: `chat.completions.create`. */
  create: string;
  /** Its parameters' type in TypeScript, less the `Streaming` or `NonStreaming` at its end. */
  params: string;
  /** The SDK puts `/v1` before every path itself (Anthropic's): its base URL is the gateway's without it. */
  addsV1: boolean;
}

/** A request body, and what the builder had to leave out of it. */
export interface BuiltBody {
  body: Record<string, unknown>;
  /** Reasoning was asked for, but this request must go without it (Messages, see `messagesThinking`). */
  reasoningPaused: boolean;
}

/** Everything protocol-specific, in one record per protocol: the rest of the app is shared. */
export interface ProtocolAdapter<E> {
  label: string;
  path: string;
  headers: Record<string, string>;
  credentials: Credentials;
  models: ModelListing;
  /** The sampling parameters its API takes and their ranges; `buildBody` sends those and no other. */
  parameters: ParameterSupport;
  sdk: OfficialSdk;
  buildBody(request: TurnRequest): BuiltBody;
  /** An SSE event's data and name (`message` when unnamed) to the protocol's event. */
  decode(data: string, eventName: string): Decoded<E>;
  reduce(turn: Turn, event: E): Turn;
  /**
   * Whether a recorded stream (its SSE text) speaks this protocol, from the events it holds: an imported
   * recording that does not say. No stream is recognized by two protocols.
   */
  recognizes(sse: string): boolean;
  /** A new stepper, for one stream. */
  newStepper(): Stepper;
  /**
   * Whether a stored entry of this protocol's reasoning state (its `protocol` and `key` already checked) is
   * whole. Absent: the protocol hands out no reasoning state, and an entry naming it is never kept.
   */
  isReasoningState?(entry: Readonly<Record<string, unknown>>): boolean;
  /** Why its API would refuse `request` (a 400 caught before sending). Absent: nothing is checked. */
  requestProblem?(request: TurnRequest): RequestProblem | null;
}

/** Path (relative to the gateway's `/v1` base), protocol headers and body of one streamed request. */
export function httpRequest<E>(adapter: ProtocolAdapter<E>, request: TurnRequest): HttpRequestSpec {
  const { body, reasoningPaused } = adapter.buildBody(request);
  return {
    method: 'POST',
    path: adapter.path,
    headers: { 'content-type': 'application/json', ...adapter.headers },
    body,
    reasoningPaused,
  };
}

/** The protocol's credential headers; none without a key (the proxy adds its own). */
export function credentialHeaders<E>(
  adapter: ProtocolAdapter<E>,
  apiKey: string,
  direct: boolean,
): Record<string, string> {
  if (!apiKey) return {};
  return { ...adapter.credentials.key(apiKey), ...(direct && adapter.credentials.direct) };
}

/** The same headers as the inspector and exports show them: the key's named, never with their value. */
export function redactedCredentialHeaders<E>(
  adapter: ProtocolAdapter<E>,
  apiKey: string,
  direct: boolean,
): Record<string, string> {
  const secret = adapter.credentials.key(apiKey);
  return Object.fromEntries(
    Object.entries(credentialHeaders(adapter, apiKey, direct)).map(([name, value]) => [
      name,
      name in secret ? '[redacted]' : value,
    ]),
  );
}

/** The model list's GET, to the gateway at `base`; the caller sends it and hands the JSON to `models.read`. */
export function modelListRequest<E>(
  adapter: ProtocolAdapter<E>,
  base: string,
  apiKey: string,
  direct: boolean,
): { url: string; headers: Record<string, string> } {
  return { url: base + adapter.models.path, headers: credentialHeaders(adapter, apiKey, direct) };
}
