import { createStore, type StoreApi } from 'zustand/vanilla';
import { idRecord, withIds } from './idRecord.ts';

/**
 * The parts of an attempt its conversation's record leaves out (its recording, its request body), asked
 * for when someone needs them: the inspector, an export, a Retry. Persistence reads each from the database,
 * or from the team server when this browser lacks it (`partReads.ts`), and puts it into its attempt.
 */

/** Where a part asked for stands: being read, or why it is not there. */
export type PartLoad = 'loading' | 'missing' | 'unreadable' | 'failed';

/** Parts kept apart that someone asked for, by attempt id, until they are in memory. */
export interface PartLoads {
  loads: Readonly<Record<string, PartLoad>>;
  /** Asks for the part of an attempt (again, after a failure); nothing while it is being read. */
  want(attemptId: string): void;
  /** Reading `attemptIds` is over: those in `problems` could not be had, the others are in memory now. */
  settle(attemptIds: readonly string[], problems: ReadonlyMap<string, Exclude<PartLoad, 'loading'>>): void;
}

export type PartLoadsStore = StoreApi<PartLoads>;

export function createPartLoadsStore(): PartLoadsStore {
  return createStore<PartLoads>()((set, get) => ({
    loads: idRecord(),
    want(attemptId) {
      if (get().loads[attemptId] === 'loading') return;
      set((s) => ({ loads: withIds(s.loads, [[attemptId, 'loading']]) }));
    },
    settle(attemptIds, problems) {
      set((s) => {
        const settled = attemptIds.map((id) => [id, problems.get(id)] as const);
        return {
          loads: withIds(
            s.loads,
            settled.filter((entry): entry is [string, Exclude<PartLoad, 'loading'>] => !!entry[1]),
            settled.filter(([, problem]) => !problem).map(([id]) => id),
          ),
        };
      });
    },
  }));
}

/** Parts asked for that could not be brought into memory, by attempt id: why not. */
export type PartProblems = Readonly<Record<string, Exclude<PartLoad, 'loading'>>>;

/**
 * Asks for the parts of `attemptIds` and resolves once none of them is being read any more, with those
 * that could not be: an export waits for its recordings rather than writing a file without them, a Retry
 * for the body it sends again.
 */
export function loadParts(store: PartLoadsStore, attemptIds: readonly string[]): Promise<PartProblems> {
  for (const id of attemptIds) store.getState().want(id);
  return new Promise((resolve) => {
    const settled = ({ loads }: PartLoads): boolean => {
      if (attemptIds.some((id) => loads[id] === 'loading')) return false;
      const problems: Record<string, Exclude<PartLoad, 'loading'>> = idRecord();
      for (const id of attemptIds) {
        const load = loads[id];
        if (load && load !== 'loading') problems[id] = load;
      }
      resolve(problems);
      return true;
    };
    if (settled(store.getState())) return;
    const stop = store.subscribe((state) => {
      if (settled(state)) stop();
    });
  });
}
