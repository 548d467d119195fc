import type { Turn } from '../turn.ts';
import { structuredOutputTool } from './toolFields.ts';

/** What a request asked the answer to match, and the answer's JSON text as the turn holds it. */
export interface StructuredAnswer {
  schema: Record<string, unknown>;
  /** The answer's JSON text (the model's text, or Anthropic's forced tool's input). */
  text: string;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  const found =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof found === 'object' && found !== null && !Array.isArray(found)
    ? (found as Record<string, unknown>)
    : undefined;
}

/**
 * The schema a sent body asked for, read back from the body itself (so it is the one that went out);
 * `forced`: through Anthropic's forced tool, whose input is the answer.
 */
function askedSchema(
  body: Record<string, unknown>,
): { schema: Record<string, unknown>; forced: boolean } | undefined {
  const chat = objectAt(objectAt(body, 'response_format'), 'json_schema');
  const format = objectAt(objectAt(body, 'text'), 'format');
  const openai = chat ?? (format?.type === 'json_schema' ? format : undefined);
  const schema = objectAt(openai, 'schema');
  if (schema) return { schema, forced: false };
  const choice = objectAt(body, 'tool_choice');
  if (choice?.type !== 'tool' || choice.name !== structuredOutputTool || !Array.isArray(body.tools)) return;
  const tool: unknown = body.tools.find((t) => objectAt({ t }, 't')?.name === structuredOutputTool);
  const input = objectAt(tool, 'input_schema');
  return input && { schema: input, forced: true };
}

/** The structured answer of a turn whose request asked for one; null when it asked for none. */
export function structuredAnswerOf(body: Record<string, unknown>, turn: Turn): StructuredAnswer | null {
  const asked = askedSchema(body);
  if (!asked) return null;
  const call = asked.forced ? turn.toolCalls.find((c) => c.name === structuredOutputTool) : undefined;
  return { schema: asked.schema, text: call ? call.arguments : turn.text };
}
