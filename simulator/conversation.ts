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
  lastTurn: LastTurn;
  inputTokens: number;
}

export interface ToolSpec {
  name: string;
  schema: unknown;
}

export type LastTurn =
  | { kind: 'user'; text: string }
  | { kind: 'tool_results'; results: { name: string; content: string }[] };

export type Json = Record<string, unknown>;

export type Parsed = { ok: true; conversation: Conversation } | { ok: false; error: HttpError };

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function invalid(message: string, param: string | null = null, code: string | null = null): Parsed {
  return { ok: false, error: { status: 400, kind: 'invalid_request', message, param, code } };
}

/** Text of a message content: a string or a list of text-like parts (`text`, `input_text`, `output_text`). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}
