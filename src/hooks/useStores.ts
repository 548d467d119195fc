import { useStore } from 'zustand';
import type { PartLoads } from '../state/domain/partLoads.ts';
import type { AnswersState } from '../state/stores/answers.ts';
import type { CompareState } from '../state/stores/compareStore.ts';
import type { ConversationState } from '../state/stores/conversationStore.ts';
import type { SettingsState } from '../state/stores/settingsStore.ts';
import type { StorageStatus } from '../state/stores/storageStatus.ts';
import type { TeamState } from '../state/stores/teamStore.ts';
import { useServices } from './appContext.tsx';

/** A slice of this app's conversations; the component re-renders when the slice changes. */
export function useConversations<T>(selector: (state: ConversationState) => T): T {
  return useStore(useServices().stores.conversations, selector);
}

export function useSettings<T>(selector: (state: SettingsState) => T): T {
  return useStore(useServices().stores.settings, selector);
}

/** A slice of the answers in flight (streaming, or waiting to try again). */
export function useAnswers<T>(selector: (state: AnswersState) => T): T {
  return useStore(useServices().stores.answers, selector);
}

export function useStorageStatus<T>(selector: (state: StorageStatus) => T): T {
  return useStore(useServices().stores.storage, selector);
}

/** Recordings kept apart that were asked for, and how reading them goes. */
export function useRecordingLoads<T>(selector: (state: PartLoads) => T): T {
  return useStore(useServices().stores.recordings, selector);
}

/** Request bodies kept apart that were asked for, and how reading them goes. */
export function useBodyLoads<T>(selector: (state: PartLoads) => T): T {
  return useStore(useServices().stores.bodies, selector);
}

/** Team mode: who is signed in, and how this page stands with the server. */
export function useTeam<T>(selector: (state: TeamState) => T): T {
  return useStore(useServices().stores.team, selector);
}

/** The comparison's columns and latest round. */
export function useCompare<T>(selector: (state: CompareState) => T): T {
  return useStore(useServices().stores.compare, selector);
}
