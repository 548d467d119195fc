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

/** The schema a sent body asked for, read back from the body itself (so it is the one that went out). */
function askedSchema(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const chat = objectAt(body.response_format, 'json_schema');
  if (chat) return objectAt(chat, 'schema');
  const format = objectAt(objectAt(body, 'text'), 'format');
  if (format?.type === 'json_schema') return objectAt(format, 'schema');
  const choice = objectAt(body, 'tool_choice');
  if (choice?.type !== 'tool' || choice.name !== structuredOutputTool || !Array.isArray(body.tools)) return;
  const tool: unknown = body.tools.find((t) => objectAt({ t }, 't')?.name === structuredOutputTool);
  return objectAt(tool, 'input_schema');
}

/** The structured answer of a turn whose request asked for one; null when it asked for none. */
export function structuredAnswerOf(body: Record<string, unknown>, turn: Turn): StructuredAnswer | null {
  const schema = askedSchema(body);
  if (!schema) return null;
  const forced = turn.toolCalls.find((call) => call.name === structuredOutputTool);
  return { schema, text: forced ? forced.arguments : turn.text };
}
