import { invalid, isObject, type Json, jsonTypeName, type Problem, supportedValues } from './conversation.ts';

/**
 * Tools, `tool_choice` and structured output checked as each API checks them, in its own words: a tool in
 * another protocol's shape, a choice naming no offered tool or a schema format missing its parts is a 400
 * in the protocol's error shape, so a client's mapping is tested end to end.
 */

/** What all three APIs take as a tool's name. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function firstProblem(checks: (() => Problem)[]): Problem {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return null;
}

const missing = (param: string) =>
  invalid(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');

function openaiName(name: unknown, param: string): Problem {
  if (name === undefined) return missing(param);
  if (typeof name !== 'string' || !NAME.test(name))
    return invalid(
      `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      'invalid_value',
    );
  return null;
}

function openaiSchema(schema: unknown, param: string): Problem {
  if (schema === undefined || isObject(schema)) return null;
  return invalid(
    `Invalid type for '${param}': expected an object, but got ${jsonTypeName(schema)} instead.`,
    param,
    'invalid_type',
  );
}

/** The tools list itself: absent, or an array of objects. */
function openaiToolList(tools: unknown): Problem {
  if (tools === undefined || tools === null) return null;
  if (!Array.isArray(tools))
    return invalid(
      `Invalid type for 'tools': expected an array of objects, but got ${jsonTypeName(tools)} instead.`,
      'tools',
      'invalid_type',
    );
  return null;
}

function toolType(tool: Json, i: number): Problem {
  if (tool.type === 'function') return null;
  if (tool.type === undefined) return missing(`tools[${i}].type`);
  return invalid(
    `Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'.`,
    `tools[${i}].type`,
    'invalid_value',
  );
}

/** `tool_choice`: a mode, or a named function among the tools offered (`named` reads the name from it). */
function openaiChoice(
  body: Json,
  names: string[],
  named: (choice: Json) => unknown,
  nameParam: string,
): Problem {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return null;
  if (names.length === 0)
    return invalid(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      'tool_choice',
      null,
    );
  if (typeof choice === 'string')
    return ['none', 'auto', 'required'].includes(choice)
      ? null
      : invalid(
          `Invalid value: '${choice}'. Supported values are: ${supportedValues(['none', 'auto', 'required'])}.`,
          'tool_choice',
          'invalid_value',
        );
  if (!isObject(choice) || choice.type !== 'function')
    return invalid(
      "Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a function.",
      'tool_choice',
      'invalid_value',
    );
  const name = named(choice);
  if (typeof name !== 'string') return missing(nameParam);
  if (!names.includes(name))
    return invalid(`Tool choice '${name}' not found in 'tools' parameter.`, 'tool_choice', null);
  return null;
}

/** `{type:"json_schema", <name, schema>}` where `at` holds the name and schema (`param` says where). */
function jsonSchemaFormat(
  format: unknown,
  param: string,
  inner: (format: Json) => unknown,
  innerParam: string,
): Problem {
  if (format === undefined || format === null) return null;
  if (!isObject(format))
    return invalid(`Invalid type for '${param}': expected an object.`, param, 'invalid_type');
  if (!['text', 'json_object', 'json_schema'].includes(String(format.type)))
    return invalid(
      `Invalid value: '${String(format.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      `${param}.type`,
      'invalid_value',
    );
  if (format.type !== 'json_schema') return null;
  const at = inner(format);
  if (!isObject(at)) return missing(innerParam);
  const prefix = innerParam === param ? param : innerParam;
  return firstProblem([
    () => openaiName(at.name, `${prefix}.name`),
    () =>
      at.schema === undefined ? missing(`${prefix}.schema`) : openaiSchema(at.schema, `${prefix}.schema`),
  ]);
}

/** Chat Completions: `{type:"function",function:{name,…}}`, `response_format.json_schema`. */
export function checkChatTools(body: Json): Problem {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const names: string[] = [];
  return firstProblem([
    () => openaiToolList(body.tools),
    ...tools.map((tool, i) => () => {
      if (!isObject(tool))
        return invalid(`Invalid type for 'tools[${i}]': expected an object.`, `tools[${i}]`, 'invalid_type');
      const fn = tool.function;
      const problem = toolType(tool, i) ?? (isObject(fn) ? null : missing(`tools[${i}].function`));
      if (problem || !isObject(fn)) return problem;
      names.push(String(fn.name));
      return (
        openaiName(fn.name, `tools[${i}].function.name`) ??
        openaiSchema(fn.parameters, `tools[${i}].function.parameters`)
      );
    }),
    () =>
      openaiChoice(
        body,
        names,
        (c) => (isObject(c.function) ? c.function.name : undefined),
        'tool_choice.function',
      ),
    () =>
      jsonSchemaFormat(
        body.response_format,
        'response_format',
        (f) => f.json_schema,
        'response_format.json_schema',
      ),
  ]);
}

/** Responses: flat `{type:"function",name,…}`, `text.format` with the name and schema in it. */
export function checkResponsesTools(body: Json): Problem {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const names: string[] = [];
  return firstProblem([
    () => openaiToolList(body.tools),
    ...tools.map((tool, i) => () => {
      if (!isObject(tool))
        return invalid(`Invalid type for 'tools[${i}]': expected an object.`, `tools[${i}]`, 'invalid_type');
      const problem = toolType(tool, i);
      if (problem) return problem;
      names.push(String(tool.name));
      return (
        openaiName(tool.name, `tools[${i}].name`) ?? openaiSchema(tool.parameters, `tools[${i}].parameters`)
      );
    }),
    () => openaiChoice(body, names, (c) => c.name, 'tool_choice.name'),
    () =>
      body.response_format === undefined
        ? null
        : invalid(
            "Unsupported parameter: 'response_format'. In the Responses API, this parameter has moved to 'text.format'.",
            'response_format',
            'unsupported_parameter',
          ),
    () =>
      isObject(body.text) ? jsonSchemaFormat(body.text.format, 'text.format', (f) => f, 'text.format') : null,
  ]);
}

const ANTHROPIC_CHOICES = ['auto', 'any', 'tool', 'none'];

/** Anthropic Messages: `{name,description,input_schema}`, `tool_choice` `{type}`; no `response_format`. */
export function checkMessagesTools(body: Json): Problem {
  const tools = body.tools === undefined ? [] : body.tools;
  if (!Array.isArray(tools)) return invalid('tools: Input should be a valid list');
  const names: string[] = [];
  return firstProblem([
    ...tools.map((tool, i) => () => {
      if (!isObject(tool)) return invalid(`tools.${i}: Input should be a valid dictionary or object`);
      if (isObject(tool.function)) return invalid(`tools.${i}.function: Extra inputs are not permitted`);
      if (typeof tool.name !== 'string') return invalid(`tools.${i}.custom.name: Field required`);
      if (!NAME.test(tool.name))
        return invalid(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (!isObject(tool.input_schema)) return invalid(`tools.${i}.custom.input_schema: Field required`);
      names.push(tool.name);
      return null;
    }),
    () => {
      const choice = body.tool_choice;
      if (choice === undefined) return null;
      if (!isObject(choice) || !ANTHROPIC_CHOICES.includes(String(choice.type)))
        return invalid(
          "tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
        );
      if (choice.type !== 'tool') return null;
      if (typeof choice.name !== 'string') return invalid('tool_choice.tool.name: Field required');
      return names.includes(choice.name) ? null : invalid(`Tool '${choice.name}' not found in tools`);
    },
    () =>
      body.response_format === undefined ? null : invalid('response_format: Extra inputs are not permitted'),
  ]);
}
