import type { ConversationStore } from '../conversationStore.ts';
import { mergeConversation, withOwnChoices } from '../merge.ts';
import type { Settings, SettingsStore } from '../settingsStore.ts';
import type { Attempt, Conversation } from '../types.ts';
import type { KnownState } from './knownState.ts';
import { attemptsOf } from './storedConversation.ts';
import { followingStored } from './storedSettings.ts';

/**
 * Puts stored copies into the store (after this tab's write joined them with another tab's, or when
 * another tab stored them). Where this tab changed a conversation since `from` (the copy the stored one
 * was made from), the change is joined in and written by the next flush; either way this tab keeps the
 * versions it chose (`withOwnChoices`).
 */
export function applyStoredConversations(
  conversationStore: ConversationStore,
  known: KnownState,
  upserts: Conversation[],
  removals: string[],
  from: Map<string, Conversation | null>,
): void {
  if (!upserts.length && !removals.length) return;
  /** Recordings that came from the database: not this tab's to write again. */
  const fromDatabase: Attempt[] = [];
  conversationStore.setState((state) => {
    const conversations = { ...state.conversations };
    let order = state.order;
    for (const stored of upserts) {
      const current = conversations[stored.id];
      const previous = from.get(stored.id) ?? null;
      // Deleted here meanwhile: the deletion is written next.
      if (!current && previous) continue;
      const own = new Set(current ? attemptsOf(current).map((a) => a.trace) : []);
      for (const attempt of attemptsOf(stored)) if (!own.has(attempt.trace)) fromDatabase.push(attempt);
      if (!current) order = [stored.id, ...order];
      if (current && current !== previous) {
        conversations[stored.id] = mergeConversation(current, stored, previous);
        continue;
      }
      const shown = current ? withOwnChoices(stored, current) : stored;
      conversations[stored.id] = shown;
      // Only this tab's choices differ from the record: not a change to write back, or two tabs that
      // chose differently would overwrite each other's choice forever.
      const base = known.bases.get(stored.id);
      if (shown !== stored && base?.conversation === stored)
        known.bases.set(stored.id, { ...base, conversation: shown });
    }
    for (const id of removals) delete conversations[id];
    if (removals.length) order = order.filter((id) => conversations[id]);
    const activeId =
      state.activeId !== null && !conversations[state.activeId] ? (order[0] ?? null) : state.activeId;
    return { conversations, order, activeId };
  });
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
  if (next) settingsStore.setState({ settings: next });
}
