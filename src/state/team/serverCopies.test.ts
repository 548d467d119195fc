import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../stores/settingsStore.ts';
import { changedFields, settingsDocument, settingsWithServer } from './serverCopies.ts';

const mine = { ...defaultSettings, apiKey: 'sk-mine', rememberKey: true, systemPrompt: 'Be brief.' };

describe('settings on the server', () => {
  it('never hold this browser’s key, nor its choice to keep it', () => {
    expect(settingsDocument(mine)).not.toHaveProperty('apiKey');
    expect(settingsDocument(mine)).not.toHaveProperty('rememberKey');
    expect(settingsDocument(mine)).toMatchObject({ systemPrompt: 'Be brief.' });
  });

  it('are taken in field by field, this browser’s own fields and fields of the wrong type left as they are', () => {
    const taken = settingsWithServer(mine, {
      systemPrompt: 'Be thorough.',
      apiKey: 'sk-other',
      temperature: 'hot',
    });
    expect(taken).toMatchObject({
      systemPrompt: 'Be thorough.',
      apiKey: 'sk-mine',
      temperature: mine.temperature,
    });
  });

  it('change nothing (the same object) when the server holds what is here', () => {
    expect(settingsWithServer(mine, settingsDocument(mine))).toBe(mine);
  });

  it('changed here are the fields that differ from the server’s copy, all of them without one', () => {
    expect(changedFields({ a: 1, b: [2] }, { a: 1, b: [3] })).toEqual({ b: [2] });
    expect(changedFields({ a: 1 }, null)).toEqual({ a: 1 });
  });
});
