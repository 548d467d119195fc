import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/server.ts';
import { waitFor } from '../../simulator/testing.ts';
import { fromApp, rawRequest } from '../testing.ts';
import {
  openStream,
  type RelayServer,
  relayFrames,
  relayHeaders,
  startRelayServer,
  textOf,
} from './testing.ts';

/**
 * Single-person mode's relay (docs/relay.md), over real sockets: the production server proxying to a real
 * simulator, the answers kept in memory.
 */

let sim: RunningSimulator;
let server: RelayServer;
let url: string;
let attempts = 0;
const nextAttempt = () => `att_${++attempts}`;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 3, keepaliveMs: 60_000 });
  server = await startRelayServer({ gatewayUrl: sim.url, relay: { graceMs: 50 } });
  url = server.url;
});

afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const chat = (model: string, text = 'Hello there') =>
  JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: text }] });

const start = (attemptId: string, model = 'sim-long', extra: Record<string, string> = {}) =>
  openStream(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...relayHeaders(url, attemptId), ...extra },
    body: chat(model),
  });

const resume = (attemptId: string, last?: string, headers: Record<string, string> = fromApp(url)) =>
  openStream(`${url}/api/answers/${encodeURIComponent(attemptId)}/events`, {
    headers: { ...headers, ...(last === undefined ? {} : { 'last-event-id': last }) },
  });

describe('starting an answer', () => {
  it('relays a streamed answer, numbered from 1, ending complete', async () => {
    const page = await start(nextAttempt(), 'sim-echo');
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('x-hopbase-relay')).toBe('1');
    expect(page.response.headers.get('content-type')).toBe('text/event-stream');
    expect(page.response.headers.get('cache-control')).toBe('no-store');
    expect(page.response.headers.get('x-request-id')).toMatch(/./);
    const frames = await page.ended;
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
    expect(frames.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
    expect(textOf(frames)).toContain('data: [DONE]');
  });

  it('answers as before without the relay header, and keeps nothing', async () => {
    const attemptId = nextAttempt();
    const headers: Record<string, string> = relayHeaders(url, attemptId);
    delete headers['x-hopbase-relay'];
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: chat('sim-echo'),
    });
    expect(res.headers.get('x-hopbase-relay')).toBeNull();
    expect(await res.text()).toContain('data: [DONE]');
    expect(
      (await rawRequest(url, `/api/answers/${attemptId}/events`, { headers: fromApp(url) })).status,
    ).toBe(404);
  });

  it("passes the gateway's error on as it is, and keeps nothing", async () => {
    const attemptId = nextAttempt();
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: relayHeaders(url, attemptId),
      body: chat('sim-rate-limit'),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-hopbase-relay')).toBeNull();
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ error: { type: 'requests' } });
    expect(
      (await rawRequest(url, `/api/answers/${attemptId}/events`, { headers: fromApp(url) })).status,
    ).toBe(404);
    // Not kept: the same attempt id may start again.
    const again = await start(attemptId, 'sim-echo');
    expect(again.response.status).toBe(200);
    await again.ended;
  });

  it('refuses a second start under the same attempt id with 409, without calling the gateway', async () => {
    const attemptId = nextAttempt();
    await (await start(attemptId, 'sim-echo')).ended;
    const before = sim.simulator.requests().length;
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: relayHeaders(url, attemptId),
      body: chat('sim-echo'),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'conflict' } });
    expect(sim.simulator.requests().length).toBe(before);
  });
});

describe('the page goes away', () => {
  it('the answer runs to its end, a resume gets the rest, and the gateway was called once', async () => {
    sim.simulator.clearRequests();
    const attemptId = nextAttempt();
    const page = await start(attemptId);
    const first = [...(await page.until(5))].slice(0, 5);
    page.abort();
    const again = await resume(attemptId, '5');
    expect(again.response.status).toBe(200);
    const rest = await again.ended;
    expect(rest[0]?.id).toBe(6);
    expect(rest.map((f) => f.id)).toEqual(rest.map((_, i) => i + 6));
    expect(rest.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
    const whole = textOf([...first, ...rest]);
    expect(whole).toMatch(/^data: \{/);
    expect(whole).toContain('data: [DONE]');
    expect(sim.simulator.requests().filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
  });

  it('a resume of an ended answer gets the rest and the end at once', async () => {
    const attemptId = nextAttempt();
    const all = await (await start(attemptId, 'sim-echo')).ended;
    const again = await (await resume(attemptId, String(all.length - 2))).ended;
    expect(again).toEqual(all.slice(-2));
  });
});

describe('stopping and forgetting', () => {
  it('stop ends the answer as stopped and stops the gateway', async () => {
    const attemptId = nextAttempt();
    const page = await start(attemptId);
    await page.until(3);
    const res = await rawRequest(url, `/api/answers/${attemptId}/stop`, {
      method: 'POST',
      headers: fromApp(url),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ outcome: 'stopped' });
    const frames = await page.ended;
    expect(frames.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'stopped' } });
    await waitFor(() => sim.simulator.activeGenerations() === 0);
    // Stopped already: it says so again.
    const twice = await rawRequest(url, `/api/answers/${attemptId}/stop`, {
      method: 'POST',
      headers: fromApp(url),
    });
    expect(JSON.parse(twice.body)).toEqual({ outcome: 'stopped' });
  });

  it('DELETE forgets the answer after the grace', async () => {
    const attemptId = nextAttempt();
    await (await start(attemptId, 'sim-echo')).ended;
    const res = await rawRequest(url, `/api/answers/${attemptId}`, {
      method: 'DELETE',
      headers: fromApp(url),
    });
    expect(res.status).toBe(204);
    // Still there for other pages during the grace (50 ms here), then gone.
    const events = () => rawRequest(url, `/api/answers/${attemptId}/events`, { headers: fromApp(url) });
    let gone = await events();
    for (const deadline = Date.now() + 2000; gone.status === 200 && Date.now() < deadline; )
      gone = await events();
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body)).toHaveProperty('error');
  });
});

describe('limits', () => {
  it('an answer past the size limit ends too-large and its gateway call is stopped', async () => {
    const small = await startRelayServer({ gatewayUrl: sim.url, relay: { maxAnswerBytes: 2048 } });
    try {
      const res = await fetch(`${small.url}/v1/chat/completions`, {
        method: 'POST',
        headers: relayHeaders(small.url, 'att_big'),
        body: chat('sim-long'),
      });
      const frames = relayFrames(await res.text());
      expect(frames.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'too-large' } });
      expect(frames.at(-1)?.data.message).toContain('2048');
      expect(textOf(frames).length).toBeLessThanOrEqual(2048);
      await waitFor(() => sim.simulator.activeGenerations() === 0);
    } finally {
      await small.close();
    }
  });

  it('the memory budget forgets the oldest ended answers to make room; with none left to forget, too-large', async () => {
    const size = (frames: ReturnType<typeof relayFrames>) => Buffer.byteLength(textOf(frames));
    const echo = size(await (await start(nextAttempt(), 'sim-echo')).ended);
    // Room for one echo and a half: a second one needs the first, ended, forgotten.
    const budget = Math.floor(echo * 1.5);
    const tight = await startRelayServer({ gatewayUrl: sim.url, relay: { memoryBytes: budget } });
    try {
      const run = (attemptId: string, model: string) =>
        fetch(`${tight.url}/v1/chat/completions`, {
          method: 'POST',
          headers: relayHeaders(tight.url, attemptId),
          body: chat(model),
        }).then(async (res) => relayFrames(await res.text()));
      const kept = async (attemptId: string) =>
        (await rawRequest(tight.url, `/api/answers/${attemptId}/events`, { headers: fromApp(tight.url) }))
          .status;
      const first = await run('att_first', 'sim-echo');
      expect(first.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
      expect(await kept('att_first')).toBe(200);
      const second = await run('att_second', 'sim-echo');
      expect(second.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
      expect([await kept('att_first'), await kept('att_second')]).toEqual([404, 200]);
      // Longer than the whole budget: stopped where it no longer fits, the ended echo forgotten for it.
      const long = await run('att_long', 'sim-long');
      expect(long.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'too-large' } });
      expect(long.at(-1)?.data.message).toContain(`HOPBASE_RELAY_MEMORY_BYTES is ${budget}`);
      expect(size(long)).toBeLessThanOrEqual(budget);
      expect(await kept('att_second')).toBe(404);
      await waitFor(() => sim.simulator.activeGenerations() === 0);
    } finally {
      await tight.close();
    }
  });

  it("the proxy's body limit still applies: 413", async () => {
    const small = await startRelayServer({ gatewayUrl: sim.url, proxy: { HOPBASE_MAX_BODY_BYTES: '1000' } });
    try {
      const res = await rawRequest(small.url, '/v1/chat/completions', {
        method: 'POST',
        headers: relayHeaders(small.url, 'att_413'),
        body: chat('sim-echo', 'x'.repeat(5000)),
      });
      expect(res.status).toBe(413);
      expect(res.headers['x-hopbase-relay']).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('a running answer keeps its place under the per-client cap after its page went away, until it ends', async () => {
    const capped = await startRelayServer({ gatewayUrl: sim.url, limits: { maxRequestsPerClient: 1 } });
    try {
      const headers = (id: string) => relayHeaders(capped.url, id);
      const page = await openStream(`${capped.url}/v1/chat/completions`, {
        method: 'POST',
        headers: headers('att_capped'),
        body: chat('sim-long'),
      });
      await page.until(2);
      page.abort();
      const refused = await rawRequest(capped.url, '/v1/chat/completions', {
        method: 'POST',
        headers: headers('att_second'),
        body: chat('sim-echo'),
      });
      expect(refused.status).toBe(429);
      const stop = await rawRequest(capped.url, '/api/answers/att_capped/stop', {
        method: 'POST',
        headers: fromApp(capped.url),
      });
      expect(JSON.parse(stop.body)).toEqual({ outcome: 'stopped' });
      const admitted = await rawRequest(capped.url, '/v1/chat/completions', {
        method: 'POST',
        headers: headers('att_third'),
        body: chat('sim-echo'),
      });
      expect(admitted.status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});
