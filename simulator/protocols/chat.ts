import {
  type Conversation,
  cachedTokens,
  DEFAULT_REASONING,
  invalid,
  isObject,
  isPositiveInteger,
  type Json,
  jsonTypeName,
  type LastTurn,
  lastTurnOf,
  OPENAI_EFFORTS,
  type Parsed,
  type ReasoningAsk,
  readPromptCacheKey,
  supportedValues,
  type ToolSpec,
  textOf,
  tokenText,
  toolsInOrder,
} from '../conversation.ts';
import { ids, nowSeconds } from '../ids.ts';
import { checkChatSampling } from '../sampling.ts';
import type { Block, Encoder, FinishReason, Transcript } from '../script.ts';
import type { SseEvent } from '../sse-writer.ts';
import { estimateTokens } from '../tokens.ts';
import { checkChatTools } from '../tool-shapes.ts';
import type { Protocol } from './protocol.ts';

/** OpenAI Chat Completions: `POST /v1/chat/completions` (docs/protocols.md §4). */
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

function parseTools(body: Json): ToolSpec[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const specs = tools.flatMap((t): ToolSpec[] =>
    isObject(t) && isObject(t.function) && typeof t.function.name === 'string'
      ? [{ name: t.function.name, schema: t.function.parameters ?? { type: 'object', properties: {} } }]
      : [],
  );
  const choice = body.tool_choice;
  const forced = isObject(choice) && isObject(choice.function) ? choice.function.name : undefined;
  return toolsInOrder(specs, { none: choice === 'none', forced });
}

function lastTurn(messages: Json[]): LastTurn {
  const trailing = messages.slice(messages.findLastIndex((m) => m.role !== 'tool') + 1);
  return lastTurnOf(
    trailing.map((m) => ({ callId: m.tool_call_id, content: textOf(m.content) })),
    messages
      .flatMap((m) => (Array.isArray(m.tool_calls) ? m.tool_calls : []))
      .flatMap((c) => (isObject(c) && isObject(c.function) ? [{ id: c.id, name: c.function.name }] : [])),
    messages.findLast((m) => m.role === 'user')?.content,
  );
}

function parse(body: unknown): Parsed {
  if (!isObject(body)) return invalid('Invalid request body: expected a JSON object.');
  if (typeof body.model !== 'string' || body.model === '')
    return invalid('you must provide a model parameter');
  const { messages } = body;
  if (messages === undefined) {
    return invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  }
  if (!Array.isArray(messages)) {
    return invalid(
      `Invalid type for 'messages': expected an array of objects, but got ${jsonTypeName(messages)} instead.`,
      'messages',
      'invalid_type',
    );
  }
  if (messages.length === 0) {
    return invalid(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) {
      return invalid(
        `Invalid type for 'messages[${i}]': expected an object, but got ${jsonTypeName(m)} instead.`,
        `messages[${i}]`,
        'invalid_type',
      );
    }
    if (typeof m.role !== 'string' || !ROLES.includes(m.role)) {
      return invalid(
        `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${i}].role`,
        'invalid_value',
      );
    }
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') {
      return invalid(
        `Missing required parameter: 'messages[${i}].tool_call_id'.`,
        `messages[${i}].tool_call_id`,
        'missing_required_parameter',
      );
    }
    // As DeepSeek-style backends do: reasoning is output only, never input (docs/protocols.md §4.2).
    for (const field of ['reasoning_content', 'reasoning']) {
      if (m[field] !== undefined && m[field] !== null) {
        return invalid(
          `Invalid parameter: '${field}' is not accepted in input messages: reasoning from earlier answers must not be sent back. Remove 'messages[${i}].${field}'.`,
          `messages[${i}].${field}`,
          'invalid_request_message',
        );
      }
    }
  }
  const effort = body.reasoning_effort ?? undefined;
  if (effort !== undefined && (typeof effort !== 'string' || !(effort in OPENAI_EFFORTS))) {
    return invalid(
      `Invalid value: '${String(effort)}'. Supported values are: ${supportedValues(Object.keys(OPENAI_EFFORTS))}.`,
      'reasoning_effort',
      'invalid_value',
    );
  }
  const limitField = body.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens';
  const limit = body[limitField] ?? undefined;
  if (limit !== undefined && limit !== null && !isPositiveInteger(limit)) {
    return invalid(
      `Invalid '${limitField}': expected an integer >= 1, but got ${JSON.stringify(limit)} instead.`,
      limitField,
      'invalid_value',
    );
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    return invalid(
      `Invalid type for 'stream': expected a boolean, but got ${jsonTypeName(body.stream)} instead.`,
      'stream',
      'invalid_type',
    );
  }
  const sampling = checkChatSampling(body);
  if (sampling) return sampling;
  const shapes = checkChatTools(body);
  if (shapes) return shapes;
  const cacheKey = readPromptCacheKey(body);
  if (typeof cacheKey !== 'boolean') return cacheKey;
  const tools = parseTools(body);
  const promptTokens = (items: unknown[]) => estimateTokens(tokenText([items, body.tools ?? []]).length);
  return {
    ok: true,
    conversation: {
      model: body.model,
      stream: body.stream === true,
      maxOutputTokens: isPositiveInteger(limit) ? limit : undefined,
      tools,
      toolRequired: body.tool_choice === 'required' || isObject(body.tool_choice),
      outputSchema:
        isObject(body.response_format) && isObject(body.response_format.json_schema)
          ? body.response_format.json_schema.schema
          : undefined,
      lastTurn: lastTurn(messages as Json[]),
      inputTokens: promptTokens(messages),
      cachedTokens: cacheKey ? cachedTokens(messages, (m) => m.role === 'assistant', promptTokens) : null,
      reasoning:
        effort === undefined ? DEFAULT_REASONING : ({ effort: OPENAI_EFFORTS[effort] } as ReasoningAsk),
    },
  };
}

const FINISH: Record<FinishReason, string> = { stop: 'stop', length: 'length', tool_calls: 'tool_calls' };

function usage(t: Transcript): Json {
  return {
    prompt_tokens: t.inputTokens,
    completion_tokens: t.outputTokens,
    total_tokens: t.inputTokens + t.outputTokens,
    prompt_tokens_details: { cached_tokens: t.prompt.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: t.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Reasoning travels in `delta.reasoning_content`, as DeepSeek-style gateways send it. */
class ChatEncoder implements Encoder {
  private readonly id = ids.chatCompletion();
  private readonly created = nowSeconds();
  private readonly fingerprint: string;
  /** Tool call id and `tool_calls[].index` per block. */
  private readonly calls = new Map<number, { id: string; slot: number }>();

  constructor(
    private readonly model: string,
    private readonly includeUsage: boolean,
  ) {
    this.fingerprint = ids.fingerprint(model);
  }

  open(): SseEvent[] {
    return [this.chunk({ role: 'assistant', content: '', refusal: null })];
  }

  blockStart(block: Block): SseEvent[] {
    if (block.kind !== 'tool_call') return [];
    const call = { id: ids.toolCall(), slot: this.calls.size };
    this.calls.set(block.index, call);
    return [
      this.chunk({
        tool_calls: [
          { index: call.slot, id: call.id, type: 'function', function: { name: block.name, arguments: '' } },
        ],
      }),
    ];
  }

  blockDelta(block: Block, piece: string): SseEvent[] {
    switch (block.kind) {
      case 'reasoning':
        return [this.chunk({ content: null, reasoning_content: piece })];
      case 'text':
        return [this.chunk({ content: piece })];
      case 'tool_call':
        return [
          this.chunk({
            tool_calls: [{ index: this.calls.get(block.index)?.slot, function: { arguments: piece } }],
          }),
        ];
    }
  }

  blockEnd(): SseEvent[] {
    return [];
  }

  finish(reason: FinishReason, t: Transcript): SseEvent[] {
    const events = [this.chunk({}, FINISH[reason])];
    if (this.includeUsage) {
      events.push({ data: JSON.stringify({ ...this.head(), choices: [], usage: usage(t) }) });
    }
    events.push({ data: '[DONE]' });
    return events;
  }

  /**
   * HopBase's Chat mid-stream error, whatever broke (an interruption or a stall): a data-only chunk
   * with OpenAI's error envelope and no `choices`, then no `[DONE]`.
   */
  fail({ message }: { message: string }): SseEvent[] {
    return [{ data: JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } }) }];
  }

  body(reason: FinishReason, t: Transcript): unknown {
    const text = t.textOf('text');
    const reasoning = t.textOf('reasoning');
    const toolCalls = t.blocks
      .filter((b) => b.kind === 'tool_call')
      .map((b) => ({
        id: this.calls.get(b.index)?.id,
        type: 'function',
        function: { name: b.name, arguments: b.text },
      }));
    return {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && toolCalls.length > 0 ? null : text,
            ...(reasoning ? { reasoning_content: reasoning } : {}),
            refusal: null,
            annotations: [],
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: FINISH[reason],
        },
      ],
      usage: usage(t),
      service_tier: 'default',
      system_fingerprint: this.fingerprint,
    };
  }

  private head(): Json {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      service_tier: 'default',
      system_fingerprint: this.fingerprint,
    };
  }

  /** With `include_usage`, every chunk carries `"usage":null` until the final usage chunk, as OpenAI does. */
  private chunk(delta: Json, finishReason: string | null = null): SseEvent {
    return {
      data: JSON.stringify({
        ...this.head(),
        ...(this.includeUsage ? { usage: null } : {}),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      }),
    };
  }
}

export const chatProtocol: Protocol = {
  family: 'openai',
  parse,
  encoder: (conv: Conversation, body: Json) =>
    new ChatEncoder(conv.model, isObject(body.stream_options) && body.stream_options.include_usage === true),
};
