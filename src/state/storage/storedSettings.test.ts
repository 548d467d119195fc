import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../stores/settingsStore.ts';
import { changedSettings, followingStored } from './storedSettings.ts';

const base = { ...defaultSettings, apiKey: '' };

describe('changedSettings', () => {
  it('lists only the fields that differ from what is stored', () => {
    expect(changedSettings({ ...base, model: 'other' }, base)).toEqual({ model: 'other' });
  });
  it('leaves out an API key that is not remembered', () => {
    expect(changedSettings({ ...base, apiKey: 'sk-secret' }, base)).toEqual({});
  });
});

describe('followingStored', () => {
  it('takes a field another tab changed where this tab left it as it was', () => {
    expect(followingStored(base, base, { ...base, model: 'theirs' }, {})?.model).toBe('theirs');
  });
  it('keeps a field this tab changed since', () => {
    expect(followingStored({ ...base, model: 'mine' }, base, { ...base, model: 'theirs' }, {})).toBeNull();
  });
  it('takes the stored form of a field this tab just wrote', () => {
    const mine = { ...base, model: 'mine' };
    expect(followingStored(mine, base, { ...base, model: 'stored' }, { model: 'mine' })?.model).toBe(
      'stored',
    );
  });
  it("keeps this tab's API key unless it is remembered", () => {
    const current = { ...base, apiKey: 'sk-mine' };
    expect(followingStored(current, base, { ...base, apiKey: 'sk-theirs' }, {})).toBeNull();
  });
});
