import { describe, expect, it, vi } from 'vitest';
import { relayHeader, writeRelayEvent } from '../../core/index.ts';
import { fakeRelay } from '../../testing/fakeRelay.ts';
import { type NetworkEvents, PieceTimes, type RelayAccess, relayedBody } from './relayedBody.ts';

const body = 'event: a\ndata: {"text":"héllo wörld, 你好"}\n\n: hopbase-keepalive\n\nevent: b\ndata: {}\n\n';
const noWait: RelayAccess['wait'] = async () => {};

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function link() {
  return { reconnecting: vi.fn(), resumed: vi.fn() };
}

/** The body read through a fake relay: the start's response first (as the page gets it from its POST). */
async function relayed(
  relay: ReturnType<typeof fakeRelay>,
  on = link(),
  signal = new AbortController().signal,
) {
  const first = await relay.fetch('/v1/messages', { method: 'POST' });
  return readAll(relayedBody(first, 'att_1', { fetch: relay.fetch, wait: noWait }, signal, on));
}

describe('relayedBody', () => {
  it('joins the pieces into the gateway body, byte for byte, and ends with the answer', async () => {
    const relay = fakeRelay(body, { pieces: 9 });
    expect(await relayed(relay)).toBe(body);
    expect(relay.requests).toHaveLength(1);
  });

  it.each(Array.from({ length: 10 }, (_, k) => k))(
    'a connection cut after piece %i: reconnects from there, nothing read twice or missed',
    async (after) => {
      const relay = fakeRelay(body, { pieces: 9, breaks: [{ after, how: 'network' }] });
      const on = link();
      expect(await relayed(relay, on)).toBe(body);
      expect(relay.requests.map((r) => [r.method, r.url, r.lastEventId])).toEqual([
        ['POST', '/v1/messages', null],
        ['GET', '/api/answers/att_1/events', String(after)],
      ]);
      expect(on.reconnecting).toHaveBeenCalledTimes(1);
      expect(on.resumed).toHaveBeenCalledTimes(1);
    },
  );

  it('a connection that closes before the end reconnects as a cut one does, as often as it takes', async () => {
    const relay = fakeRelay(body, {
      pieces: 9,
      breaks: [
        { after: 2, how: 'closed' },
        { after: 2, how: 'network' },
        { after: 5, how: 'closed' },
      ],
    });
    expect(await relayed(relay)).toBe(body);
    expect(relay.requests.map((r) => r.lastEventId)).toEqual([null, '2', '2', '5']);
  });

  it('a resumption reads from the first piece', async () => {
    const relay = fakeRelay(body, { pieces: 4 });
    const on = link();
    const stream = relayedBody(
      null,
      'att_1',
      { fetch: relay.fetch, wait: noWait },
      new AbortController().signal,
      on,
    );
    expect(await readAll(stream)).toBe(body);
    expect(relay.requests.map((r) => r.lastEventId)).toEqual(['0']);
    expect(on.reconnecting).not.toHaveBeenCalled();
  });

  it('skips pieces it has already read when the server sends them again', async () => {
    const pieces = [
      writeRelayEvent({ kind: 'piece', id: 1, t: 1, text: 'data: 1\n\n' }),
      writeRelayEvent({ kind: 'piece', id: 2, t: 2, text: 'data: 2\n\n' }),
    ];
    const serve = (text: string) =>
      new Response(text, { headers: { 'content-type': 'text/event-stream', [relayHeader]: '1' } });
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      serve(`${pieces.join('')}${writeRelayEvent({ kind: 'end', id: 3, outcome: 'complete' })}`),
    );
    const stream = relayedBody(
      serve(pieces[0]!),
      'att_1',
      { fetch, wait: noWait },
      new AbortController().signal,
      link(),
    );
    expect(await readAll(stream)).toBe('data: 1\n\ndata: 2\n\n');
  });

  it.each([
    ['cut', "the gateway's answer broke off"],
    ['lost', 'the server stopped while running this answer'],
    ['stopped', 'stopped from another page or device'],
    ['too-large', 'the answer grew past the size the server keeps'],
  ] as const)(
    'an answer that ended %s on the server ends the stream with that error',
    async (outcome, message) => {
      const relay = fakeRelay(body, { pieces: 3, outcome });
      await expect(relayed(relay)).rejects.toThrow(message);
    },
  );

  it('ends with an error when the server no longer has the answer', async () => {
    const relay = fakeRelay(body, { pieces: 5, breaks: [{ after: 2, how: 'network' }], goneFrom: 0 });
    await expect(relayed(relay)).rejects.toThrow('the server no longer has this answer');
  });

  it('keeps trying while the server cannot be reached, and says so once', async () => {
    const relay = fakeRelay(body, { pieces: 5, breaks: [{ after: 1, how: 'network' }] });
    let down = 3;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (String(input).endsWith('/events') && down-- > 0) throw new TypeError('offline');
      return relay.fetch(input, init);
    };
    const on = link();
    const first = await relay.fetch('/v1/messages', { method: 'POST' });
    const stream = relayedBody(first, 'att_1', { fetch, wait: noWait }, new AbortController().signal, on);
    expect(await readAll(stream)).toBe(body);
    expect(on.reconnecting).toHaveBeenCalledTimes(1);
    expect(on.resumed).toHaveBeenCalledTimes(1);
  });

  it('takes the connection for broken when the browser goes offline, and reconnects once it is back', async () => {
    const relay = fakeRelay(body, { pieces: 6, breaks: [{ after: 2, how: 'hangs' }] });
    const listeners = { online: new Set<() => void>(), offline: new Set<() => void>() };
    const network: NetworkEvents = {
      on(event, listener) {
        listeners[event].add(listener);
        return () => listeners[event].delete(listener);
      },
    };
    let offline = true;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (offline && String(input).endsWith('/events')) throw new TypeError('offline');
      return relay.fetch(input, init);
    };
    // Waits that never end on their own: only the browser coming back online goes on.
    const wait: RelayAccess['wait'] = () => new Promise(() => {});
    const on = link();
    const first = await relay.fetch('/v1/messages', { method: 'POST' });
    const reader = relayedBody(
      first,
      'att_1',
      { fetch, wait, network },
      new AbortController().signal,
      on,
    ).getReader();
    const decoder = new TextDecoder();
    let read = '';
    for (let piece = 0; piece < 2; piece++) read += decoder.decode((await reader.read()).value);
    for (const listener of listeners.offline) listener();
    await vi.waitFor(() => expect(on.reconnecting).toHaveBeenCalled());
    offline = false;
    for (const listener of [...listeners.online]) listener();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      read += decoder.decode(chunk.value);
    expect(read).toBe(body);
    expect(relay.requests.at(-1)?.lastEventId).toBe('2');
    expect(listeners.offline.size + listeners.online.size).toBe(0);
  });

  it('stops reconnecting when the answer is stopped', async () => {
    const relay = fakeRelay(body, { pieces: 5, breaks: [{ after: 1, how: 'network' }] });
    const controller = new AbortController();
    const wait: RelayAccess['wait'] = async () => controller.abort('stopped');
    const first = await relay.fetch('/v1/messages', { method: 'POST' });
    const stream = relayedBody(first, 'att_1', { fetch: relay.fetch, wait }, controller.signal, link());
    await expect(readAll(stream)).rejects.toBe('stopped');
    expect(relay.requests).toHaveLength(1);
  });
});

describe('PieceTimes', () => {
  it("names the server's time of the piece that holds the last byte read", () => {
    const times = new PieceTimes();
    expect(times.at(5)).toBeUndefined();
    times.note(10, 40);
    times.note(5, 70);
    times.note(20, 95);
    expect([1, 10, 11, 15, 16, 35].map((received) => times.at(received))).toEqual([40, 40, 70, 70, 95, 95]);
    expect(times.at(0)).toBeUndefined();
  });
});
