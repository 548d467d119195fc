import {
  inRange,
  type NumberParameter,
  numberParameters,
  type ParameterSupport,
  type Protocol,
  type ReasoningOptions,
  type RequestProblem,
  requestProblem,
  type SamplingParameters,
} from '../../core/index.ts';

/**
 * The parameters panel's decisions, apart from React: what the person typed (text, as typed), read into
 * parameters, and what the protocol in use would refuse, field by field.
 */

export interface ParametersDraft {
  numbers: Record<NumberParameter, string>;
  /** As shown: a new line as `\n`, a tab as `\t`, a backslash as `\\`. */
  stop: string[];
  cache: boolean;
}

export type FieldName = NumberParameter | 'stop';

export type FieldError =
  | { kind: 'number'; value: string }
  | { kind: 'range'; value: string }
  | { kind: 'stops'; max: number }
  /** Anthropic's thinking narrows a parameter (`temperature_while_thinking`, …). */
  | { kind: 'thinking'; problem: RequestProblem };

export interface ReadDraft {
  parameters: SamplingParameters;
  errors: Partial<Record<FieldName, FieldError>>;
}

/** A stop sequence as the field shows it: its new lines and tabs visible and typeable. */
export function showEscapes(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
}

/** The stop sequence a field's text stands for; a backslash before anything else stays as typed. */
export function readEscapes(text: string): string {
  return text.replace(/\\([\\ntr])/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : '\\',
  );
}

export function draftOf(parameters: SamplingParameters): ParametersDraft {
  const numbers = Object.fromEntries(
    numberParameters.map((name) => [name, parameters[name] === undefined ? '' : String(parameters[name])]),
  ) as Record<NumberParameter, string>;
  return { numbers, stop: (parameters.stop ?? []).map(showEscapes), cache: parameters.cache === true };
}

/** A decimal point or, as many languages write it, a comma; an exponent too. Nothing else reads as a number. */
const numberText = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)(e[+-]?\d+)?$/i;

/** `text` as a number: empty is none, anything else not a number is null. */
export function readNumber(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return numberText.test(trimmed) ? Number(trimmed.replace(',', '.')) : null;
}

/**
 * The draft read for a request of `protocol` (its ranges in `support`), with `reasoning` as it would go:
 * the parameters to keep, and what it would refuse, by field. A parameter the protocol does not take is
 * kept, unchecked (it is not sent there).
 */
export function readDraft(
  draft: ParametersDraft,
  protocol: Protocol,
  support: ParameterSupport,
  reasoning: ReasoningOptions | undefined,
): ReadDraft {
  const parameters: SamplingParameters = {};
  const errors: ReadDraft['errors'] = {};
  for (const name of numberParameters) {
    const text = draft.numbers[name];
    const value = readNumber(text);
    const range = support.numbers[name];
    if (value === null) {
      if (range) errors[name] = { kind: 'number', value: text.trim() };
    } else if (value !== undefined) {
      parameters[name] = value;
      if (range && !inRange(range, value)) errors[name] = { kind: 'range', value: text.trim() };
    }
  }
  const stop = draft.stop.filter((s) => s !== '').map(readEscapes);
  if (stop.length > 0) parameters.stop = stop;
  const max = support.stop?.max;
  if (max !== undefined && stop.length > max) errors.stop = { kind: 'stops', max };
  if (draft.cache) parameters.cache = true;
  if (Object.keys(errors).length === 0 && reasoning) {
    const problem = requestProblem(protocol, { model: '', messages: [], ...parameters, reasoning });
    const field = problem && thinkingFields[problem.code];
    if (problem && field) errors[field] = { kind: 'thinking', problem };
  }
  return { parameters, errors };
}

/** The field each of reasoning's constraints is about. */
const thinkingFields: Partial<Record<RequestProblem['code'], FieldName>> = {
  temperature_while_thinking: 'temperature',
  top_p_while_thinking: 'topP',
  limit_not_above_budget: 'maxOutputTokens',
};
