import { createPartLoadsStore, type PartLoadsStore } from '../domain/partLoads.ts';
import { type AnswersStore, createAnswersStore } from './answers.ts';
import { type CompareStore, createCompareStore } from './compareStore.ts';
import { type ConversationStore, createConversationStore } from './conversationStore.ts';
import { createSettingsStore, type SettingsStore } from './settingsStore.ts';
import { createStorageStatusStore, type StorageStatusStore } from './storageStatus.ts';
import { createTeamStore, type TeamStore } from './teamStore.ts';

/** Every store of one running app, made together at startup (or per test) and handed down, never imported. */
export interface AppStores {
  conversations: ConversationStore;
  settings: SettingsStore;
  /** Answers in flight, by message id. */
  answers: AnswersStore;
  storage: StorageStatusStore;
  /** Recordings kept apart that the inspector or an export asked for. */
  recordings: PartLoadsStore;
  /** Request bodies kept apart that the inspector or a Retry asked for (team mode: from another device). */
  bodies: PartLoadsStore;
  /** Team mode: who is signed in, and how this page stands with the server. */
  team: TeamStore;
  /** The comparison's columns and latest round (this page only). */
  compare: CompareStore;
}

export function createAppStores(): AppStores {
  return {
    conversations: createConversationStore(),
    settings: createSettingsStore(),
    answers: createAnswersStore(),
    storage: createStorageStatusStore(),
    recordings: createPartLoadsStore(),
    bodies: createPartLoadsStore(),
    team: createTeamStore(),
    compare: createCompareStore(),
  };
}
