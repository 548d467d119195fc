import * as v from 'valibot';
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  defaultThinkingBudgets,
  type Protocol,
  type ReasoningEffort,
  type ReasoningLevel,
  type ToolDefinition,
} from '../../core/index.ts';
import type { Preset, SavedTool } from '../domain/types.ts';
import { thinkingBudget } from '../formats/settingsSchema.ts';

export interface Settings {
  /**
   * The language of the app: `auto` (the browser's languages) or a locale tag the person chose (`ja`, `es`,
   * …). A tag this version does not speak counts as `auto` (src/i18n/locales.ts).
   */
  language: string;
  /** Empty: the same-origin `/v1` (the simulator, or the dev server's proxy to a real gateway). */
  baseUrl: string;
  apiKey: string;
  /** Keep the key in this browser (IndexedDB); otherwise it lives in this tab's sessionStorage only. */
  rememberKey: boolean;
  protocol: Protocol;
  model: string;
  /** How hard to ask the model to think (each conversation remembers its own, like protocol and model). */
  reasoning: ReasoningLevel;
  /** Anthropic Messages: the thinking budget, in tokens, each reasoning level stands for. */
  thinkingBudgets: Record<ReasoningEffort, number>;
  systemPrompt: string;
  maxOutputTokens: number | null;
  temperature: number | null;
  /** Offer `tools` to the model, so tool calls can be tried (the simulator's `sim-tools` answers with one). */
  offerTools: boolean;
  tools: ToolDefinition[];
  /** Tools a person saved to use again in any conversation (the Tools dialog's library). */
  toolLibrary: SavedTool[];
  /** Seconds without output (keepalives still arriving) before the stall banner shows. */
  stallSilentSeconds: number;
  /** Seconds without any byte before the connection is called dead. */
  stallDeadSeconds: number;
  /** Retry automatically (with backoff) when a request fails before any output (429, 5xx). */
  autoRetry: boolean;
  /** Named starts for new chats (`src/state/domain/presets.ts`), in the order they were made. */
  presets: Preset[];
  /**
   * A person's own prices over the operator's, as typed: JSON in LiteLLM's format (`src/state/domain/cost.ts`,
   * `readOwnPrices`), kept as text so that a table being written is never lost.
   */
  ownPrices: string;
}

export const demoTools: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Paris' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city'],
    },
  },
];

export const defaultSettings: Settings = {
  language: 'auto',
  baseUrl: '',
  apiKey: '',
  rememberKey: false,
  protocol: 'chat',
  model: 'sim-echo',
  reasoning: 'off',
  thinkingBudgets: { ...defaultThinkingBudgets },
  systemPrompt: '',
  maxOutputTokens: null,
  temperature: null,
  offerTools: true,
  tools: demoTools,
  toolLibrary: [],
  stallSilentSeconds: 20,
  stallDeadSeconds: 25,
  autoRetry: true,
  presets: [],
  ownPrices: '',
};

/** A base URL the app may call: empty (same origin), or a complete http(s) address. */
export function isUsableBaseUrl(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '') return true;
  try {
    const url = new URL(trimmed);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Whether two base URLs name one gateway (spaces and trailing slashes aside, as requests join them). */
export function sameGateway(a: string, b: string): boolean {
  const plain = (url: string) => url.trim().replace(/\/+$/, '');
  return plain(a) === plain(b);
}

/** A thinking budget the API takes: a whole number of tokens, at least 1,024 (the settings record's own check). */
export function isThinkingBudget(value: unknown): value is number {
  return v.is(thinkingBudget, value);
}

export interface SettingsState {
  settings: Settings;
  /** Stored settings as read (`readSettingsRecord`: every field sound), defaults for the rest. */
  hydrate(settings: Partial<Settings>): void;
  update(patch: Partial<Settings>): void;
  /** Settings as stored by another tab, this tab's own unsaved changes already kept in them. */
  takeStored(settings: Settings): void;
}

export type SettingsStore = StoreApi<SettingsState>;

export function createSettingsStore(): SettingsStore {
  return createStore<SettingsState>()((set) => ({
    settings: defaultSettings,
    hydrate(saved) {
      set({ settings: { ...defaultSettings, ...saved } });
    },
    update(patch) {
      set((state) => ({ settings: { ...state.settings, ...patch } }));
    },
    takeStored(settings) {
      set({ settings });
    },
  }));
}
