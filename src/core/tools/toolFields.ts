import type { TurnRequest } from '../conversation.ts';

/** Which tools the model may or must call: each protocol writes it its own way (`toolChoiceOf`). */
export type ToolChoice =
  | { kind: 'auto' }
  | { kind: 'required' }
  | { kind: 'none' }
  | { kind: 'tool'; name: string };

/** A JSON Schema the answer must match (structured output), under the name the OpenAI protocols send it by. */
export interface OutputSchema {
  name: string;
  schema: Record<string, unknown>;
}

/**
 * Anthropic has no structured output of its own: the answer is the input of a tool it is made to call, by
 * this name (a person's own tool of that name is shadowed while a schema is set).
 */
export const structuredOutputTool = 'structured_output';

/** The tools a request offers and how to use them: what each protocol maps to its own fields. */
type ToolRequest = Pick<TurnRequest, 'tools' | 'toolChoice' | 'outputSchema'>;

/** `tool_choice` goes only with tools: every protocol refuses it alone. */
function offered(request: ToolRequest): boolean {
  return (request.tools?.length ?? 0) > 0;
}

/** Chat Completions: `{type:"function",function:{…}}`, a named choice `{type:"function",function:{name}}`. */
export function chatToolFields(request: ToolRequest): Record<string, unknown> {
  const choice = request.toolChoice;
  return {
    ...(offered(request) && {
      tools: request.tools!.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      })),
      ...(choice && {
        tool_choice:
          choice.kind === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.kind,
      }),
    }),
    ...(request.outputSchema && {
      response_format: {
        type: 'json_schema',
        json_schema: { name: request.outputSchema.name, schema: request.outputSchema.schema, strict: true },
      },
    }),
  };
}

/** Responses: flat `{type:"function",name,…}`, a named choice `{type:"function",name}`, the schema in `text.format`. */
export function responsesToolFields(request: ToolRequest): Record<string, unknown> {
  const choice = request.toolChoice;
  return {
    ...(offered(request) && {
      tools: request.tools!.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
      ...(choice && {
        tool_choice: choice.kind === 'tool' ? { type: 'function', name: choice.name } : choice.kind,
      }),
    }),
    ...(request.outputSchema && {
      text: {
        format: {
          type: 'json_schema',
          name: request.outputSchema.name,
          schema: request.outputSchema.schema,
          strict: true,
        },
      },
    }),
  };
}

const anthropicChoice = { auto: 'auto', required: 'any', none: 'none' } as const;

/**
 * Anthropic: `{name,description,input_schema}`; `required` is `any`. Structured output is one more tool
 * whose input is the answer, and the model is made to call it (whatever choice was set for the others).
 */
export function messagesToolFields(request: ToolRequest): Record<string, unknown> {
  const output = request.outputSchema;
  const tools = [
    ...(request.tools ?? []).filter((tool) => !output || tool.name !== structuredOutputTool),
    ...(output
      ? [{ name: structuredOutputTool, description: 'The answer, as JSON.', parameters: output.schema }]
      : []),
  ];
  const choice = output ? ({ kind: 'tool', name: structuredOutputTool } as const) : request.toolChoice;
  return {
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters,
      })),
      ...(choice && {
        tool_choice:
          choice.kind === 'tool'
            ? { type: 'tool', name: choice.name }
            : { type: anthropicChoice[choice.kind] },
      }),
    }),
  };
}
