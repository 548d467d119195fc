import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  defaultThinkingBudgets,
  minThinkingBudget,
  type Protocol,
  type ReasoningEffort,
  type ReasoningLevel,
  reasoningLevels,
  type ToolDefinition,
} from '../core/index.ts';

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
  /** Seconds without output (keepalives still arriving) before the stall banner shows. */
  stallSilentSeconds: number;
  /** Seconds without any byte before the connection is called dead. */
  stallDeadSeconds: number;
  /** Retry automatically (with backoff) when a request fails before any output (429, 5xx). */
  autoRetry: boolean;
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
  stallSilentSeconds: 20,
  stallDeadSeconds: 25,
  autoRetry: true,
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

/** A thinking budget the API takes: a whole number of tokens, at least 1,024. */
export function isThinkingBudget(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= minThinkingBudget;
}

/**
 * Stored settings with the reasoning fields made sound: a level this version does not know is `off`, a
 * budget that is missing or out of range its default (records from before reasoning simply lack them).
 */
function soundReasoning(saved: Partial<Settings>): Partial<Settings> {
  const out = { ...saved };
  if (saved.reasoning !== undefined && !reasoningLevels.includes(saved.reasoning)) out.reasoning = 'off';
  if (saved.thinkingBudgets !== undefined) {
    const budgets = (typeof saved.thinkingBudgets === 'object' ? saved.thinkingBudgets : null) ?? {};
    out.thinkingBudgets = { ...defaultThinkingBudgets };
    for (const effort of ['low', 'medium', 'high'] as const) {
      const value = (budgets as Partial<Record<ReasoningEffort, unknown>>)[effort];
      if (isThinkingBudget(value)) out.thinkingBudgets[effort] = value;
    }
  }
  return out;
}

export interface SettingsState {
  settings: Settings;
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
      set({ settings: { ...defaultSettings, ...soundReasoning(saved) } });
    },
    update(patch) {
      set((state) => ({ settings: { ...state.settings, ...patch } }));
    },
    takeStored(settings) {
      set({ settings });
    },
  }));
}
