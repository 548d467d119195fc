import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/server.ts';
import { openSocket, rawRequest, requestHead } from '../testing.ts';
import { type RelayServer, relayFrames, relayHeaders, startRelayServer, textOf } from './testing.ts';

/**
 * The relay's routes as a hostile or broken client meets them (single-person mode, real sockets): ids
 * and Last-Event-ID values meant to confuse, requests from another site's page, `Expect: 100-continue`.
 * Nothing may crash the server or hand out an answer to the wrong request.
 */

let sim: RunningSimulator;
let server: RelayServer;
let url: string;
const attemptId = 'att_kept';
let all: ReturnType<typeof relayFrames>;

const same = () => ({ origin: url, 'sec-fetch-site': 'same-origin' });
const body = JSON.stringify({ model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'Hi' }] });

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 1 });
  server = await startRelayServer({ gatewayUrl: sim.url });
  url = server.url;
  const res = await rawRequest(url, '/v1/chat/completions', {
    method: 'POST',
    headers: relayHeaders(url, attemptId),
    body,
  });
  all = relayFrames(res.body);
});

afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const events = (headers: Record<string, string>, id = attemptId) =>
  rawRequest(url, `/api/answers/${id}/events`, { headers: { ...same(), ...headers } });

describe('Last-Event-ID', () => {
  it.each(['-1', '+1', '1.5', '1e3', '0x10', 'abc', '99999999999', '2147483648', '9'.repeat(40), '1, 2'])(
    'refuses %j with a clear 400',
    async (value) => {
      const res = await events({ 'last-event-id': value });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toMatch(/Last-Event-ID/);
    },
  );

  it('reads absent, empty and 0 as from the start, and an id past the end as nothing left', async () => {
    for (const headers of [
      {},
      { 'last-event-id': '' },
      { 'last-event-id': '0' },
      { 'last-event-id': ' 0 ' },
    ] as Record<string, string>[])
      expect(relayFrames((await events(headers)).body)).toEqual(all);
    const past = await events({ 'last-event-id': String(all.length + 5) });
    expect(past.status).toBe(200);
    expect(past.body).toBe('');
  });

  it('refuses the header sent twice', async () => {
    const socket = await openSocket(url);
    socket.write(
      `GET /api/answers/${attemptId}/events HTTP/1.1\r\nhost: ${new URL(url).host}\r\nlast-event-id: 1\r\nlast-event-id: 2\r\nconnection: close\r\n\r\n`,
    );
    expect(await socket.closed).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('survives any headers (fast-check): 200 with the right events, or 400/404, never a crash', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer({ min: -5, max: 2 ** 40 }).map(String),
      fc.constantFrom('0', '1', String(all.length), ' 3', '3 ', '00003'),
    );
    await fc.assert(
      fc.asyncProperty(
        header,
        fc.constantFrom(attemptId, 'att_never', '%E2%80%AE', '__proto__'),
        async (last, id) => {
          // Only what a header may hold: a client cannot send a line break or a control character.
          const value = last.replace(/[^\t\x20-\x7e]/g, '').trim();
          const res = await events({ 'last-event-id': value }, id);
          expect([200, 400, 404]).toContain(res.status);
          if (res.status === 200) {
            const n = value === '' ? 0 : Number(value);
            expect(relayFrames(res.body)).toEqual(n >= all.length ? [] : all.slice(n));
          } else expect(JSON.parse(res.body)).toHaveProperty('error');
        },
      ),
      { numRuns: 150 },
    );
    expect((await rawRequest(url, '/healthz')).status).toBe(200);
  });
});

describe('requests from elsewhere', () => {
  const elsewhere = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

  it('refuses another site’s page on every route: 403, nothing stopped or forgotten', async () => {
    for (const [method, path] of [
      ['GET', `/api/answers/${attemptId}/events`],
      ['POST', `/api/answers/${attemptId}/stop`],
      ['DELETE', `/api/answers/${attemptId}`],
    ] as const) {
      const res = await rawRequest(url, path, { method, headers: elsewhere });
      expect(res.status).toBe(403);
      expect(res.body).not.toContain('data:');
    }
    expect(relayFrames((await events({})).body)).toEqual(all);
  });

  it('refuses a stop or a forget without an Origin (not from the app’s page)', async () => {
    for (const [method, path] of [
      ['POST', `/api/answers/${attemptId}/stop`],
      ['DELETE', `/api/answers/${attemptId}`],
    ] as const)
      expect((await rawRequest(url, path, { method })).status).toBe(403);
  });

  it('answers wrong methods and unknown paths under /api/answers in JSON', async () => {
    const wrong = await rawRequest(url, `/api/answers/${attemptId}/events`, {
      method: 'POST',
      headers: same(),
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
    for (const path of [
      '/api/answers',
      '/api/answers/',
      `/api/answers/${attemptId}/other`,
      '/api/answers/x/events/y',
    ])
      expect((await rawRequest(url, path, { headers: same() })).status).toBe(404);
    expect(
      (await rawRequest(url, `/api/answers/${'x'.repeat(300)}/events`, { headers: same() })).status,
    ).toBe(404);
  });

  it('starts nothing from another site’s page: the proxy refuses it as before', async () => {
    const res = await rawRequest(url, '/v1/chat/completions', {
      method: 'POST',
      headers: { ...relayHeaders(url, 'att_evil'), ...elsewhere },
      body,
    });
    expect(res.status).toBe(403);
    expect((await events({}, 'att_evil')).status).toBe(404);
  });
});

describe('the wire', () => {
  it('100-continue still works for a relayed start', async () => {
    const socket = await openSocket(url);
    const host = new URL(url).host;
    const headers = {
      ...relayHeaders(url, 'att_continue'),
      'content-length': String(Buffer.byteLength(body)),
    };
    socket.write(
      requestHead('POST', '/v1/chat/completions', host, {
        ...headers,
        expect: '100-continue',
        connection: 'close',
      }),
    );
    for (
      const deadline = Date.now() + 5000;
      !socket.received().includes('100 Continue') && Date.now() < deadline;
    )
      await new Promise((resolve) => setImmediate(resolve));
    expect(socket.received()).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write(body);
    const text = await socket.closed;
    expect(text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*x-hopbase-relay: 1/i);
    expect(text).toContain('"outcome":"complete"');
  });

  it('relays the built-in simulator too (no gateway configured)', async () => {
    const local = await startRelayServer();
    try {
      const res = await rawRequest(local.url, '/v1/chat/completions', {
        method: 'POST',
        headers: relayHeaders(local.url, 'att_local'),
        body: JSON.stringify({
          model: 'sim-echo',
          stream: true,
          messages: [{ role: 'user', content: 'Hi' }],
        }),
      });
      expect(res.headers['x-hopbase-relay']).toBe('1');
      const frames = relayFrames(res.body);
      expect(frames.at(-1)?.data.outcome).toBe('complete');
      expect(textOf(frames)).toContain('data: [DONE]');
    } finally {
      await local.close();
    }
  });
});
