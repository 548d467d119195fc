/** The `scheduler` of browsers that have one (Chromium 129 and later); absent in Node and elsewhere. */
interface YieldingScheduler {
  yield(): Promise<void>;
}

/**
 * Resolves in a new task, so that whatever the event loop has waiting (a frame to paint, a click) runs
 * first: an `await` alone resumes in a microtask, before the page can paint. `scheduler.yield()` where the
 * browser has it (it resumes ahead of other waiting tasks), else a message on a `MessageChannel` (a task
 * without the 4 ms clamp of nested timers; Node and workers have it too), else a timer. The channel is
 * closed at once: an open one would keep a Node process alive.
 */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
