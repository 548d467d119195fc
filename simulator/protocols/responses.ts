import {
  type Conversation,
  cachedTokens,
  DEFAULT_REASONING,
  type Effort,
  invalid,
  isObject,
  isPositiveInteger,
  type Json,
  jsonTypeName,
  type LastTurn,
  lastTurnOf,
  OPENAI_EFFORTS,
  type Parsed,
  type Problem,
  type Refusal,
  readPromptCacheKey,
  supportedValues,
  type ToolSpec,
  textOf,
  tokenText,
  toolsInOrder,
} from '../conversation.ts';
import { ids, nowSeconds } from '../ids.ts';
import { checkResponsesSampling } from '../sampling.ts';
import type { Block, Encoder, FinishReason, Transcript } from '../script.ts';
import { seal, verifySeal } from '../sealing.ts';
import type { SseEvent } from '../sse-writer.ts';
import { estimateTokens } from '../tokens.ts';
import { checkResponsesTools } from '../tool-shapes.ts';
import { type Protocol, type ProviderMemory, typedEvent } from './protocol.ts';

/** OpenAI Responses: `POST /v1/responses` (docs/protocols.md §5). */
const ROLES = ['user', 'assistant', 'system', 'developer'];

function parseTools(body: Json): ToolSpec[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const specs = tools.flatMap((t): ToolSpec[] =>
    isObject(t) && t.type === 'function' && typeof t.name === 'string'
      ? [{ name: t.name, schema: t.parameters ?? { type: 'object', properties: {} } }]
      : [],
  );
  const choice = body.tool_choice;
  return toolsInOrder(specs, { none: choice === 'none', forced: isObject(choice) ? choice.name : undefined });
}

/** An item the model produced: its answer, its reasoning, its tool calls. */
function fromModel(item: Json): boolean {
  return item.role === 'assistant' || item.type === 'reasoning' || item.type === 'function_call';
}

function lastTurn(items: Json[]): LastTurn {
  const outputs = items.slice(items.findLastIndex((it) => it.type !== 'function_call_output') + 1);
  return lastTurnOf(
    outputs.map((o) => ({
      callId: o.call_id,
      content: typeof o.output === 'string' ? o.output : textOf(o.output),
    })),
    items.filter((it) => it.type === 'function_call').map((it) => ({ id: it.call_id, name: it.name })),
    items.findLast((it) => it.role === 'user')?.content,
  );
}

const SUMMARIES = ['auto', 'concise', 'detailed'];
const INCLUDABLE = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
];
const ENCRYPTED = 'reasoning.encrypted_content';
/** Real encrypted reasoning is a Fernet token; ours wears the same prefix over a seal of the item id. */
const FERNET_PREFIX = 'gAAAAAB';

function encryptedContent(itemId: string, final: boolean): string {
  return FERNET_PREFIX + seal(final ? 'responses.reasoning' : 'responses.reasoning.in_progress', itemId);
}

function validEncryptedContent(itemId: string, value: string): boolean {
  return (
    value.startsWith(FERNET_PREFIX) &&
    verifySeal('responses.reasoning', itemId, value.slice(FERNET_PREFIX.length))
  );
}

/** `reasoning` and `include`, checked like the real API; the effort the model thinks at. */
function readReasoning(body: Json): { effort: Effort } | Refusal {
  const { reasoning, include } = body;
  if (include !== undefined && include !== null) {
    if (!Array.isArray(include))
      return invalid(
        `Invalid type for 'include': expected an array, but got ${jsonTypeName(include)} instead.`,
        'include',
        'invalid_type',
      );
    for (const [i, value] of include.entries()) {
      if (typeof value !== 'string' || !INCLUDABLE.includes(value))
        return invalid(
          `Invalid value: '${String(value)}'. Supported values are: ${supportedValues(INCLUDABLE)}.`,
          `include[${i}]`,
          'invalid_value',
        );
    }
  }
  if (reasoning === undefined || reasoning === null) return { effort: DEFAULT_REASONING.effort };
  if (!isObject(reasoning))
    return invalid(
      `Invalid type for 'reasoning': expected an object, but got ${jsonTypeName(reasoning)} instead.`,
      'reasoning',
      'invalid_type',
    );
  const effort = reasoning.effort ?? 'medium';
  if (typeof effort !== 'string' || OPENAI_EFFORTS[effort] === undefined)
    return invalid(
      `Invalid value: '${String(effort)}'. Supported values are: ${supportedValues(Object.keys(OPENAI_EFFORTS))}.`,
      'reasoning.effort',
      'invalid_value',
    );
  const summary = reasoning.summary ?? null;
  if (summary !== null && (typeof summary !== 'string' || !SUMMARIES.includes(summary)))
    return invalid(
      `Invalid value: '${String(summary)}'. Supported values are: ${supportedValues(SUMMARIES)}.`,
      'reasoning.summary',
      'invalid_value',
    );
  return { effort: OPENAI_EFFORTS[effort] };
}

/**
 * Reasoning items sent back, checked as the real API does: with `store: false` an item is only usable with
 * its encrypted content (a bare id is looked up, and nothing was stored: 404), the content must be what
 * was issued for that item, and an item needs the item that followed it. A function call this simulator
 * made after a reasoning item (for a request that asked for encrypted reasoning) needs that item before it.
 */
function checkReasoningItems(items: Json[], stateless: boolean, memory: ProviderMemory): Problem {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (item.type === 'reasoning') {
      const id = typeof item.id === 'string' ? item.id : '';
      const encrypted = item.encrypted_content;
      if (typeof encrypted === 'string' && encrypted !== '') {
        if (!validEncryptedContent(id, encrypted)) {
          const shown = encrypted.length > 24 ? `${encrypted.slice(0, 24)}…` : encrypted;
          return invalid(
            `The encrypted content ${shown} could not be verified.`,
            null,
            'invalid_encrypted_content',
          );
        }
      } else if (stateless) {
        return {
          ok: false,
          error: {
            status: 404,
            kind: 'not_found',
            message: `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            param: 'input',
            code: null,
          },
        };
      }
      const next = items[i + 1];
      if (!next || next.type === 'function_call_output' || next.type === 'reasoning' || next.role === 'user')
        return invalid(
          `Item '${id}' of type 'reasoning' was provided without its required following item.`,
          'input',
        );
      seen.add(id);
    } else if (item.type === 'function_call' && typeof item.call_id === 'string') {
      const required = memory.reasoningBefore(item.call_id);
      if (required !== undefined && !seen.has(required))
        return invalid(
          `Item with call_id '${item.call_id}' of type 'function_call' was provided without its required 'reasoning' item: '${required}'.`,
          'input',
        );
    }
  }
  return null;
}

function parse(body: unknown, memory: ProviderMemory): Parsed {
  if (!isObject(body)) return invalid('Invalid request body: expected a JSON object.');
  if (typeof body.model !== 'string' || body.model === '') {
    return invalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  }
  const { input } = body;
  if (input === undefined)
    return invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  if (typeof input !== 'string' && !Array.isArray(input)) {
    return invalid(
      `Invalid type for 'input': expected a string or an array of input items, but got ${jsonTypeName(input)} instead.`,
      'input',
      'invalid_type',
    );
  }
  if (input.length === 0) {
    return invalid(
      "Invalid 'input': empty input. Expected a non-empty string or an array with minimum length 1.",
      'input',
      'empty_array',
    );
  }
  const items: Json[] = typeof input === 'string' ? [{ role: 'user', content: input }] : [];
  for (const [i, item] of (Array.isArray(input) ? input : []).entries()) {
    if (!isObject(item)) {
      return invalid(
        `Invalid type for 'input[${i}]': expected an object, but got ${jsonTypeName(item)} instead.`,
        `input[${i}]`,
        'invalid_type',
      );
    }
    if ((item.type === undefined || item.type === 'message') && !ROLES.includes(String(item.role))) {
      return invalid(
        `Invalid value: '${String(item.role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
        `input[${i}].role`,
        'invalid_value',
      );
    }
    if (item.type === 'function_call_output' && typeof item.call_id !== 'string') {
      return invalid(
        `Missing required parameter: 'input[${i}].call_id'.`,
        `input[${i}].call_id`,
        'missing_required_parameter',
      );
    }
    items.push(item);
  }
  const shapes = checkResponsesTools(body);
  if (shapes) return shapes;
  const sampling = checkResponsesSampling(body);
  if (sampling) return sampling;
  const limit = isPositiveInteger(body.max_output_tokens) ? body.max_output_tokens : undefined;
  const reasoning = readReasoning(body);
  if ('ok' in reasoning) return reasoning;
  const problem = checkReasoningItems(items, body.store === false, memory);
  if (problem) return problem;
  const cacheKey = readPromptCacheKey(body);
  if (typeof cacheKey !== 'boolean') return cacheKey;
  const promptTokens = (items: unknown) =>
    estimateTokens(tokenText([body.instructions ?? '', items, body.tools ?? []]).length);
  return {
    ok: true,
    conversation: {
      model: body.model,
      stream: body.stream === true,
      maxOutputTokens: limit,
      tools: parseTools(body),
      toolRequired: body.tool_choice === 'required' || isObject(body.tool_choice),
      outputSchema:
        isObject(body.text) && isObject(body.text.format) && body.text.format.type === 'json_schema'
          ? body.text.format.schema
          : undefined,
      lastTurn: lastTurn(items),
      inputTokens: promptTokens(input),
      cachedTokens: cacheKey ? cachedTokens(items, fromModel, promptTokens) : null,
      reasoning,
    },
  };
}

interface ItemIds {
  id: string;
  callId: string;
}

/**
 * Every neutral block is one output item: reasoning → `reasoning`, text → `message`, tool call →
 * `function_call`. Reasoning text streams as a summary only when the request asked for one
 * (`reasoning.summary`); the item carries `encrypted_content` only when `include` asked for it.
 */
class ResponsesEncoder implements Encoder {
  private readonly id = ids.response();
  private readonly createdAt = nowSeconds();
  private sequence = 0;
  private readonly items = new Map<number, ItemIds>();
  private readonly truncated = new Set<number>();
  private readonly summary: boolean;
  private readonly encrypted: boolean;
  /** The latest reasoning item of this response: a function call made after it needs it back. */
  private reasoningId: string | undefined;

  constructor(
    private readonly model: string,
    private readonly request: Json,
    private readonly memory: ProviderMemory,
  ) {
    const reasoning = isObject(request.reasoning) ? request.reasoning : {};
    this.summary = typeof reasoning.summary === 'string' && SUMMARIES.includes(reasoning.summary);
    this.encrypted = Array.isArray(request.include) && request.include.includes(ENCRYPTED);
  }

  open(): SseEvent[] {
    const response = this.response('in_progress', []);
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  blockStart(block: Block): SseEvent[] {
    const prefix = { reasoning: ids.reasoning, text: ids.responseMessage, tool_call: ids.functionCall }[
      block.kind
    ];
    const known = { id: prefix(), callId: ids.toolCall() };
    this.items.set(block.index, known);
    if (block.kind === 'reasoning') this.reasoningId = known.id;
    else if (block.kind === 'tool_call' && this.encrypted && this.reasoningId)
      this.memory.rememberCall(known.callId, this.reasoningId);
    const events = [
      this.event('response.output_item.added', { output_index: block.index, item: this.item(block) }),
    ];
    const where = this.where(block);
    if (block.kind === 'reasoning' && this.summary) {
      events.push(
        this.event('response.reasoning_summary_part.added', {
          ...where,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        }),
      );
    } else if (block.kind === 'text') {
      events.push(
        this.event('response.content_part.added', { ...where, content_index: 0, part: outputText('') }),
      );
    }
    return events;
  }

  blockDelta(block: Block, piece: string): SseEvent[] {
    const where = this.where(block);
    switch (block.kind) {
      case 'reasoning':
        // Without a summary the model thinks in silence: tokens are spent, nothing streams.
        return this.summary
          ? [
              this.event('response.reasoning_summary_text.delta', {
                ...where,
                summary_index: 0,
                delta: piece,
              }),
            ]
          : [];
      case 'text':
        return [
          this.event('response.output_text.delta', {
            ...where,
            content_index: 0,
            delta: piece,
            logprobs: [],
          }),
        ];
      case 'tool_call':
        return [this.event('response.function_call_arguments.delta', { ...where, delta: piece })];
    }
  }

  blockEnd(block: Block, truncated: boolean): SseEvent[] {
    if (truncated) this.truncated.add(block.index);
    const where = this.where(block);
    const events: SseEvent[] = [];
    switch (block.kind) {
      case 'reasoning': {
        if (!this.summary) break;
        const part = { type: 'summary_text', text: block.text };
        events.push(
          this.event('response.reasoning_summary_text.done', {
            ...where,
            summary_index: 0,
            text: block.text,
          }),
          this.event('response.reasoning_summary_part.done', { ...where, summary_index: 0, part }),
        );
        break;
      }
      case 'text':
        events.push(
          this.event('response.output_text.done', {
            ...where,
            content_index: 0,
            text: block.text,
            logprobs: [],
          }),
          this.event('response.content_part.done', {
            ...where,
            content_index: 0,
            part: outputText(block.text),
          }),
        );
        break;
      case 'tool_call':
        events.push(this.event('response.function_call_arguments.done', { ...where, arguments: block.text }));
        break;
    }
    events.push(
      this.event('response.output_item.done', { output_index: block.index, item: this.item(block) }),
    );
    return events;
  }

  finish(reason: FinishReason, t: Transcript): SseEvent[] {
    const response = this.final(reason, t);
    const type = reason === 'length' ? 'response.incomplete' : 'response.completed';
    return [this.event(type, { response })];
  }

  /** HopBase's Responses mid-stream error: `response.failed` with `response.error.code`, partial output, no usage. */
  fail({ message }: { message: string }, t: Transcript): SseEvent[] {
    const response = this.response(
      'failed',
      t.blocks.map((b) => this.item(b)),
      { error: { code: 'server_error', message } },
    );
    return [this.event('response.failed', { response })];
  }

  body(reason: FinishReason, t: Transcript): unknown {
    return this.final(reason, t);
  }

  private final(reason: FinishReason, t: Transcript): Json {
    const output = t.blocks.map((b) => this.item(b));
    const usage = {
      input_tokens: t.inputTokens,
      input_tokens_details: { cached_tokens: t.prompt.cacheRead },
      output_tokens: t.outputTokens,
      output_tokens_details: { reasoning_tokens: t.reasoningTokens },
      total_tokens: t.inputTokens + t.outputTokens,
    };
    if (reason === 'length') {
      return this.response('incomplete', output, {
        incomplete_details: { reason: 'max_output_tokens' },
        usage,
      });
    }
    return this.response('completed', output, { completed_at: nowSeconds(), usage });
  }

  private item(block: Block): Json {
    const known = this.items.get(block.index);
    const status = block.open ? 'in_progress' : this.truncated.has(block.index) ? 'incomplete' : 'completed';
    switch (block.kind) {
      case 'reasoning':
        return {
          id: known?.id,
          type: 'reasoning',
          summary: block.open || !this.summary ? [] : [{ type: 'summary_text', text: block.text }],
          // The final item's content is what goes back; the in-progress one's is not valid for that.
          ...(this.encrypted && { encrypted_content: encryptedContent(known?.id ?? '', !block.open) }),
        };
      case 'text':
        return {
          id: known?.id,
          type: 'message',
          status,
          content: block.open ? [] : [outputText(block.text)],
          role: 'assistant',
        };
      case 'tool_call':
        return {
          id: known?.id,
          type: 'function_call',
          status,
          arguments: block.open ? '' : block.text,
          call_id: known?.callId,
          name: block.name,
        };
    }
  }

  private where(block: Block): Json {
    return { item_id: this.items.get(block.index)?.id, output_index: block.index };
  }

  /** The full response object, echoing the request's settings the way the real API does. */
  private response(status: string, output: Json[], extra: Json = {}): Json {
    const b = this.request;
    const reasoning = isObject(b.reasoning) ? b.reasoning : {};
    return {
      id: this.id,
      object: 'response',
      created_at: this.createdAt,
      status,
      background: false,
      completed_at: null,
      error: null,
      incomplete_details: null,
      instructions: b.instructions ?? null,
      max_output_tokens: b.max_output_tokens ?? null,
      model: this.model,
      output,
      parallel_tool_calls: b.parallel_tool_calls ?? true,
      previous_response_id: b.previous_response_id ?? null,
      reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
      service_tier: 'default',
      store: b.store ?? true,
      temperature: b.temperature ?? 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: b.tool_choice ?? 'auto',
      tools: Array.isArray(b.tools) ? b.tools : [],
      top_p: b.top_p ?? 1,
      truncation: 'disabled',
      usage: null,
      user: null,
      metadata: b.metadata ?? {},
      ...extra,
    };
  }

  private event(type: string, payload: Json): SseEvent {
    return typedEvent(type, { sequence_number: this.sequence++, ...payload });
  }
}

function outputText(text: string): Json {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export const responsesProtocol: Protocol = {
  family: 'openai',
  parse,
  encoder: (conv: Conversation, body: Json, memory: ProviderMemory) =>
    new ResponsesEncoder(conv.model, body, memory),
};
