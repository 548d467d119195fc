import { describe, expect, it } from 'vitest';
import { createSettingsStore, defaultSettings, type Settings } from './settingsStore.ts';

describe('settingsStore: reasoning', () => {
  it('starts with reasoning off and the default thinking budgets', () => {
    expect(createSettingsStore().getState().settings).toMatchObject({
      reasoning: 'off',
      thinkingBudgets: { low: 2048, medium: 8192, high: 16384 },
    });
  });

  it('loads settings saved before reasoning existed with the defaults', () => {
    const store = createSettingsStore();
    const { reasoning: _r, thinkingBudgets: _b, ...older } = defaultSettings;
    store.getState().hydrate({ ...older, model: 'sim-tools' });
    expect(store.getState().settings).toMatchObject({ model: 'sim-tools', reasoning: 'off' });
    expect(store.getState().settings.thinkingBudgets).toEqual(defaultSettings.thinkingBudgets);
  });

  it('keeps what is sound and puts defaults where a saved value is not', () => {
    const store = createSettingsStore();
    store.getState().hydrate({
      reasoning: 'extreme',
      thinkingBudgets: { low: 512, medium: 6000, high: 'lots' },
    } as unknown as Partial<Settings>);
    expect(store.getState().settings.reasoning).toBe('off');
    expect(store.getState().settings.thinkingBudgets).toEqual({ low: 2048, medium: 6000, high: 16384 });
    store.getState().hydrate({ reasoning: 'medium', thinkingBudgets: null } as unknown as Partial<Settings>);
    expect(store.getState().settings.reasoning).toBe('medium');
    expect(store.getState().settings.thinkingBudgets).toEqual(defaultSettings.thinkingBudgets);
  });
});
