import { type RelayItem, type RelayOutcome, relayHeader, writeRelayEvent } from '../core/index.ts';

/** How one connection to the fake relay ends: after the item with this id, cut by the network or closed. */
interface RelayBreak {
  after: number;
  /** `hangs`: no more bytes, and no end either (a network gone without a word). */
  how: 'network' | 'closed' | 'hangs';
}

interface FakeRelayOptions {
  /** Pieces the body is split into (by characters). */
  pieces: number;
  outcome?: RelayOutcome;
  /** Each connection in turn ends like this; connections past the list run to the end. */
  breaks?: RelayBreak[];
  /** Connections to `/events` answered 404 (the server forgot the answer) from this one on (0: the first). */
  goneFrom?: number;
}

interface FakeRelayRequest {
  method: string;
  url: string;
  lastEventId: string | null;
}

/**
 * A server that runs one answer (docs/relay.md), for tests: the start and every resumption read from the
 * same numbered pieces of `body`, each connection cut where the test says.
 */
export function fakeRelay(body: string, options: FakeRelayOptions) {
  const size = Math.ceil(body.length / options.pieces);
  const items: RelayItem[] = [];
  for (let at = 0, id = 1; at < body.length; at += size, id++)
    items.push({ kind: 'piece', id, t: id * 10, text: body.slice(at, at + size) });
  const outcome = options.outcome ?? 'complete';
  items.push({ kind: 'end', id: items.length + 1, outcome });
  const requests: FakeRelayRequest[] = [];
  let connections = 0;
  let events = 0;

  const relayResponse = (after: number): Response => {
    const cut = options.breaks?.[connections++];
    const sent = items.filter((item) => item.id > after && (!cut || item.id <= cut.after));
    const text = sent.map(writeRelayEvent).join('');
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    // Split mid-event too (the page must join what a connection brings); a cut comes after the last read.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < bytes.length) {
          controller.enqueue(bytes.slice(at, at + 13));
          at += 13;
        } else if (cut?.how === 'network') controller.error(new TypeError('network error'));
        else if (cut?.how === 'hangs') return new Promise<void>(() => {});
        else controller.close();
      },
    });
    return new Response(stream, {
      headers: { 'content-type': 'text/event-stream', [relayHeader]: '1' },
    });
  };

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    requests.push({ method, url, lastEventId: headers.get('last-event-id') });
    if (method === 'POST' && url.startsWith('/v1/')) return relayResponse(0);
    if (method === 'GET' && url.endsWith('/events')) {
      if (options.goneFrom !== undefined && events++ >= options.goneFrom)
        return new Response('{"error":"No such answer."}', { status: 404 });
      return relayResponse(Number(headers.get('last-event-id') ?? 0));
    }
    if (method === 'POST' && url.endsWith('/stop')) return Response.json({ outcome: 'stopped' });
    if (method === 'DELETE') return new Response(null, { status: 204 });
    throw new Error(`unexpected request ${method} ${url}`);
  };

  return { fetch, requests, pieces: items.length - 1 };
}
