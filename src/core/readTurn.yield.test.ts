/**
 * `readTurn` hands the thread back while it reads a fast stream: once when the first output arrives, then
 * whenever it has worked half a frame since it last did, never per event; what it read so far goes to
 * `onUpdate` first, so a page can paint it. The clock and the yield are injected: nothing here depends on
 * how fast the machine is.
 */
import { describe, expect, it } from 'vitest';
import { readTurn } from './readTurn.ts';
import { yieldToEventLoop } from './yieldToEventLoop.ts';

const encoder = new TextEncoder();

const chatText = (text: string) =>
  `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const chatDone = 'data: [DONE]\n\n';

/** Every chunk waiting at once, as when the network delivered faster than the page reads. */
function waitingBody(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

/** A clock that moves only when told: `tick` ms at every reading. */
function steppingClock(tick: number) {
  let t = 0;
  return () => {
    t += tick;
    return t;
  };
}

/** A yield that records what `onUpdate` had last been given when it was called. */
function recordingYield(updates: string[]) {
  const seen: string[] = [];
  return {
    seen,
    yieldToEventLoop: async () => {
      seen.push(updates.at(-1) ?? '');
    },
  };
}

describe('readTurn yields to the event loop', () => {
  it('once when the first output arrives, after handing it to onUpdate, and not again on a still clock', async () => {
    const updates: string[] = [];
    const yields = recordingYield(updates);
    const turn = await readTurn(
      'chat',
      waitingBody([chatText('Hel'), chatText('lo'), chatText('!'), chatDone]),
      {
        now: () => 0,
        onUpdate: (t) => updates.push(t.text),
        yieldToEventLoop: yields.yieldToEventLoop,
      },
    );
    expect(turn.status).toBe('complete');
    expect(turn.text).toBe('Hello!');
    expect(yields.seen).toEqual(['Hel']);
  });

  it('every 8 ms of work, counted per chunk, not per event', async () => {
    const updates: string[] = [];
    const yields = recordingYield(updates);
    // 12 chunks of 5 events each, all waiting; reading each one takes 3 ms.
    const chunks = Array.from({ length: 12 }, (_, c) =>
      Array.from({ length: 5 }, (_, e) => chatText(String.fromCharCode(97 + ((c * 5 + e) % 26)))).join(''),
    );
    let clock = 0;
    const turn = await readTurn('chat', waitingBody([...chunks, chatDone]), {
      now: () => clock,
      onChunk: () => {
        clock += 3;
      },
      onUpdate: (t) => updates.push(t.text),
      yieldToEventLoop: yields.yieldToEventLoop,
    });
    expect(turn.text).toHaveLength(60);
    // The first output, then about every third chunk: far fewer than the 60 events.
    expect(yields.seen.length).toBeGreaterThan(2);
    expect(yields.seen.length).toBeLessThan(12);
    // Each yield came after onUpdate had the text read so far, and the text only grew.
    for (let i = 1; i < yields.seen.length; i++)
      expect(yields.seen[i]!.length).toBeGreaterThan(yields.seen[i - 1]!.length);
  });

  it('as often as the caller’s work slice says', async () => {
    const yieldsWith = async (workSliceMs?: number) => {
      const yields = recordingYield([]);
      let clock = 0;
      const chunks = Array.from({ length: 12 }, (_, c) => chatText(String(c)));
      await readTurn('chat', waitingBody([...chunks, chatDone]), {
        now: () => clock,
        onChunk: () => {
          clock += 3;
        },
        yieldToEventLoop: yields.yieldToEventLoop,
        ...(workSliceMs !== undefined && { workSliceMs }),
      });
      return yields.seen.length;
    };
    const byDefault = await yieldsWith();
    // A slice shorter than one chunk's work: a yield after every chunk.
    expect(await yieldsWith(1)).toBeGreaterThanOrEqual(11);
    // Without onUpdate nobody is shown the first output: no yield for it either.
    expect(await yieldsWith(1000)).toBe(0);
    expect(byDefault).toBeGreaterThan(1);
    expect(byDefault).toBeLessThan(12);
  });

  it('not at a model’s pace: a read that waited for the network starts the work slice again', async () => {
    const updates: string[] = [];
    const yields = recordingYield(updates);
    let clock = 0;
    const chunks = Array.from({ length: 20 }, (_, i) => chatText(`word ${i} `));
    // Each read waits 20 ms for the network; reading a chunk then takes 3 ms.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const chunk = chunks.shift();
          clock += 20;
          if (chunk === undefined) {
            controller.enqueue(encoder.encode(chatDone));
            controller.close();
          } else controller.enqueue(encoder.encode(chunk));
        },
      },
      { highWaterMark: 0 },
    );
    const turn = await readTurn('chat', body, {
      now: () => clock,
      onChunk: () => {
        clock += 3;
      },
      onUpdate: (t) => updates.push(t.text),
      yieldToEventLoop: yields.yieldToEventLoop,
    });
    expect(turn.status).toBe('complete');
    // Only the first output yields; 20 chunks and 460 ms of wall time never add up to a work slice.
    expect(yields.seen).toEqual(['word 0 ']);
  });

  it('reads the clock once per short chunk when no callback needs more, twice when one does', async () => {
    const chunks = Array.from({ length: 100 }, (_, i) => chatText(`w${i} `));
    let quietReadings = 0;
    const quiet = await readTurn('chat', waitingBody([...chunks, chatDone]), {
      now: () => ++quietReadings * 0.01,
      yieldToEventLoop: async () => {},
    });
    let recordedReadings = 0;
    const recorded = await readTurn('chat', waitingBody([...chunks, chatDone]), {
      now: () => ++recordedReadings * 0.01,
      onChunk: () => {},
      yieldToEventLoop: async () => {},
    });
    expect(quiet).toEqual(recorded);
    expect(quietReadings).toBeLessThan(110);
    expect(recordedReadings).toBeGreaterThan(200);
  });

  it('every 8 ms of work on short chunks read without callbacks, the clock read as they arrive', async () => {
    const updates: string[] = [];
    const yields = recordingYield(updates);
    // 60 one-event chunks, all waiting; the clock moves half a millisecond between two arrivals.
    const chunks = Array.from({ length: 60 }, (_, i) => chatText(String.fromCharCode(97 + (i % 26))));
    const turn = await readTurn('chat', waitingBody([...chunks, chatDone]), {
      now: steppingClock(0.5),
      onUpdate: (t) => updates.push(t.text),
      yieldToEventLoop: yields.yieldToEventLoop,
    });
    expect(turn.text).toHaveLength(60);
    // The first output, then every 16 chunks or so.
    expect(yields.seen.length).toBeGreaterThan(2);
    expect(yields.seen.length).toBeLessThan(8);
  });

  it('within one large chunk, between slices, with the part read so far shown first', async () => {
    const updates: string[] = [];
    const yields = recordingYield(updates);
    // One read of about 400 k characters: a network read holding thousands of events.
    const events = Array.from({ length: 6000 }, (_, i) => chatText(`${i % 10}`.repeat(10)));
    const body = waitingBody([events.join('') + chatDone]);
    const turn = await readTurn('chat', body, {
      now: steppingClock(10),
      onUpdate: (t) => updates.push(t.text),
      yieldToEventLoop: yields.yieldToEventLoop,
    });
    expect(turn.status).toBe('complete');
    expect(turn.text).toHaveLength(60_000);
    expect(yields.seen.length).toBeGreaterThan(3);
    const lengths = yields.seen.map((text) => text.length);
    expect(lengths.every((n, i) => n > 0 && n < 60_000 && (i === 0 || n > lengths[i - 1]!))).toBe(true);
    // The first output goes out after the first few kilobytes of the read, not after all of it.
    expect(lengths[0]).toBeLessThan(1_000);
  });

  it('gives the same turn as reading without yielding', async () => {
    const events = Array.from({ length: 3000 }, (_, i) => chatText(`delta ${i} `));
    const chunks = [events.slice(0, 1000).join(''), events.slice(1000).join(''), chatDone];
    const noYield = await readTurn('chat', waitingBody(chunks), { now: () => 0 });
    let count = 0;
    const yielding = await readTurn('chat', waitingBody(chunks), {
      now: steppingClock(50),
      yieldToEventLoop: async () => {
        count++;
      },
    });
    expect(count).toBeGreaterThan(1);
    expect(yielding).toEqual(noYield);
  });

  it('stops reading a large chunk when the answer is stopped during a yield', async () => {
    const controller = new AbortController();
    const events = Array.from({ length: 6000 }, () => chatText('x'.repeat(10)));
    const turn = await readTurn('chat', waitingBody([events.join('') + chatDone]), {
      signal: controller.signal,
      now: steppingClock(10),
      yieldToEventLoop: async () => controller.abort(),
    });
    expect(turn.status).toBe('aborted');
    // What was read before the stop is kept; the rest of the chunk was not read.
    expect(turn.text.length).toBeGreaterThan(0);
    expect(turn.text.length).toBeLessThan(60_000);
  });

  it('by default in a new task, not in a microtask', async () => {
    let resolved = false;
    const done = yieldToEventLoop().then(() => {
      resolved = true;
    });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(resolved).toBe(false);
    await done;
    expect(resolved).toBe(true);
  });
});
