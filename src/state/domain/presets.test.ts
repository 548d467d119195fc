import { describe, expect, it } from 'vitest';
import { joinRestored, withoutPreset, withPreset } from './presets.ts';
import type { Preset } from './types.ts';

const preset = (id: string, name: string, temperature = 0.5): Preset => ({
  id,
  name,
  createdAt: 1,
  choices: { protocol: 'chat', model: 'sim-echo', reasoning: 'off' },
  systemPrompt: '',
  parameters: { temperature },
});

describe('presets', () => {
  it('adds a new name at the end', () => {
    expect(withPreset([preset('a', 'Terse')], preset('b', 'Poet')).map((p) => p.id)).toEqual(['a', 'b']);
  });

  it('replaces the preset of the same name (case and spaces aside), keeping its place and id', () => {
    const list = [preset('a', 'Terse'), preset('b', 'Poet')];
    const saved = withPreset(list, preset('c', ' terse ', 0.1));
    expect(saved.map((p) => [p.id, p.name, p.parameters.temperature])).toEqual([
      ['a', ' terse ', 0.1],
      ['b', 'Poet', 0.5],
    ]);
  });

  it('deletes by id', () => {
    expect(withoutPreset([preset('a', 'A'), preset('b', 'B')], 'a').map((p) => p.id)).toEqual(['b']);
  });

  it('joins a backup’s presets with those here: the file’s copy by id, the rest kept, twice is once', () => {
    const here = [preset('a', 'Mine', 0.1), preset('b', 'Shared', 0.2)];
    const file = [preset('b', 'Shared', 0.9), preset('c', 'Restored')];
    const once = joinRestored(here, file, (p) => p.id);
    expect(once.map((p) => [p.id, p.parameters.temperature])).toEqual([
      ['a', 0.1],
      ['b', 0.9],
      ['c', 0.5],
    ]);
    expect(joinRestored(once, file, (p) => p.id)).toEqual(once);
  });
});
