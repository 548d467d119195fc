/**
 * Who reads an answer the server runs, among this browser's tabs: the tab that started it holds its lock
 * while it reads it; another tab that finds it streaming waits for the lock, so that one tab of a browser
 * reads each answer, and another takes over if that tab goes away.
 */
export interface AnswerLocks {
  /** Holds the lock `name` until `until` settles. */
  hold(name: string, until: Promise<void>): void;
  /** Runs `task` once nobody holds `name`, holding it meanwhile. */
  whenFree(name: string, task: () => Promise<void>): void;
}

export const answerLockName = (attemptId: string) => `hopbase-answer:${attemptId}`;

/** The browser's Web Locks: shared by the tabs of one origin, released when a tab goes away. */
export function webLocks(locks: LockManager): AnswerLocks {
  return {
    hold: (name, until) => void locks.request(name, () => until.catch(() => {})),
    whenFree: (name, task) => void locks.request(name, () => task().catch(() => {})).catch(() => {}),
  };
}

/** Locks within one page (where the browser has none, and in tests): each name a queue of tasks. */
export function pageLocks(): AnswerLocks {
  const queues = new Map<string, Promise<void>>();
  const enqueue = (name: string, task: () => Promise<void>) => {
    const run = (queues.get(name) ?? Promise.resolve()).then(() => task().catch(() => {}));
    queues.set(name, run);
    void run.then(() => {
      if (queues.get(name) === run) queues.delete(name);
    });
  };
  return { hold: (name, until) => enqueue(name, () => until), whenFree: enqueue };
}
