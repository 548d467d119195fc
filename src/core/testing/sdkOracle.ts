/**
 * Test oracle: runs the official SDKs' own stream accumulators on the same bytes our reader gets.
 *
 * Each SDK client is built with a custom `fetch` that answers every request with `200 text/event-stream`
 * and the given body, so the full production path runs (the SDK's SSE decoder, its `[DONE]` / `event: error`
 * handling, its stream helper and its accumulator) without any network:
 *   - Chat:      `new OpenAI({ fetch }).chat.completions.stream(…)` → `ChatCompletionStream.finalChatCompletion()`
 *   - Responses: `new OpenAI({ fetch }).responses.stream(…)`        → `ResponseStream.finalResponse()`
 *   - Messages:  `new Anthropic({ fetch }).messages.stream(…)`      → `MessageStream.finalMessage()`
 * (`X.fromReadableStream` is not usable: it reads newline-delimited JSON, not SSE.)
 *
 * When the helper throws, the partial snapshot the SDK had built is mapped instead:
 * the `chunk` listener's snapshot (Chat), the SDK's `accumulateResponse` replayed on the emitted events
 * (Responses; `ResponseStream` keeps its snapshot private) and the `streamEvent` listener's snapshot (Messages).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import type { ChatCompletionSnapshot, ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response as OpenAIResponse, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { Protocol, Usage } from '../turn.ts';
import { streamFromBytes } from './fixtures.ts';

interface OracleToolCall {
  id: string;
  name: string;
  /** The arguments text the SDK accumulated (Anthropic: the SDK's internal `__json_buf`; null when no delta came). */
  rawArguments: string | null;
  /** The SDK's parsed arguments: `JSON.parse` of the text ('' → {}), or Anthropic's `input`. */
  arguments: unknown;
  /** The text did not parse (OpenAI), or Anthropic's `input` is only its partial-JSON parse (block never closed). */
  argumentsIncomplete: boolean;
}

interface OracleError {
  /** `api`: the SDK raised its APIError for an error the server sent; `other`: anything else it threw. */
  kind: 'api' | 'other';
  name: string;
  message: string;
  /** For `api`: OpenAI `error.code ?? error.type`, Anthropic `error.type`, stringified. */
  code: string | null;
  /** The helpers wrap foreign errors (a JSON `SyntaxError`) in their own error class, with the original as `cause`. */
  causeName: string | null;
}

export interface OracleResult {
  protocol: Protocol;
  /** `final`: the helper resolved with its final object; `threw`: it rejected (see `error`). */
  outcome: 'final' | 'threw';
  error: OracleError | null;
  /** Where the fields below were read from. */
  source: 'final' | 'snapshot' | 'none';
  text: string;
  /** Reasoning pieces in order (Responses summary parts / reasoning_text parts, Anthropic thinking blocks). Null: the SDK keeps none (Chat). */
  reasoningParts: string[] | null;
  refusal: string;
  toolCalls: OracleToolCall[];
  usage: Usage | null;
  /** Chat `finish_reason` of choice 0, Responses `incomplete_details.reason ?? status`, Anthropic `stop_reason`. */
  rawFinishReason: string | null;
  responseId: string | null;
  model: string | null;
  /** Responses only: the response object's `status` and `error` (set by `response.failed`). */
  responseStatus: string | null;
  responseError: { code: string; message: string } | null;
  /** The SDK's final (or partial) object, for ad-hoc assertions. */
  raw: unknown;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream' };

/** A `fetch` that ignores the request and answers with the given body as an SSE stream. */
function fetchReturning(body: ReadableStream<Uint8Array>): typeof fetch {
  let used = false;
  return (async () => {
    if (used) throw new Error('sdkOracle: the SDK issued a second request (retry?)');
    used = true;
    return new Response(body, { status: 200, headers: SSE_HEADERS });
  }) as typeof fetch;
}

function openaiClient(body: ReadableStream<Uint8Array>): OpenAI {
  return new OpenAI({
    apiKey: 'sk-oracle',
    baseURL: 'http://oracle.invalid/v1',
    maxRetries: 0,
    logLevel: 'off',
    fetch: fetchReturning(body),
  });
}

function anthropicClient(body: ReadableStream<Uint8Array>): Anthropic {
  return new Anthropic({
    apiKey: 'sk-ant-oracle',
    baseURL: 'http://oracle.invalid',
    maxRetries: 0,
    logLevel: 'off',
    fetch: fetchReturning(body),
  });
}

/** Starts the SDK's own stream helper on `body` (used by the oracle and by the benchmark). */
function startSdkChatStream(body: ReadableStream<Uint8Array>): ChatCompletionStream<null> {
  return openaiClient(body).chat.completions.stream({
    model: 'oracle',
    messages: [{ role: 'user', content: 'oracle' }],
    stream_options: { include_usage: true },
  });
}

function startSdkResponseStream(body: ReadableStream<Uint8Array>) {
  return openaiClient(body).responses.stream({ model: 'oracle', input: 'oracle' });
}

function startSdkMessageStream(body: ReadableStream<Uint8Array>) {
  return anthropicClient(body).messages.stream({
    model: 'oracle',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'oracle' }],
  });
}

/** Consumes `body` with the protocol's SDK helper to its final object (rejects like the SDK does). */
export async function sdkFinal(protocol: Protocol, body: ReadableStream<Uint8Array>): Promise<unknown> {
  switch (protocol) {
    case 'chat':
      return startSdkChatStream(body).finalChatCompletion();
    case 'responses':
      return startSdkResponseStream(body).finalResponse();
    case 'messages':
      return startSdkMessageStream(body).finalMessage();
  }
}

/** Runs the SDK oracle on `bytes` (optionally delivered in chunks cut at `offsets`). */
export async function runSdkOracle(
  protocol: Protocol,
  bytes: Uint8Array,
  offsets: readonly number[] = [],
): Promise<OracleResult> {
  const body = streamFromBytes(bytes, offsets);
  switch (protocol) {
    case 'chat':
      return oracleChat(body);
    case 'responses':
      return oracleResponses(body);
    case 'messages':
      return oracleMessages(body);
  }
}

// ---------------------------------------------------------------------------------------------------------
// helpers

function describeError(e: unknown, apiCode: (e: unknown) => string | null, isApi: boolean): OracleError {
  const err = e instanceof Error ? e : new Error(String(e));
  const cause = (err as { cause?: unknown }).cause;
  return {
    kind: isApi ? 'api' : 'other',
    name: err.constructor?.name ?? err.name,
    message: err.message,
    code: isApi ? apiCode(e) : null,
    causeName: cause instanceof Error ? (cause.constructor?.name ?? cause.name) : null,
  };
}

function str(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

function parseArgs(text: string): { value: unknown; incomplete: boolean } {
  try {
    return { value: JSON.parse(text === '' ? '{}' : text), incomplete: false };
  } catch {
    return { value: undefined, incomplete: true };
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** A gateway's own `usage.cost` (OpenRouter), which the SDKs keep as they received it. */
function gatewayCost(u: object): number | undefined {
  const cost = (u as { cost?: unknown }).cost;
  return typeof cost === 'number' && cost >= 0 ? cost : undefined;
}

function emptyResult(protocol: Protocol): OracleResult {
  return {
    protocol,
    outcome: 'final',
    error: null,
    source: 'none',
    text: '',
    reasoningParts: null,
    refusal: '',
    toolCalls: [],
    usage: null,
    rawFinishReason: null,
    responseId: null,
    model: null,
    responseStatus: null,
    responseError: null,
    raw: undefined,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Chat Completions

interface ChatUsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

function mapChatUsage(u: ChatUsageLike | null | undefined): Usage | null {
  if (!u) return null;
  return {
    inputTokens: u.prompt_tokens ?? 0,
    outputTokens: u.completion_tokens ?? 0,
    totalTokens: u.total_tokens ?? 0,
    reasoningTokens: num(u.completion_tokens_details?.reasoning_tokens),
    cachedTokens: num(u.prompt_tokens_details?.cached_tokens),
    gatewayCost: gatewayCost(u),
  };
}

async function oracleChat(body: ReadableStream<Uint8Array>): Promise<OracleResult> {
  const result = emptyResult('chat');
  const stream = startSdkChatStream(body);
  let snapshot: ChatCompletionSnapshot | undefined;
  stream.on('chunk', (_chunk, snap) => {
    snapshot = snap;
  });
  let final: ChatCompletion | undefined;
  try {
    final = await stream.finalChatCompletion();
  } catch (e) {
    result.outcome = 'threw';
    result.error = describeError(
      e,
      (err) => {
        const api = err as InstanceType<typeof OpenAI.APIError>;
        return str(api.code ?? api.type);
      },
      e instanceof OpenAI.APIError,
    );
  }

  // The final completion and the snapshot share one shape for what we read.
  const source = (final ?? snapshot) as
    | (Partial<ChatCompletion> & { usage?: ChatUsageLike | null; choices: ChatCompletionSnapshot.Choice[] })
    | undefined;
  if (!source) return result;
  result.source = final ? 'final' : 'snapshot';
  result.raw = source;
  result.responseId = source.id ?? null;
  result.model = source.model ?? null;
  result.usage = mapChatUsage(source.usage);
  const choice = source.choices[0];
  if (choice) {
    const message = choice.message;
    result.text = message.content ?? '';
    result.refusal = message.refusal ?? '';
    result.rawFinishReason = choice.finish_reason ?? null;
    // Function calls only (custom tool calls carry `custom` instead); the snapshot array can have holes.
    const calls = (message.tool_calls ?? []) as {
      id: string;
      function?: { name?: string; arguments?: string };
    }[];
    result.toolCalls = calls.filter(Boolean).map((tc) => {
      const raw = tc.function?.arguments ?? '';
      const parsed = parseArgs(raw);
      return {
        id: tc.id,
        name: tc.function?.name ?? '',
        rawArguments: raw,
        arguments: parsed.value,
        argumentsIncomplete: parsed.incomplete,
      };
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Responses

function mapResponsesUsage(u: OpenAIResponse['usage'] | null | undefined): Usage | null {
  if (!u) return null;
  return {
    inputTokens: u.input_tokens,
    outputTokens: u.output_tokens,
    totalTokens: u.total_tokens,
    reasoningTokens: num(u.output_tokens_details?.reasoning_tokens),
    cachedTokens: num(u.input_tokens_details?.cached_tokens),
    gatewayCost: gatewayCost(u),
  };
}

async function oracleResponses(body: ReadableStream<Uint8Array>): Promise<OracleResult> {
  const result = emptyResult('responses');
  const stream = startSdkResponseStream(body);
  // Replays the SDK's own accumulator on the events it emits, to keep a snapshot if the helper throws.
  let snapshot: OpenAIResponse | undefined;
  let replayBroken = false;
  stream.on('event', (event: ResponseStreamEvent) => {
    if (replayBroken) return;
    try {
      snapshot = accumulateResponse(event, snapshot);
    } catch {
      replayBroken = true;
    }
  });
  let final: OpenAIResponse | undefined;
  try {
    final = await stream.finalResponse();
  } catch (e) {
    result.outcome = 'threw';
    result.error = describeError(
      e,
      (err) => {
        const api = err as InstanceType<typeof OpenAI.APIError>;
        return str(api.code ?? api.type);
      },
      e instanceof OpenAI.APIError,
    );
  }
  const response = final ?? snapshot;
  if (!response) return result;
  result.source = final ? 'final' : 'snapshot';
  result.raw = response;
  result.responseId = response.id ?? null;
  result.model = response.model ?? null;
  result.responseStatus = response.status ?? null;
  result.responseError = response.error
    ? { code: response.error.code, message: response.error.message }
    : null;
  result.usage = mapResponsesUsage(response.usage);
  // A response still `in_progress` (the helper threw mid-stream) has no finish value yet.
  const terminal = ['completed', 'incomplete', 'failed', 'cancelled'].includes(response.status ?? '');
  result.rawFinishReason = response.incomplete_details?.reason ?? (terminal ? response.status! : null);

  const text: string[] = [];
  const refusal: string[] = [];
  const reasoning: string[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') text.push(part.text);
        else if (part.type === 'refusal') refusal.push(part.refusal);
      }
    } else if (item.type === 'reasoning') {
      for (const s of item.summary ?? []) reasoning.push(s.text);
      for (const c of item.content ?? []) if (c.type === 'reasoning_text') reasoning.push(c.text);
    } else if (item.type === 'function_call') {
      const parsed = parseArgs(item.arguments ?? '');
      result.toolCalls.push({
        id: item.call_id,
        name: item.name,
        rawArguments: item.arguments ?? '',
        arguments: parsed.value,
        argumentsIncomplete: parsed.incomplete,
      });
    }
  }
  // Not `response.output_text`: a terminal event replaces the snapshot with the server's object, and a
  // server-sent `output_text` is kept as is (OpenRouter sends "" there).
  result.text = text.join('');
  result.refusal = refusal.join('');
  result.reasoningParts = reasoning;
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic Messages

function mapAnthropicUsage(u: Message['usage'] | null | undefined): Usage | null {
  if (!u) return null;
  const input =
    (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
  const output = u.output_tokens ?? 0;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
    cachedTokens: num(u.cache_read_input_tokens),
    gatewayCost: gatewayCost(u),
  };
}

/** Anthropic's accumulator keeps the raw partial JSON of a tool block under this non-enumerable key. */
const JSON_BUF = '__json_buf';

async function oracleMessages(body: ReadableStream<Uint8Array>): Promise<OracleResult> {
  const result = emptyResult('messages');
  const stream = startSdkMessageStream(body);
  let snapshot: Message | undefined;
  stream.on('streamEvent', (_event: MessageStreamEvent, snap: Message) => {
    snapshot = snap;
  });
  let final: Message | undefined;
  try {
    final = await stream.finalMessage();
  } catch (e) {
    result.outcome = 'threw';
    result.error = describeError(
      e,
      (err) => str((err as InstanceType<typeof Anthropic.APIError>).type),
      e instanceof Anthropic.APIError,
    );
  }
  const message = final ?? snapshot;
  if (!message) return result;
  result.source = final ? 'final' : 'snapshot';
  result.raw = message;
  result.responseId = message.id ?? null;
  result.model = message.model ?? null;
  result.usage = mapAnthropicUsage(message.usage);
  result.rawFinishReason = message.stop_reason ?? null;
  const text: string[] = [];
  const thinking: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text.push(block.text);
    else if (block.type === 'thinking') thinking.push(block.thinking);
    else if (block.type === 'tool_use') {
      const desc = Object.getOwnPropertyDescriptor(block, 'input');
      const buf = (block as unknown as Record<string, unknown>)[JSON_BUF];
      result.toolCalls.push({
        id: block.id,
        name: block.name,
        rawArguments: typeof buf === 'string' ? buf : null,
        arguments: block.input,
        // A block that never got content_block_stop keeps the lazy partial-JSON getter.
        argumentsIncomplete: desc?.get !== undefined,
      });
    }
  }
  result.text = text.join('');
  result.reasoningParts = thinking;
  return result;
}
