import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Protocol, ToolDefinition } from '../core/index.ts';

export interface Settings {
  /** Empty: the same-origin `/v1` (the simulator, or the dev server's proxy to a real gateway). */
  baseUrl: string;
  apiKey: string;
  /** Keep the key in this browser (IndexedDB); otherwise it lives in this tab's sessionStorage only. */
  rememberKey: boolean;
  protocol: Protocol;
  model: string;
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
  baseUrl: '',
  apiKey: '',
  rememberKey: false,
  protocol: 'chat',
  model: 'sim-echo',
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

export interface SettingsState {
  settings: Settings;
  hydrate(settings: Partial<Settings>): void;
  update(patch: Partial<Settings>): void;
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
  }));
}
