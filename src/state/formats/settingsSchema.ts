import * as v from 'valibot';
import {
  defaultThinkingBudgets,
  minThinkingBudget,
  protocols,
  type ReasoningEffort,
  type ReasoningLevel,
  reasoningLevels,
  type ToolDefinition,
} from '../../core/index.ts';
import type { Preset } from '../domain/types.ts';
import type { Settings } from '../stores/settingsStore.ts';
import { parameters, savedTool, toolSetup } from './recordSchemas.ts';
import { aList, aNumber, anObject, aString, fields, onlyFields } from './validation.ts';

/**
 * The settings record's fields, each checked on its own (`readSettingsRecord`): one of the wrong type is
 * left out, its default applies. Some are made sound instead: a reasoning level this version does not know
 * is off, a thinking budget missing or out of range its default (records from before reasoning lack them).
 */

/** A thinking budget the API takes: a whole number of tokens, at least 1,024. */
export const thinkingBudget = v.pipe(v.number(), v.safeInteger(), v.minValue(minThinkingBudget));

const budgetFor = (effort: ReasoningEffort) =>
  v.fallback(v.optional(thinkingBudget, defaultThinkingBudgets[effort]), defaultThinkingBudgets[effort]);

const aBoolean = v.boolean('true or false');

/** One preset; its reasoning level read as the toolbar's is (one this version does not know is off). */
const preset = v.pipe(
  onlyFields({
    id: v.pipe(aString, v.nonEmpty()),
    name: v.pipe(aString, v.nonEmpty()),
    createdAt: aNumber,
    choices: onlyFields({
      protocol: v.picklist(protocols),
      model: aString,
      reasoning: v.fallback(v.picklist(reasoningLevels), 'off'),
    }),
    systemPrompt: aString,
    parameters,
    toolSetup,
  }),
  v.transform((read): Preset => ({ ...read, parameters: read.parameters ?? {} })),
);

export const settingFields = {
  language: aString,
  baseUrl: aString,
  apiKey: aString,
  rememberKey: aBoolean,
  protocol: v.picklist(protocols),
  model: aString,
  reasoning: v.pipe(
    aString,
    v.transform((level) =>
      reasoningLevels.includes(level as ReasoningLevel) ? (level as ReasoningLevel) : 'off',
    ),
  ),
  thinkingBudgets: v.pipe(
    anObject,
    v.object({ low: budgetFor('low'), medium: budgetFor('medium'), high: budgetFor('high') }),
  ),
  systemPrompt: aString,
  maxOutputTokens: v.nullable(aNumber),
  temperature: v.nullable(aNumber),
  offerTools: aBoolean,
  tools: aList(
    v.pipe(
      fields({ name: aString, parameters: v.optional(anObject) }),
      // Sent as stored: a tool without parameters goes without them.
      v.transform((tool) => tool as ToolDefinition),
    ),
  ),
  toolLibrary: aList(savedTool),
  stallSilentSeconds: aNumber,
  stallDeadSeconds: aNumber,
  autoRetry: aBoolean,
  /** A list, each preset that cannot be read left out (the others kept). */
  presets: v.pipe(
    aList(v.unknown()),
    v.transform((items) =>
      items.flatMap((item): Preset[] => {
        const read = v.safeParse(preset, item);
        return read.success ? [read.output] : [];
      }),
    ),
  ),
  ownPrices: aString,
} satisfies { [K in keyof Settings]: v.GenericSchema<unknown, Settings[K]> };
