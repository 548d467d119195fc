import {
  type Conversation,
  cachedTokens,
  type Effort,
  invalid,
  isObject,
  isPositiveInteger,
  type Json,
  type LastTurn,
  lastTurnOf,
  type Parsed,
  type ReasoningAsk,
  type Refusal,
  type ToolSpec,
  textOf,
  tokenText,
  toolsInOrder,
} from '../conversation.ts';
import { ids } from '../ids.ts';
import { checkMessagesSampling } from '../sampling.ts';
import {
  type Block,
  type Encoder,
  type FinishReason,
  INTERRUPTED_MESSAGE,
  type Transcript,
} from '../script.ts';
import { seal, verifySeal } from '../sealing.ts';
import type { SseEvent } from '../sse-writer.ts';
import { estimateTokens } from '../tokens.ts';
import { checkMessagesTools } from '../tool-shapes.ts';
import { type Protocol, typedEvent } from './protocol.ts';

/** Anthropic Messages: `POST /v1/messages` (docs/protocols.md §6). */
function parseTools(body: Json): ToolSpec[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const specs = tools.flatMap((t): ToolSpec[] =>
    isObject(t) && typeof t.name === 'string' && isObject(t.input_schema)
      ? [{ name: t.name, schema: t.input_schema }]
      : [],
  );
  const choice = isObject(body.tool_choice) ? body.tool_choice : {};
  return toolsInOrder(specs, {
    none: choice.type === 'none',
    forced: choice.type === 'tool' ? choice.name : undefined,
  });
}

function blocksOf(content: unknown): Json[] {
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function lastTurn(messages: Json[]): LastTurn {
  const last = messages.at(-1);
  const results = last?.role === 'user' ? blocksOf(last.content).filter((b) => b.type === 'tool_result') : [];
  return lastTurnOf(
    results.map((r) => ({ callId: r.tool_use_id, content: textOf(r.content) })),
    messages
      .flatMap((m) => blocksOf(m.content))
      .flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name }] : [])),
    messages.findLast((m) => m.role === 'user')?.content,
  );
}

const DOCS =
  'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
/** The prompt string that makes the real API answer with a `redacted_thinking` block, for testing clients. */
export const REDACTED_THINKING_TRIGGER =
  'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253';
const THINKING_PURPOSE = 'messages.thinking';
const REDACTED_PURPOSE = 'messages.redacted_thinking';

/** The effort a thinking budget buys (the app's Low, Medium and High budgets land in these bands). */
function effortFor(budget: number): Effort {
  return budget < 4096 ? 'low' : budget < 12288 ? 'medium' : 'high';
}

/** `thinking`, `max_tokens` and `temperature` together, as the real API checks them. */
function readThinking(body: Json, maxTokens: number): ReasoningAsk | Refusal {
  const { thinking } = body;
  if (thinking === undefined || thinking === null) return { effort: 'none' };
  if (!isObject(thinking)) return invalid('thinking: Input should be a valid dictionary or object');
  if (thinking.type === 'disabled') return { effort: 'none' };
  if (thinking.type === 'adaptive') return { effort: 'medium' };
  if (thinking.type !== 'enabled')
    return invalid("thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'");
  const budget = thinking.budget_tokens;
  if (budget === undefined) return invalid('thinking.enabled.budget_tokens: Field required');
  if (typeof budget !== 'number' || !Number.isInteger(budget))
    return invalid('thinking.enabled.budget_tokens: Input should be a valid integer');
  if (budget < 1024)
    return invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (budget >= maxTokens)
    return invalid(
      `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${DOCS}#max-tokens-and-context-window-size`,
    );
  if (body.temperature !== undefined && body.temperature !== 1)
    return invalid(
      `\`temperature\` may only be set to 1 when thinking is enabled. ${DOCS}#feature-compatibility`,
    );
  return { effort: effortFor(budget), budgetTokens: budget };
}

/**
 * Thinking sent back, checked as the real API does: every thinking block must carry the signature issued
 * for exactly its text, every redacted block its data unchanged; and with thinking on, the assistant turn
 * a tool loop continues must start with its thinking (`thinking` then off for that turn is the way out).
 */
function checkThinking(messages: Json[], thinkingOn: boolean): Refusal | null {
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'assistant') continue;
    for (const [j, block] of blocksOf(m.content).entries()) {
      if (
        block.type === 'thinking' &&
        !verifySeal(THINKING_PURPOSE, String(block.thinking ?? ''), block.signature)
      )
        return invalid(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
      if (block.type === 'redacted_thinking' && !verifySeal(REDACTED_PURPOSE, '', block.data))
        return invalid(`messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`);
    }
  }
  const last = messages.at(-1);
  const answersTools = last?.role === 'user' && blocksOf(last.content).some((b) => b.type === 'tool_result');
  const index = messages.findLastIndex((m) => m.role === 'assistant');
  const assistant = messages[index];
  if (!thinkingOn || !answersTools || !assistant) return null;
  const first = blocksOf(assistant.content)[0];
  if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return null;
  const found = first ? String(first.type) : typeof assistant.content === 'string' ? 'text' : 'nothing';
  return invalid(
    `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. ${DOCS}`,
  );
}

/** Anthropic refuses more breakpoints than this in one request. */
const MAX_BREAKPOINTS = 4;

/**
 * The `cache_control` breakpoints of a request (on tools, system blocks and content blocks; a top-level one
 * asks for automatic caching), each checked as the real API checks it: `ephemeral`, with a `ttl` of 5m or 1h,
 * four at most, never on a thinking block.
 */
function countBreakpoints(body: Json, messages: Json[]): number | Refusal {
  const places: [string, unknown][] = [['cache_control', body.cache_control]];
  const add = (path: string, blocks: unknown) => {
    for (const [i, b] of blocksOf(blocks).entries())
      places.push([`${path}.${i}.cache_control`, b.cache_control]);
  };
  add('tools', body.tools);
  add('system', body.system);
  for (const [i, m] of messages.entries()) {
    add(`messages.${i}.content`, m.content);
    for (const [j, b] of blocksOf(m.content).entries())
      if ((b.type === 'thinking' || b.type === 'redacted_thinking') && b.cache_control !== undefined)
        return invalid(
          `messages.${i}.content.${j}.${String(b.type)}.cache_control: Extra inputs are not permitted`,
        );
  }
  let count = 0;
  for (const [path, control] of places) {
    if (control === undefined || control === null) continue;
    if (!isObject(control) || control.type !== 'ephemeral')
      return invalid(`${path}.type: Input should be 'ephemeral'`);
    if (control.ttl !== undefined && control.ttl !== '5m' && control.ttl !== '1h')
      return invalid(`${path}.ttl: Input should be '5m' or '1h'`);
    if (path !== 'cache_control') count++;
  }
  if (count > MAX_BREAKPOINTS)
    return invalid(
      `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`,
    );
  return count + (places[0]![1] ? 1 : 0);
}

/** Messages are validated in the order and wording the real API uses for its most common mistakes. */
function parse(body: unknown): Parsed {
  if (!isObject(body)) return invalid('Input should be a valid dictionary or object to extract fields from');
  if (typeof body.model !== 'string' || body.model === '') return invalid('model: Field required');
  if (body.max_tokens === undefined) return invalid('max_tokens: Field required');
  if (!isPositiveInteger(body.max_tokens))
    return invalid('max_tokens: Input should be greater than or equal to 1');
  const { messages } = body;
  if (messages === undefined) return invalid('messages: Field required');
  if (!Array.isArray(messages)) return invalid('messages: Input should be a valid list');
  if (messages.length === 0) return invalid('messages: at least one message is required');
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) return invalid(`messages.${i}: Input should be a valid dictionary`);
    if (m.role !== 'user' && m.role !== 'assistant') {
      return invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
  }
  const shapes = checkMessagesTools(body);
  if (shapes) return shapes;
  const sampling = checkMessagesSampling(body);
  if (sampling) return sampling;
  const reasoning = readThinking(body, body.max_tokens);
  if ('ok' in reasoning) return reasoning;
  const problem = checkThinking(messages as Json[], reasoning.effort !== 'none');
  if (problem) return problem;
  const breakpoints = countBreakpoints(body, messages as Json[]);
  if (typeof breakpoints !== 'number') return breakpoints;
  const promptTokens = (items: unknown[]) =>
    estimateTokens(tokenText([body.system ?? '', items, body.tools ?? []]).length);
  return {
    ok: true,
    conversation: {
      model: body.model,
      stream: body.stream === true,
      maxOutputTokens: body.max_tokens,
      tools: parseTools(body),
      toolRequired:
        isObject(body.tool_choice) && (body.tool_choice.type === 'any' || body.tool_choice.type === 'tool'),
      lastTurn: lastTurn(messages as Json[]),
      inputTokens: promptTokens(messages),
      cachedTokens:
        breakpoints > 0 ? cachedTokens(messages, (m) => m.role === 'assistant', promptTokens) : null,
      reasoning,
    },
  };
}

const STOP: Record<FinishReason, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };

/** Anthropic counts cache reads and writes apart from `input_tokens`. */
function usage(t: Transcript, outputTokens: number): Json {
  const { tokens, cacheRead, cacheWrite5m, cacheWrite1h } = t.prompt;
  return {
    input_tokens: tokens - cacheRead - cacheWrite5m - cacheWrite1h,
    cache_creation_input_tokens: cacheWrite5m + cacheWrite1h,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: cacheWrite5m, ephemeral_1h_input_tokens: cacheWrite1h },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/**
 * Reasoning is a `thinking` block (with a `signature_delta` over its text before it closes), or, when the
 * prompt holds the trigger string, a `redacted_thinking` block complete at its start; tool calls are
 * `tool_use` blocks.
 */
class MessagesEncoder implements Encoder {
  private readonly id = ids.anthropicMessage();
  private readonly extras = new Map<number, string>();

  constructor(
    private readonly model: string,
    private readonly redacted: boolean,
  ) {}

  open(t: Transcript): SseEvent[] {
    const message = {
      id: this.id,
      type: 'message',
      role: 'assistant',
      model: this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(t, 1),
    };
    return [typedEvent('message_start', { message })];
  }

  blockStart(block: Block): SseEvent[] {
    const events = [
      typedEvent('content_block_start', { index: block.index, content_block: this.start(block) }),
    ];
    // The real API sends a ping right after the first block opens.
    if (block.index === 0) events.push({ event: 'ping', data: '{"type": "ping"}' });
    if (block.kind === 'tool_call')
      events.push(this.delta(block, { type: 'input_json_delta', partial_json: '' }));
    return events;
  }

  blockDelta(block: Block, piece: string): SseEvent[] {
    switch (block.kind) {
      case 'reasoning':
        return this.redacted ? [] : [this.delta(block, { type: 'thinking_delta', thinking: piece })];
      case 'text':
        return [this.delta(block, { type: 'text_delta', text: piece })];
      case 'tool_call':
        return [this.delta(block, { type: 'input_json_delta', partial_json: piece })];
    }
  }

  blockEnd(block: Block): SseEvent[] {
    const stop = typedEvent('content_block_stop', { index: block.index });
    if (block.kind !== 'reasoning' || this.redacted) return [stop];
    return [
      this.delta(block, { type: 'signature_delta', signature: seal(THINKING_PURPOSE, block.text) }),
      stop,
    ];
  }

  finish(reason: FinishReason, t: Transcript): SseEvent[] {
    return [
      typedEvent('message_delta', {
        delta: { stop_reason: STOP[reason], stop_sequence: null },
        usage: { output_tokens: t.outputTokens },
      }),
      typedEvent('message_stop', {}),
    ];
  }

  /** Whatever broke (an interruption or a stall), HopBase sends exactly this one event and ends the stream. */
  fail(): SseEvent[] {
    return [typedEvent('error', { error: { type: 'api_error', message: INTERRUPTED_MESSAGE } })];
  }

  body(reason: FinishReason, t: Transcript): unknown {
    return {
      id: this.id,
      type: 'message',
      role: 'assistant',
      model: this.model,
      content: t.blocks.map((b) => this.complete(b)),
      stop_reason: STOP[reason],
      stop_sequence: null,
      usage: usage(t, t.outputTokens),
    };
  }

  private start(block: Block): Json {
    switch (block.kind) {
      case 'reasoning':
        if (!this.redacted) return { type: 'thinking', thinking: '', signature: '' };
        this.extras.set(block.index, seal(REDACTED_PURPOSE, ''));
        return { type: 'redacted_thinking', data: this.extras.get(block.index) };
      case 'text':
        return { type: 'text', text: '' };
      case 'tool_call':
        this.extras.set(block.index, ids.toolUse());
        return { type: 'tool_use', id: this.extras.get(block.index), name: block.name, input: {} };
    }
  }

  private complete(block: Block): Json {
    const extra = this.extras.get(block.index);
    switch (block.kind) {
      case 'reasoning':
        return this.redacted
          ? { type: 'redacted_thinking', data: extra }
          : { type: 'thinking', thinking: block.text, signature: seal(THINKING_PURPOSE, block.text) };
      case 'text':
        return { type: 'text', text: block.text };
      case 'tool_call':
        return { type: 'tool_use', id: extra, name: block.name, input: parseInput(block.text) };
    }
  }

  private delta(block: Block, delta: Json): SseEvent {
    return typedEvent('content_block_delta', { index: block.index, delta });
  }
}

/** Arguments cut short by `max_tokens` are not valid JSON; report an empty input rather than fail. */
function parseInput(text: string): unknown {
  try {
    return text === '' ? {} : JSON.parse(text);
  } catch {
    return {};
  }
}

export const messagesProtocol: Protocol = {
  family: 'anthropic',
  parse,
  encoder: (conv: Conversation) =>
    new MessagesEncoder(
      conv.model,
      conv.lastTurn.kind === 'user' && conv.lastTurn.text.includes(REDACTED_THINKING_TRIGGER),
    ),
};
