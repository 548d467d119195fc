import { createStore, type StoreApi } from 'zustand/vanilla';
import type { WatchState } from '../core/index.ts';

/** Runtime state of answers being streamed right now: never persisted (a reload ends every stream). */
export interface LiveStream {
  conversationId: string;
  attemptId: string;
  watch: WatchState;
  /** Set while an automatic retry waits: when (epoch ms) the next attempt starts. */
  retryAt: number | null;
  /** With `retryAt`: which attempt of this series comes next, and how many the series allows (2 of 3). */
  retryAttempt?: number;
  retryOf?: number;
}

export interface LiveState {
  /** Keyed by assistant message id. */
  streams: Record<string, LiveStream>;
  put(messageId: string, stream: LiveStream): void;
  remove(messageId: string): void;
}

export type LiveStore = StoreApi<LiveState>;

export function createLiveStore(): LiveStore {
  return createStore<LiveState>()((set) => ({
    streams: {},
    put(messageId, stream) {
      set((state) => ({ streams: { ...state.streams, [messageId]: stream } }));
    },
    remove(messageId) {
      set((state) => {
        const { [messageId]: _gone, ...streams } = state.streams;
        return { streams };
      });
    },
  }));
}
