import { invalid, type Json, jsonTypeName, type Problem } from './conversation.ts';

/**
 * Sampling parameters checked as each API checks them, in its own words: a value out of range, of the
 * wrong type, or a parameter the API does not have, is a 400 in the protocol's error shape.
 */

/** A number field and its documented bounds (inclusive); `integer`: whole numbers only. */
interface NumberField {
  min: number;
  max?: number;
  integer?: boolean;
}

/** OpenAI's wording: `Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.` */
function openaiNumber(body: Json, field: string, spec: NumberField): Problem {
  const value = body[field];
  if (value === undefined || value === null) return null;
  const kind = spec.integer ? 'integer' : 'decimal';
  if (typeof value !== 'number' || (spec.integer && !Number.isInteger(value))) {
    const got =
      typeof value === 'number'
        ? 'a decimal'
        : `${jsonTypeName(value) === 'object' ? 'an' : 'a'} ${jsonTypeName(value)}`;
    return invalid(
      `Invalid type for '${field}': expected ${spec.integer ? 'an integer' : 'a decimal'}, but got ${got} instead.`,
      field,
      'invalid_type',
    );
  }
  if (value < spec.min)
    return invalid(
      `Invalid '${field}': ${kind} below minimum value. Expected a value >= ${spec.min}, but got ${value} instead.`,
      field,
      `${kind}_below_min_value`,
    );
  if (spec.max !== undefined && value > spec.max)
    return invalid(
      `Invalid '${field}': ${kind} above maximum value. Expected a value <= ${spec.max}, but got ${value} instead.`,
      field,
      `${kind}_above_max_value`,
    );
  return null;
}

function firstProblem(checks: (() => Problem)[]): Problem {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return null;
}

/** Chat Completions: `temperature` 0–2, `top_p` 0–1, penalties −2–2, an integer `seed`, up to 4 `stop` strings. */
export function checkChatSampling(body: Json): Problem {
  return firstProblem([
    () => openaiNumber(body, 'temperature', { min: 0, max: 2 }),
    () => openaiNumber(body, 'top_p', { min: 0, max: 1 }),
    () => openaiNumber(body, 'presence_penalty', { min: -2, max: 2 }),
    () => openaiNumber(body, 'frequency_penalty', { min: -2, max: 2 }),
    () => openaiNumber(body, 'seed', { min: Number.MIN_SAFE_INTEGER, integer: true }),
    () => checkChatStop(body.stop),
  ]);
}

function checkChatStop(stop: unknown): Problem {
  if (stop === undefined || stop === null || typeof stop === 'string') return null;
  if (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string'))
    return invalid(
      `Invalid type for 'stop': expected one of a string or an array of strings, but got ${jsonTypeName(stop)} instead.`,
      'stop',
      'invalid_type',
    );
  if (stop.length > 4)
    return invalid(
      `Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${stop.length} instead.`,
      'stop',
      'array_above_max_length',
    );
  return null;
}

/** Responses: `temperature` 0–2, `top_p` 0–1, `max_output_tokens` from 16; Chat's other fields are unknown to it. */
export function checkResponsesSampling(body: Json): Problem {
  for (const field of ['stop', 'seed', 'presence_penalty', 'frequency_penalty', 'max_tokens'])
    if (body[field] !== undefined)
      return invalid(`Unknown parameter: '${field}'.`, field, 'unknown_parameter');
  return firstProblem([
    () => openaiNumber(body, 'temperature', { min: 0, max: 2 }),
    () => openaiNumber(body, 'top_p', { min: 0, max: 1 }),
    () => openaiNumber(body, 'max_output_tokens', { min: 16, integer: true }),
  ]);
}

/** Anthropic's (pydantic's) wording: `temperature: Input should be less than or equal to 1`. */
function anthropicNumber(body: Json, field: string, min: number, max: number): Problem {
  const value = body[field];
  if (value === undefined) return null;
  if (typeof value !== 'number') return invalid(`${field}: Input should be a valid number`);
  if (value < min) return invalid(`${field}: Input should be greater than or equal to ${min}`);
  if (value > max) return invalid(`${field}: Input should be less than or equal to ${max}`);
  return null;
}

/** Anthropic Messages: `temperature` and `top_p` 0–1, `stop_sequences` a list of strings; no seed or penalties. */
export function checkMessagesSampling(body: Json): Problem {
  for (const field of ['seed', 'presence_penalty', 'frequency_penalty', 'stop'])
    if (body[field] !== undefined) return invalid(`${field}: Extra inputs are not permitted`);
  const stops = body.stop_sequences;
  if (stops !== undefined) {
    if (!Array.isArray(stops)) return invalid('stop_sequences: Input should be a valid list');
    const i = stops.findIndex((s) => typeof s !== 'string');
    if (i >= 0) return invalid(`stop_sequences.${i}: Input should be a valid string`);
  }
  return firstProblem([
    () => anthropicNumber(body, 'temperature', 0, 1),
    () => anthropicNumber(body, 'top_p', 0, 1),
  ]);
}
