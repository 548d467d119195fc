/**
 * Resolves in a new task, so that whatever the event loop has waiting (a frame to paint, a click, I/O)
 * runs first: an `await` alone resumes in a microtask, before the page can paint. In a page or a worker a
 * message on a `MessageChannel` (a task without the 4 ms clamp of nested timers; each channel closed once
 * used), in Node `setImmediate` (ten times cheaper), else
 * a timer. Not `scheduler.yield()`: Chromium runs its continuations ahead of the next frame, and in the
 * benchmark's traces a fast stream's reading then still kept the page from painting for 70 ms.
 */
export function yieldToEventLoop(): Promise<void> {
  const { setImmediate } = globalThis as { setImmediate?: (run: () => void) => unknown };
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
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
