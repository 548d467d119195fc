/**
 * Resolves in a new task, so that whatever the event loop has waiting (a frame to paint, a click) runs
 * first: an `await` alone resumes in a microtask, before the page can paint. A message on a
 * `MessageChannel` (a task without the 4 ms clamp of nested timers; Node and workers have it too), else a
 * timer. Not `scheduler.yield()`: Chromium runs its continuations ahead of the next frame, and in the
 * benchmark's traces a fast stream's reading then still kept the page from painting for 70 ms. The
 * channel is closed at once: an open one would keep a Node process alive.
 */
export function yieldToEventLoop(): Promise<void> {
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
