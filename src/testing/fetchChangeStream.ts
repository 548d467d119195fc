import { createParser } from 'eventsource-parser';
import { changeStreamPath, type OpenChangeStream, readStreamEvent } from '../state/team/changeStream.ts';

/**
 * The team server's change stream read over `fetch`, for tests and benchmarks in Node (which has no
 * EventSource): the same events, read by the same `readStreamEvent`, as the page's EventSource gives.
 */
export function fetchChangeStream(fetchFn: typeof fetch): OpenChangeStream {
  return (since, listener) => {
    const controller = new AbortController();
    void (async () => {
      try {
        const response = await fetchFn(changeStreamPath(since), { signal: controller.signal });
        if (!response.ok || !response.body) return listener({ kind: 'closed' });
        const parser = createParser({
          onEvent: ({ event, data, id }) => {
            const read = readStreamEvent(event ?? 'message', data, id ?? '');
            if (read) listener(read);
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value);
      } catch {
        if (!controller.signal.aborted) listener({ kind: 'interrupted' });
      }
    })();
    return { close: () => controller.abort() };
  };
}
