import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostName, isAllowedHost } from './http.ts';
import { type RunningSimulator, startSimulator } from './server.ts';

// DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 is "same-origin" with the
// simulator, but its requests still say `Host: evil.example:port`. The standalone simulator refuses them.

/** fetch() may not set Host; node:http may. */
function get(url: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('isAllowedHost', () => {
  it.each([
    ['localhost:8787', '127.0.0.1', true],
    ['LOCALHOST', '127.0.0.1', true],
    ['app.localhost:8787', '127.0.0.1', true],
    ['127.0.0.1:8787', '127.0.0.1', true],
    ['127.0.0.2', '127.0.0.1', true],
    ['[::1]:8787', '127.0.0.1', true],
    ['sim.internal:8787', 'sim.internal', true],
    ['evil.example:8787', '127.0.0.1', false],
    ['localhost.evil.example', '127.0.0.1', false],
    ['192.168.1.5:8787', '127.0.0.1', false],
    ['192.168.1.5:8787', '0.0.0.0', true],
    ['evil.example', '0.0.0.0', false],
    ['', '127.0.0.1', false],
    ['a/b@localhost', '127.0.0.1', false],
  ])('Host %j on %s: %s', (host, bound, allowed) => {
    expect(isAllowedHost(host, bound)).toBe(allowed);
  });

  it('accepts extra names', () => {
    expect(isAllowedHost('chat.example.com', '0.0.0.0', ['chat.example.com'])).toBe(true);
    expect(hostName('[::1]:80')).toBe('::1');
    expect(hostName(undefined)).toBeUndefined();
  });
});

describe('the standalone simulator checks Host', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ deltaMs: 1 });
  });
  afterAll(() => sim.close());

  it('answers loopback names', async () => {
    for (const host of [`127.0.0.1:${sim.port}`, `localhost:${sim.port}`]) {
      expect((await get(`${sim.url}/__sim/requests`, host)).status).toBe(200);
    }
  });

  it('refuses another name: a rebound page can neither read nor clear the request log', async () => {
    await fetch(`${sim.url}/v1/models`);
    const host = `evil.example:${sim.port}`;
    const read = await get(`${sim.url}/__sim/requests`, host);
    expect(read.status).toBe(403);
    expect(read.body).not.toContain('/v1/models');
    expect(JSON.parse(read.body)).toEqual({ error: expect.stringContaining('Host') });
    expect((await get(`${sim.url}/__sim/requests`, host, 'DELETE')).status).toBe(403);
    expect((await get(`${sim.url}/v1/models`, host)).status).toBe(403);
    expect(sim.simulator.requests()).toHaveLength(1);
  });
});
