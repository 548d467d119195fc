import { describe, expect, it } from 'vitest';
import { readSettingsRecord } from '../formats/records.ts';
import { createSettingsStore, defaultSettings, isThinkingBudget } from './settingsStore.ts';

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

  it('keeps what is sound and puts defaults where a stored value is not, as the record is read', () => {
    const store = createSettingsStore();
    const unsound = readSettingsRecord({
      reasoning: 'extreme',
      thinkingBudgets: { low: 512, medium: 6000, high: 'lots', huge: 99999 },
    });
    // Made sound, not reported: an older version reading a newer one's level, a budget out of range.
    expect(unsound?.wrong).toEqual([]);
    store.getState().hydrate(unsound!.settings);
    expect(store.getState().settings.reasoning).toBe('off');
    expect(store.getState().settings.thinkingBudgets).toEqual({ low: 2048, medium: 6000, high: 16384 });
    const wrongKind = readSettingsRecord({ reasoning: 'medium', thinkingBudgets: null });
    expect(wrongKind?.wrong).toEqual(['thinkingBudgets']);
    store.getState().hydrate(wrongKind!.settings);
    expect(store.getState().settings.reasoning).toBe('medium');
    expect(store.getState().settings.thinkingBudgets).toEqual(defaultSettings.thinkingBudgets);
  });

  it('takes as a thinking budget a whole number of tokens from 1,024', () => {
    expect([1024, 2048, 1e6].every(isThinkingBudget)).toBe(true);
    expect([1023, 1024.5, Number.NaN, Number.POSITIVE_INFINITY, '2048', null].some(isThinkingBudget)).toBe(
      false,
    );
  });
});
