import { createStore, type StoreApi } from 'zustand/vanilla';

/** The last failure to save (quota exceeded, storage disabled): the app tells the person; null once a save works. */
export interface StorageStatus {
  error: string | null;
}

export type StorageStatusStore = StoreApi<StorageStatus>;

export function createStorageStatusStore(): StorageStatusStore {
  return createStore<StorageStatus>()(() => ({ error: null }));
}
