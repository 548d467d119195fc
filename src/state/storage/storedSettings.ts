import { sameContent } from '../domain/merge.ts';
import { defaultSettings, type Settings } from '../stores/settingsStore.ts';

/**
 * Settings as they persist: one record of every field but the API key, which is kept only when the person
 * chose to remember it; otherwise it lives in this tab's `sessionStorage`, surviving a reload of the tab
 * and no more. A tab writes only the fields it changed, on top of what is stored, so that neither tab
 * undoes the other's changes.
 */

const sessionKeyName = 'hopbase-chat.api-key';

/** Everything that persists, minus the API key unless the person chose to keep it here. */
export function storableSettings(settings: Settings): Settings {
  return settings.rememberKey ? settings : { ...settings, apiKey: '' };
}

/** The settings a stored record's fields stand for, defaults filled in, in stored form. */
export function asStoredSettings(fields: Partial<Settings>): Settings {
  return storableSettings({ ...defaultSettings, ...fields });
}

/** The settings fields where `settings` differs from `base`. */
export function changedSettings(settings: Settings, base: Settings): Partial<Settings> {
  const changed: Record<string, unknown> = {};
  const mine = storableSettings(settings) as unknown as Record<string, unknown>;
  const theirs = base as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)]))
    if (!sameContent(mine[key], theirs[key])) changed[key] = mine[key];
  return changed as Partial<Settings>;
}

/**
 * The settings once stored ones are taken in (`before`: what was stored until now; `written`: the fields
 * this tab just wrote): every field this tab has not changed since follows the stored one. The API key
 * stays this tab's own unless it is remembered. Null: nothing to change.
 */
export function followingStored(
  current: Settings,
  before: Settings,
  stored: Settings,
  written: Partial<Settings>,
): Settings | null {
  const was = before as unknown as Record<string, unknown>;
  const mine = storableSettings(current) as unknown as Record<string, unknown>;
  const theirs = stored as unknown as Record<string, unknown>;
  const ours = written as Record<string, unknown>;
  const next: Record<string, unknown> = { ...current };
  let differs = false;
  for (const key of new Set([...Object.keys(theirs), ...Object.keys(was)])) {
    if (theirs[key] === undefined || (key === 'apiKey' && !stored.rememberKey)) continue;
    const untouched = sameContent(mine[key], was[key]) || (key in ours && sameContent(mine[key], ours[key]));
    if (untouched && !sameContent(next[key], theirs[key])) {
      next[key] = theirs[key];
      differs = true;
    }
  }
  return differs ? (next as unknown as Settings) : null;
}

export function readSessionKey(): string {
  try {
    return globalThis.sessionStorage?.getItem(sessionKeyName) ?? '';
  } catch {
    return '';
  }
}

/** Keeps the API key for this tab's reloads, unless it is remembered in the database (or empty). */
export function keepSessionKey(settings: Settings): void {
  try {
    const session = globalThis.sessionStorage;
    if (settings.rememberKey || !settings.apiKey) session?.removeItem(sessionKeyName);
    else session?.setItem(sessionKeyName, settings.apiKey);
  } catch {
    // sessionStorage disabled: the key lives in memory for this page only.
  }
}
