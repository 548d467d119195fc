import { type ConversationStore, createConversationStore } from './conversationStore.ts';
import { createLiveStore, type LiveStore } from './liveStore.ts';
import { createRecordingLoadsStore, type RecordingLoadsStore } from './recordings.ts';
import { createSettingsStore, type SettingsStore } from './settingsStore.ts';
import { createStorageStatusStore, type StorageStatusStore } from './storageStatus.ts';

/** Every store of one running app, made together at startup (or per test) and handed down, never imported. */
export interface AppStores {
  conversations: ConversationStore;
  settings: SettingsStore;
  live: LiveStore;
  storage: StorageStatusStore;
  /** Recordings kept apart in the database that the inspector asked for. */
  recordings: RecordingLoadsStore;
}

export function createAppStores(): AppStores {
  return {
    conversations: createConversationStore(),
    settings: createSettingsStore(),
    live: createLiveStore(),
    storage: createStorageStatusStore(),
    recordings: createRecordingLoadsStore(),
  };
}
