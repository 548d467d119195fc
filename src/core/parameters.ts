/**
 * The sampling parameters a person sets per conversation, as every protocol shares them: each protocol
 * says which it takes and in what range (`ParameterSupport`, in its folder), maps them to its own fields in
 * its `request.ts`, and a value out of its range is never sent (`parameterIssues`).
 */

/** Absent: not sent, so the model's own default applies. */
export interface SamplingParameters {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  /** Text that ends the answer where the model would write it. */
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Ask the provider to cache the conversation's prompt (`protocols/promptCache.ts`). */
  cache?: true;
}

export type NumberParameter = Exclude<keyof SamplingParameters, 'stop' | 'cache'>;

/** In the order the parameters panel lists them. */
export const numberParameters: readonly NumberParameter[] = [
  'temperature',
  'topP',
  'maxOutputTokens',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
];

/** Inclusive bounds; `whole`: an integer. */
export interface NumberRange {
  min: number;
  max?: number;
  whole?: true;
}

/** A parameter as a protocol takes it: the field its body names it by (shown to the person too). */
interface Field {
  field: string;
}

/** What a protocol takes: each number parameter it has with its range, and stop sequences (how many at most). */
export interface ParameterSupport {
  numbers: Partial<Record<NumberParameter, NumberRange & Field>>;
  stop?: Field & { max?: number };
}

/** A value a protocol would refuse. */
export type ParameterIssue =
  | { kind: 'range'; name: NumberParameter; range: NumberRange; value: number }
  | { kind: 'stops'; max: number; count: number };

export function inRange(range: NumberRange, value: number): boolean {
  return (
    Number.isFinite(value) &&
    value >= range.min &&
    (range.max === undefined || value <= range.max) &&
    (!range.whole || Number.isSafeInteger(value))
  );
}

/**
 * What of `parameters` the protocol whose support this is would refuse; a parameter it does not take is
 * not sent at all, so it is never an issue.
 */
export function parameterIssues(support: ParameterSupport, parameters: SamplingParameters): ParameterIssue[] {
  const issues: ParameterIssue[] = [];
  for (const name of numberParameters) {
    const range = support.numbers[name];
    const value = parameters[name];
    if (range && value !== undefined && !inRange(range, value))
      issues.push({ kind: 'range', name, range, value });
  }
  const max = support.stop?.max;
  const count = parameters.stop?.length ?? 0;
  if (max !== undefined && count > max) issues.push({ kind: 'stops', max, count });
  return issues;
}

/**
 * The body fields of the parameters set that a protocol takes, each under the name its support gives it:
 * the one mapping every `request.ts` uses, so a body sends exactly what its support lists.
 */
export function parameterFields(
  support: ParameterSupport,
  parameters: SamplingParameters,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of numberParameters) {
    const taken = support.numbers[name];
    const value = parameters[name];
    if (taken && value !== undefined) fields[taken.field] = value;
  }
  if (support.stop && parameters.stop?.length) fields[support.stop.field] = parameters.stop;
  return fields;
}

/** The parameters set, none absent-but-named: what a conversation keeps and a preset saves. */
export function keptParameters(parameters: SamplingParameters): SamplingParameters {
  const out: SamplingParameters = {};
  for (const name of numberParameters) {
    const value = parameters[name];
    if (value !== undefined) out[name] = value;
  }
  if (parameters.stop?.length) out.stop = [...parameters.stop];
  if (parameters.cache) out.cache = true;
  return out;
}
