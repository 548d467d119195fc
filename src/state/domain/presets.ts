import type { Preset } from './types.ts';

/**
 * The list of presets as a person keeps it: by name (saving under a name already there replaces that
 * preset, keeping its place and id), newest last.
 */

/** A name as it is compared: spaces around it and letter case do not make another preset. */
function nameKey(name: string): string {
  return name.trim().toLocaleLowerCase();
}

/** `presets` with `preset` saved: in the place of the one of the same name, or added at the end. */
export function withPreset(presets: readonly Preset[], preset: Preset): Preset[] {
  const i = presets.findIndex((p) => nameKey(p.name) === nameKey(preset.name));
  if (i < 0) return [...presets, preset];
  const replaced = { ...preset, id: presets[i]!.id };
  return presets.map((p, j) => (j === i ? replaced : p));
}

export function withoutPreset(presets: readonly Preset[], id: string): Preset[] {
  return presets.filter((p) => p.id !== id);
}

/**
 * A list from a backup joined with the one here, its entries told apart by `key`: the file's copy of each
 * entry it holds, those here it lacks kept, so restoring twice is restoring once and loses nothing made
 * since. Presets by id, the tool library by name.
 */
export function joinRestored<T>(here: readonly T[], restored: readonly T[], key: (item: T) => string): T[] {
  const fromFile = new Map(restored.map((item) => [key(item), item]));
  const kept = here.map((item) => fromFile.get(key(item)) ?? item);
  const known = new Set(here.map(key));
  return [...kept, ...restored.filter((item) => !known.has(key(item)))];
}
