import { mergeConversation, withOwnChoices } from '../domain/merge.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import type { ConversationStore, NewPlacement } from '../stores/conversationStore.ts';
import type { Settings, SettingsStore } from '../stores/settingsStore.ts';
import type { KnownState } from './knownState.ts';
import { attemptsOf } from './storedConversation.ts';
import { followingStored } from './storedSettings.ts';

/**
 * Puts stored copies into the store (after this tab's write joined them with another tab's, or when
 * another tab stored them). Where this tab changed a conversation since `from` (the copy the stored one
 * was made from), the change is joined in and written by the next flush; either way this tab keeps the
 * versions it chose (`withOwnChoices`). Conversations new to the store go where `placement` says.
 */
export function applyStoredConversations(
  conversationStore: ConversationStore,
  known: KnownState,
  upserts: Conversation[],
  removals: string[],
  from: Map<string, Conversation | null>,
  placement: NewPlacement = 'top',
): void {
  if (!upserts.length && !removals.length) return;
  /** Recordings that came from the database: not this tab's to write again. */
  const fromDatabase: Attempt[] = [];
  const current = conversationStore.getState().conversations;
  const taken: Conversation[] = [];
  for (const stored of upserts) {
    const mine = current[stored.id];
    const previous = from.get(stored.id) ?? null;
    // Deleted here meanwhile: the deletion is written next.
    if (!mine && previous) continue;
    const own = new Set(mine ? attemptsOf(mine).map((a) => a.trace) : []);
    for (const attempt of attemptsOf(stored)) if (!own.has(attempt.trace)) fromDatabase.push(attempt);
    if (mine && mine !== previous) {
      // Changed here meanwhile (an answer streaming): joined, and still this tab's choice at each fork it chose.
      taken.push(withOwnChoices(mergeConversation(mine, stored, previous), mine));
      continue;
    }
    const shown = mine ? withOwnChoices(stored, mine) : stored;
    taken.push(shown);
    // Only this tab's choices differ from the record: not a change to write back, or two tabs that
    // chose differently would overwrite each other's choice forever.
    const base = known.bases.get(stored.id);
    if (shown !== stored && base?.conversation === stored)
      known.bases.set(stored.id, { ...base, conversation: shown });
  }
  conversationStore.getState().takeStored(taken, removals, placement);
  const now = Date.now();
  for (const attempt of fromDatabase) known.traceStored(attempt, now);
}

/**
 * Takes in stored settings (`written`: the fields this tab just wrote): every field this tab has not
 * changed since follows the stored one (`followingStored`).
 */
export function applyStoredSettings(
  settingsStore: SettingsStore,
  known: KnownState,
  stored: Settings,
  written: Partial<Settings>,
): void {
  const before = known.settings;
  known.settings = stored;
  const next = followingStored(settingsStore.getState().settings, before, stored, written);
  if (next) settingsStore.getState().takeStored(next);
}
