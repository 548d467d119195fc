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
import type { Settings } from '../stores/settingsStore.ts';
import { aList, aNumber, anObject, aString, fields } from './validation.ts';

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
  stallSilentSeconds: aNumber,
  stallDeadSeconds: aNumber,
  autoRetry: aBoolean,
  ownPrices: aString,
} satisfies { [K in keyof Settings]: v.GenericSchema<unknown, Settings[K]> };
