import { type Received, readUserContent, shortenData } from './attachments.ts';
import type { HttpError } from './errors.ts';

/** A request reduced to what the simulated model needs, whatever protocol it came in. */
export interface Conversation {
  model: string;
  stream: boolean;
  /** The request's output token limit, if any. */
  maxOutputTokens: number | undefined;
  /** Offered tools in the order to use them (a forced `tool_choice` comes first); empty if `none`. */
  tools: ToolSpec[];
  /** `tool_choice` asks for a tool call whatever the scenario. */
  toolRequired: boolean;
  /** Structured output (OpenAI's protocols): the answer's JSON Schema; Anthropic's comes as a forced tool. */
  outputSchema?: unknown;
  lastTurn: LastTurn;
  inputTokens: number;
  /**
   * The request asks for caching (Messages `cache_control`, OpenAI `prompt_cache_key`): of its input tokens,
   * those an earlier turn of the conversation cached (none on its first turn). Null: it does not ask.
   */
  cachedTokens: number | null;
  /** What the request asks of a reasoning model (other models ignore it). */
  reasoning: ReasoningAsk;
}

/** How hard a reasoning model thinks: `none` not at all; `default` when the request says nothing. */
export type Effort = 'none' | 'low' | 'medium' | 'high';

export interface ReasoningAsk {
  effort: Effort;
  /** Most reasoning tokens (Anthropic's `thinking.budget_tokens`). */
  budgetTokens?: number;
}

/** A reasoning model's default when the request names no effort (as OpenAI's reasoning models do). */
export const DEFAULT_REASONING: ReasoningAsk = { effort: 'medium' };

/** OpenAI's efforts (`reasoning_effort`, `reasoning.effort`): every typed value, as the simulator thinks at it. */
export const OPENAI_EFFORTS: Record<string, Effort> = {
  none: 'none',
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/** `Supported values are: 'a', 'b', and 'c'.`, as OpenAI lists them. */
export function supportedValues(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

export interface ToolSpec {
  name: string;
  schema: unknown;
}

export type LastTurn =
  /** The last user message: its text, and the files it carries (described in the answer). */
  | { kind: 'user'; text: string; received: Received[] }
  | { kind: 'tool_results'; results: { name: string; content: string }[] };

export type Json = Record<string, unknown>;

/** A request the API refuses, and how. */
export type Refusal = { ok: false; error: HttpError };

export type Parsed = { ok: true; conversation: Conversation } | Refusal;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function invalid(message: string, param: string | null = null, code: string | null = null): Refusal {
  return { ok: false, error: { status: 400, kind: 'invalid_request', message, param, code } };
}

/** A validation outcome: nothing wrong (null), or the refusal to send. */
export type Problem = Refusal | null;

/** Text of a message content: a string or a list of text-like parts (`text`, `input_text`, `output_text`). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * The offered tools in the order to use them: the one `tool_choice` forces (if any) first, none at all
 * when `tool_choice` is none.
 */
export function toolsInOrder(specs: ToolSpec[], choice: { none: boolean; forced: unknown }): ToolSpec[] {
  if (choice.none) return [];
  const { forced } = choice;
  return typeof forced === 'string'
    ? [...specs.filter((s) => s.name === forced), ...specs.filter((s) => s.name !== forced)]
    : specs;
}

/** What counts towards input tokens: the request with each image or file's data shortened, as APIs count an image as a few hundred tokens, not its base64. */
export function tokenText(value: unknown): string {
  return JSON.stringify(shortenData(value));
}

/**
 * What the model answers: the trailing tool results (each named after the call it answers, found
 * among all the calls made so far), or else the last user message.
 */
export function lastTurnOf(
  results: { callId: unknown; content: string }[],
  calls: { id: unknown; name: unknown }[],
  lastUserContent: unknown,
): LastTurn {
  if (results.length === 0) return { kind: 'user', ...readUserContent(lastUserContent) };
  const names = new Map(calls.map((c) => [String(c.id), String(c.name)]));
  return {
    kind: 'tool_results',
    results: results.map((r) => ({ name: names.get(String(r.callId)) ?? 'tool', content: r.content })),
  };
}

export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/**
 * What the previous turn of a conversation sent, found from this one's history: everything before the model's
 * last output (its run of answer, reasoning and tool call items). Empty on a conversation's first turn.
 */
function earlierRequest(items: unknown[], fromModel: (item: Json) => boolean): unknown[] {
  const ours = (item: unknown) => isObject(item) && fromModel(item);
  let start = items.findLastIndex(ours);
  if (start < 0) return [];
  while (start > 0 && ours(items[start - 1])) start--;
  return items.slice(0, start);
}

/**
 * The tokens of this prompt that its conversation's earlier turn cached: that turn's prompt, its `items` the
 * history before the model's last output, counted by `count` as the protocol counts a prompt of those items;
 * none on a first turn. As if every earlier turn had asked for caching too.
 */
export function cachedTokens(
  items: unknown[],
  fromModel: (item: Json) => boolean,
  count: (items: unknown[]) => number,
): number {
  const earlier = earlierRequest(items, fromModel);
  return earlier.length === 0 ? 0 : count(earlier);
}

/** OpenAI's `prompt_cache_key`, in both its protocols: a string asks to cache the prompt; null or none does not. */
export function readPromptCacheKey(body: Json): Refusal | boolean {
  const key = body.prompt_cache_key ?? null;
  if (key === null) return false;
  if (typeof key === 'string') return true;
  return invalid(
    `Invalid type for 'prompt_cache_key': expected a string, but got ${jsonTypeName(key)} instead.`,
    'prompt_cache_key',
    'invalid_type',
  );
}
