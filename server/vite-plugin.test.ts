import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../simulator/server.ts';
import { frames, postJson, readText, waitFor } from '../simulator/testing.ts';
import { fromApp } from './testing.ts';
import { hopbaseGateway } from './vite-plugin.ts';

// The dev server's `/v1`: the embedded simulator by default, with HOPBASE_BASE_URL the same streaming
// proxy as the production server (tested in full in proxy.test.ts; here: that Vite mounts it).
async function startVite(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    configFile: false,
    logLevel: 'silent',
    plugins: [hopbaseGateway()],
    server: { port: 0, host: '127.0.0.1', watch: null, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const port = (server.httpServer?.address() as AddressInfo | null)?.port;
  return { server, url: `http://127.0.0.1:${port}` };
}

const ENV_KEYS = ['HOPBASE_BASE_URL', 'HOPBASE_API_KEY', 'HOPBASE_PROXY_ALLOW_NO_ORIGIN'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

describe('without HOPBASE_BASE_URL', () => {
  let vite: { server: ViteDevServer; url: string };
  beforeAll(async () => {
    delete process.env.HOPBASE_BASE_URL;
    vite = await startVite();
  });
  afterAll(() => vite.server.close());

  it('serves the simulator on the same origin', async () => {
    const status = await (await fetch(`${vite.url}/__sim/status`)).json();
    expect(status).toMatchObject({ mode: 'simulator', activeGenerations: 0 });
    const models = (await (await fetch(`${vite.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0]?.id).toBe('sim-echo');
    const res = await postJson(`${vite.url}/v1/messages`, {
      model: 'sim-echo',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(((await res.json()) as { stop_reason: string }).stop_reason).toBe('max_tokens');
  });

  it('answers /__sim only to its own origin, without CORS headers', async () => {
    const own = await fetch(`${vite.url}/__sim/requests`, { headers: { origin: vite.url } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    const other = await fetch(`${vite.url}/__sim/requests`, { headers: { origin: 'http://localhost:5173' } });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('with HOPBASE_BASE_URL', () => {
  let upstream: RunningSimulator;
  let vite: { server: ViteDevServer; url: string };
  beforeAll(async () => {
    upstream = await startSimulator({ deltaMs: 5, keepaliveMs: 1000, stallMs: 5000, apiKey: 'sk-upstream' });
    process.env.HOPBASE_BASE_URL = `${upstream.url}/v1`;
    process.env.HOPBASE_API_KEY = 'sk-upstream';
    delete process.env.HOPBASE_PROXY_ALLOW_NO_ORIGIN;
    vite = await startVite();
  });
  afterAll(async () => {
    await vite.server.close();
    await upstream.close();
  });

  it('adds the key on the server side and streams through as it is produced', async () => {
    upstream.simulator.clearRequests();
    const res = await postJson(
      `${vite.url}/v1/chat/completions`,
      { model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'through the proxy' }] },
      // The app's own page: same origin as the server, as the browser sends it.
      fromApp(vite.url),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^data: \{"id":"chatcmpl-/);
    // The first bytes arrived while the upstream was still generating: nothing was buffered.
    expect(upstream.simulator.activeGenerations()).toBe(1);
    let rest = '';
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest.endsWith('data: [DONE]\n\n')).toBe(true);
    const sent = upstream.simulator.requests()[0];
    expect(sent?.headers.authorization).toBe('[redacted]');
    expect(sent?.headers['x-api-key']).toBe('[redacted]');
    expect(sent?.headers.origin).toBeUndefined();
    expect(sent?.body).toMatchObject({ model: 'sim-echo', stream: true });
  });

  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['another port of the same host', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
  ])(
    'refuses a cross-site request with 403 and never forwards it with the key: %s',
    async (_name, headers) => {
      upstream.simulator.clearRequests();
      // A "simple" request: text/plain needs no preflight, so only the server can stop it.
      const chat = await fetch(`${vite.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...headers },
        body: JSON.stringify({ model: 'sim-echo', messages: [{ role: 'user', content: 'steal' }] }),
      });
      expect(chat.status).toBe(403);
      expect(await chat.json()).toEqual({
        error: {
          message: expect.stringContaining('Cross-site request refused'),
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
      const messages = await fetch(`${vite.url}/v1/messages`, { method: 'POST', headers, body: '{}' });
      expect(messages.status).toBe(403);
      expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
      expect(upstream.simulator.requests()).toHaveLength(0);
    },
  );

  it('refuses requests without Origin (curl, SDKs) with 403', async () => {
    upstream.simulator.clearRequests();
    const res = await fetch(`${vite.url}/v1/models`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      'HOPBASE_PROXY_ALLOW_NO_ORIGIN=1',
    );
    expect(upstream.simulator.requests()).toHaveLength(0);
    // The app's own GET carries Sec-Fetch-Site but no Origin.
    const own = await fetch(`${vite.url}/v1/models`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
  });

  it('passes error statuses and their headers through', async () => {
    const res = await postJson(
      `${vite.url}/v1/responses`,
      { model: 'sim-rate-limit', input: 'x' },
      fromApp(vite.url),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
  });

  it('passes mid-stream errors through unchanged', async () => {
    const res = await postJson(
      `${vite.url}/v1/messages`,
      { model: 'sim-interrupt', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'x' }] },
      fromApp(vite.url),
    );
    const { text } = await readText(res);
    expect(frames(text).at(-1)).toEqual({
      event: 'error',
      data: '{"type":"error","error":{"type":"api_error","message":"Response stream interrupted, please retry"}}',
    });
  });

  it('aborts the upstream request when the client disconnects', async () => {
    const controller = new AbortController();
    const res = await fetch(`${vite.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fromApp(vite.url) },
      body: JSON.stringify({ model: 'sim-long', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    });
    await res.body?.getReader().read();
    expect(upstream.simulator.activeGenerations()).toBe(1);
    controller.abort();
    await waitFor(() => upstream.simulator.activeGenerations() === 0);
  });

  it('reports proxy mode instead of simulator endpoints', async () => {
    expect(await (await fetch(`${vite.url}/__sim/status`)).json()).toEqual({
      mode: 'proxy',
      target: `${upstream.url}/v1`,
    });
    expect((await fetch(`${vite.url}/__sim/requests`)).status).toBe(404);
    const crossSite = await fetch(`${vite.url}/__sim/status`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
  });
});

describe('GET /api/prices on the dev server', () => {
  let vite: { server: ViteDevServer; url: string };
  beforeAll(async () => {
    delete process.env.HOPBASE_BASE_URL;
    vite = await startVite();
  });
  afterAll(() => vite.server.close());

  it('serves the simulator’s prices when HOPBASE_PRICES is unset', async () => {
    const res = await fetch(`${vite.url}/api/prices`, { headers: fromApp(vite.url) });
    expect(res.status).toBe(200);
    const table = (await res.json()) as Record<string, { input_cost_per_token?: number }>;
    expect(table['sim-echo']?.input_cost_per_token).toBe(1e-6);
  });
});
