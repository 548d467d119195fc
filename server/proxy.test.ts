import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../simulator/server.ts';
import { frames, readText, waitFor } from '../simulator/testing.ts';
import { createServerApp, type ServerApp } from './app.ts';
import {
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  parseGatewayUrl,
  type ServerConfig,
} from './config.ts';
import { contentSecurityPolicy } from './security.ts';
import { fromApp, onePageDist, type RawResponse, rawRequest, startFakeGateway } from './testing.ts';

// The production server's `/v1` proxy, in process, over real HTTP on 127.0.0.1: what it forwards, what
// it refuses, that it streams, and that the key never comes back.

const KEY = 'sk-hopbase-test-7f3a9c1e5b2d4680-secret';
const USER = 'gateway-user';
const PASSWORD = 'pa55word-in-the-url';
const QUERY_SECRET = 'query-token-0b1e2c3d';

/** Every response any test here received, headers and body, to grep for secrets at the end. */
const received: string[] = [];
const logLines: string[] = [];

function remember(status: number, headers: IncomingHttpHeaders | Headers, body: string): void {
  const pairs = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  received.push(`${status}\n${pairs.map(([k, v]) => `${k}: ${String(v)}`).join('\n')}\n\n${body}`);
}

async function call(url: string, init: RequestInit = {}): Promise<{ res: Response; text: string }> {
  const res = await fetch(url, init);
  const { text } = await readText(res);
  remember(res.status, res.headers, text);
  return { res, text };
}

async function raw(...args: Parameters<typeof rawRequest>): Promise<RawResponse> {
  const res = await rawRequest(...args);
  remember(res.status, res.headers, res.body);
  return res;
}

let distDir: string;
const servers: ServerApp[] = [];

async function startServer(
  baseUrl: string,
  options: { apiKey?: string; allowNoOrigin?: boolean } = {},
): Promise<{ app: ServerApp; url: string }> {
  const config: ServerConfig = {
    host: '127.0.0.1',
    port: 0,
    distDir,
    connectSrc: [],
    allowedHosts: [],
    proxy: {
      target: parseGatewayUrl(baseUrl),
      apiKey: options.apiKey,
      allowNoOrigin: options.allowNoOrigin ?? false,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      bodyIdleTimeoutMs: DEFAULT_BODY_IDLE_TIMEOUT_MS,
    },
    limits: DEFAULT_LIMITS,
  };
  const app = createServerApp(config, (line) => logLines.push(line));
  servers.push(app);
  return { app, url: await app.listen() };
}

beforeAll(async () => {
  distDir = await onePageDist();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(distDir, { recursive: true, force: true });
  // The key and the URL's credentials never came back: not in a status line, a header, a body or a log.
  const everything = [...received, ...logLines].join('\n---\n');
  expect(received.length).toBeGreaterThan(40);
  for (const secret of [KEY, PASSWORD, QUERY_SECRET, Buffer.from(`${USER}:${PASSWORD}`).toString('base64')]) {
    expect(everything).not.toContain(secret);
  }
});

describe('with a gateway that requires the key (the simulator)', () => {
  let upstream: RunningSimulator;
  let server: { app: ServerApp; url: string };
  const requests = () => upstream.simulator.requests();

  beforeAll(async () => {
    upstream = await startSimulator({ apiKey: KEY, deltaMs: 2, keepaliveMs: 1000, stallMs: 5000 });
    server = await startServer(`${upstream.url}/v1`, { apiKey: KEY });
  });
  afterAll(() => upstream.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = fromApp(server.url)) =>
    call(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it.each([
    [
      '/v1/chat/completions',
      { model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'hi' }] },
    ],
    ['/v1/responses', { model: 'sim-echo', stream: true, input: 'hi' }],
    [
      '/v1/messages',
      { model: 'sim-echo', stream: true, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
    ],
  ])('forwards POST %s with the key added on the server side', async (path, body) => {
    upstream.simulator.clearRequests();
    const { res, text } = await post(path, body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(frames(text).length).toBeGreaterThan(3);
    expect(requests()).toHaveLength(1);
    // The simulator redacts what it logs; that it answered 200 at all proves the key arrived.
    expect(requests()[0]?.headers.authorization).toBe('[redacted]');
    expect(requests()[0]?.headers.origin).toBeUndefined();
  });

  it('forwards GET /v1/models', async () => {
    const { res, text } = await call(`${server.url}/v1/models`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(text).data[0].id).toBe('sim-echo');
  });

  it('passes the gateway’s error statuses and retry headers through', async () => {
    const { res, text } = await post('/v1/responses', { model: 'sim-rate-limit', input: 'x' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(JSON.parse(text).error.code).toBe('rate_limit_exceeded');
  });

  it.each([
    ['GET', '/v1'],
    ['GET', '/v1/'],
    ['GET', '/v1/models/sim-echo'],
    ['POST', '/v1/embeddings'],
    ['POST', '/v1/completions'],
    ['POST', '/v1/chat/completions/extra'],
    ['GET', '/v1/files'],
    ['POST', '/v1/messages/batches'],
    ['POST', '/v1/messages/count_tokens'],
    ['DELETE', '/v1/responses/resp_123'],
  ])('refuses %s %s (not on the allow-list) with a JSON 404, never forwarded', async (method, path) => {
    upstream.simulator.clearRequests();
    const res = await raw(server.url, path, {
      method,
      headers: { ...fromApp(server.url), 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : '{}',
    });
    expect(res.status).toBe(404);
    // Both families (OpenAI's and, under /v1/messages, Anthropic's) keep the message at error.message.
    expect(JSON.parse(res.body).error.message).toContain('Not proxied');
    expect(requests()).toHaveLength(0);
  });

  it.each([
    ['GET', '/v1/chat/completions', 'POST'],
    ['PUT', '/v1/responses', 'POST'],
    ['DELETE', '/v1/messages', 'POST'],
    ['OPTIONS', '/v1/chat/completions', 'POST'],
    ['POST', '/v1/models', 'GET'],
    ['DELETE', '/v1/models', 'GET'],
  ])('refuses %s %s with a JSON 405 naming the method to use', async (method, path, allow) => {
    upstream.simulator.clearRequests();
    const res = await raw(server.url, path, { method, headers: fromApp(server.url) });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(JSON.parse(res.body))).toContain(`use ${allow}`);
    expect(requests()).toHaveLength(0);
  });

  it('answers HEAD on an allowed path with 405 too', async () => {
    const res = await raw(server.url, '/v1/models', { method: 'HEAD', headers: fromApp(server.url) });
    expect(res.status).toBe(405);
    expect(requests().some((r) => r.method === 'HEAD')).toBe(false);
  });

  it.each([
    '/v1/chat%2fcompletions',
    '/v1/chat%2Fcompletions',
    '/v1/%2e%2e/admin',
    '/v1/%2E/models',
    '/v1/./models',
    '/v1/x/../models',
    '/v1/models/..',
    '/v1//models',
    '/v1\\models',
    '/v1/models%5c',
    '/v1/chat/completions%2F..%2Fadmin',
  ])('refuses the ambiguous path %s with a JSON 400, never forwarded', async (path) => {
    upstream.simulator.clearRequests();
    const res = await raw(server.url, path, {
      method: 'POST',
      headers: { ...fromApp(server.url), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toContain('not allowed in the path');
    expect(requests()).toHaveLength(0);
  });

  it(`caps request bodies at ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MB with a JSON 413, never forwarded`, async () => {
    upstream.simulator.clearRequests();
    const padding = 'x'.repeat(DEFAULT_MAX_BODY_BYTES);
    const { res, text } = await post('/v1/chat/completions', {
      model: 'sim-echo',
      messages: [{ role: 'user', content: padding }],
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(text).error).toMatchObject({ type: 'invalid_request_error' });
    expect(JSON.parse(text).error.message).toContain(`limit of ${DEFAULT_MAX_BODY_BYTES} bytes`);
    const messages = await post('/v1/messages', { model: 'sim-echo', max_tokens: 5, messages: [], padding });
    expect(messages.res.status).toBe(413);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(requests()).toHaveLength(0);
  });

  it('refuses a declared body far over the cap before reading it', async () => {
    const res = await raw(server.url, '/v1/chat/completions', {
      method: 'POST',
      headers: { ...fromApp(server.url), 'content-type': 'application/json', 'content-length': '999999999' },
    }).catch((error: unknown) => ({ status: -1, body: String(error), headers: {} }));
    expect(res.status).toBe(413);
  });

  it('lets a large image attachment through (a few MB is well under the cap)', async () => {
    upstream.simulator.clearRequests();
    const image = `data:image/png;base64,${Buffer.alloc(3 * 1024 * 1024, 7).toString('base64')}`;
    const { res } = await post('/v1/chat/completions', {
      model: 'sim-echo',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: image } }] }],
    });
    // The simulator has its own (lower) limit; what matters is that the proxy forwarded it.
    expect([200, 400, 413]).toContain(res.status);
    expect(requests()).toHaveLength(1);
  });

  it.each([
    ['no Origin, no Sec-Fetch-Site (curl, a script)', {}],
    ['Sec-Fetch-Site: none (typed into the address bar)', { 'sec-fetch-site': 'none' }],
  ])('refuses a request with %s with 403', async (_name, headers) => {
    upstream.simulator.clearRequests();
    const chat = await post(
      '/v1/chat/completions',
      { model: 'sim-echo', messages: [{ role: 'user', content: 'x' }] },
      headers,
    );
    expect(chat.res.status).toBe(403);
    expect(JSON.parse(chat.text).error.message).toContain('HOPBASE_PROXY_ALLOW_NO_ORIGIN=1');
    const models = await call(`${server.url}/v1/models`, { headers });
    expect(models.res.status).toBe(403);
    expect(requests()).toHaveLength(0);
  });

  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['another port of the same host', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    [
      'a same-origin Origin but Sec-Fetch-Site: cross-site',
      { origin: 'SELF', 'sec-fetch-site': 'cross-site' },
    ],
  ])('refuses a cross-site request with 403: %s', async (_name, headers) => {
    upstream.simulator.clearRequests();
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, v === 'SELF' ? server.url : v]),
    );
    // A "simple" request: text/plain needs no preflight, so only the server can stop it.
    const chat = await call(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...resolved },
      body: JSON.stringify({ model: 'sim-echo', messages: [{ role: 'user', content: 'steal' }] }),
    });
    expect(chat.res.status).toBe(403);
    expect(JSON.parse(chat.text).error.message).toContain('Cross-site request refused');
    const messages = await call(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: resolved,
      body: '{}',
    });
    expect(messages.res.status).toBe(403);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(requests()).toHaveLength(0);
  });

  it('reports gateway mode, without the key, on /healthz and /__sim/status', async () => {
    const health = await call(`${server.url}/healthz`);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok', mode: 'gateway' });
    const status = await call(`${server.url}/__sim/status`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(JSON.parse(status.text)).toEqual({ mode: 'proxy', target: `${upstream.url}/v1` });
  });
});

describe('with HOPBASE_PROXY_ALLOW_NO_ORIGIN=1', () => {
  it('lets requests without Origin through, and still refuses cross-site ones', async () => {
    const upstream = await startSimulator({ apiKey: KEY, deltaMs: 1 });
    try {
      const { url } = await startServer(`${upstream.url}/v1`, { apiKey: KEY, allowNoOrigin: true });
      expect((await call(`${url}/v1/models`)).res.status).toBe(200);
      const cross = await call(`${url}/v1/models`, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(cross.res.status).toBe(403);
    } finally {
      await upstream.close();
    }
  });
});

describe('credentials never come back', () => {
  it('scrubs the key from an error the gateway echoes it in', async () => {
    const gateway = await startFakeGateway((req, res) => {
      // A careless gateway: repeats the credentials it got, in a header and in the body.
      res.writeHead(401, {
        'content-type': 'application/json',
        'x-request-id': `req_${req.headers['x-api-key']}`,
        'x-debug-auth': String(req.headers.authorization),
      });
      res.end(
        JSON.stringify({ error: { message: `Invalid key ${req.headers['x-api-key']}`, seen: req.headers } }),
      );
    });
    try {
      const { url } = await startServer(`${gateway.url}/v1`, { apiKey: KEY });
      const { res, text } = await call(`${url}/v1/models`, { headers: { 'sec-fetch-site': 'same-origin' } });
      expect(res.status).toBe(401);
      expect(gateway.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(text).toContain('Invalid key [redacted]');
      expect(res.headers.get('x-request-id')).toBe('req_[redacted]');
      // Not a header a client needs: not passed at all.
      expect(res.headers.get('x-debug-auth')).toBeNull();
    } finally {
      await gateway.close();
    }
  });

  it('uses the user, password and query of HOPBASE_BASE_URL without ever showing them', async () => {
    const gateway = await startFakeGateway((req, res) => {
      if (req.url?.startsWith('/v1/models')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
        return;
      }
      // An error that repeats what it got: scrubbed on the way back (error bodies are read whole).
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'boom', url: req.url, auth: req.headers.authorization } }));
    });
    const base = `http://${USER}:${PASSWORD}@${new URL(gateway.url).host}/v1?token=${QUERY_SECRET}`;
    try {
      const { url } = await startServer(base);
      const models = await call(`${url}/v1/models`, { headers: { 'sec-fetch-site': 'same-origin' } });
      expect(models.res.status).toBe(200);
      // Sent to the gateway, as Basic auth and query...
      expect(gateway.seen[0]?.url).toBe(`/v1/models?token=${QUERY_SECRET}`);
      expect(gateway.seen[0]?.headers.authorization).toBe(
        `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
      );
      // ...and scrubbed from the error the gateway echoes them in.
      const failed = await call(`${url}/v1/responses`, {
        method: 'POST',
        headers: { ...fromApp(url), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(failed.res.status).toBe(500);
      expect(failed.text).toContain('[redacted]');
      const status = await call(`${url}/__sim/status`, { headers: { 'sec-fetch-site': 'same-origin' } });
      expect(JSON.parse(status.text)).toEqual({ mode: 'proxy', target: `${gateway.url}/v1` });
      expect(JSON.parse((await call(`${url}/healthz`)).text)).toEqual({ status: 'ok', mode: 'gateway' });
    } finally {
      await gateway.close();
    }
  });

  it('names the gateway without credentials when it cannot be reached (502)', async () => {
    const gateway = await startFakeGateway((_req, res) => {
      res.end();
    });
    const host = new URL(gateway.url).host;
    await gateway.close();
    const { url } = await startServer(`http://${USER}:${PASSWORD}@${host}/v1?token=${QUERY_SECRET}`);
    const { res, text } = await call(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...fromApp(url), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(502);
    expect(JSON.parse(text).error.message).toBe(
      `Could not reach the HopBase gateway at http://${host}/v1 (ECONNREFUSED).`,
    );
    expect(logLines.some((line) => line.includes('→ 502'))).toBe(true);
  });
});

describe('streaming', () => {
  it('passes each event and keepalive through as it arrives, before the gateway has finished', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gateway = await startFakeGateway(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write('data: {"n":1}\n\n');
      res.write(': hopbase-keepalive\n\n');
      await released;
      res.end('data: {"n":2}\n\ndata: [DONE]\n\n');
    });
    try {
      const { url } = await startServer(`${gateway.url}/v1`, { apiKey: KEY });
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...fromApp(url), 'content-type': 'application/json' },
        body: '{"stream":true}',
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes(': hopbase-keepalive\n\n')) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('stream ended early');
        text += decoder.decode(chunk.value, { stream: true });
      }
      // The first event and the keepalive are here while the gateway is still holding its answer open.
      expect(text).toBe('data: {"n":1}\n\n: hopbase-keepalive\n\n');
      expect(gateway.open).toBe(1);
      release();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += decoder.decode(chunk.value, { stream: true });
      }
      expect(text.endsWith('data: {"n":2}\n\ndata: [DONE]\n\n')).toBe(true);
      remember(res.status, res.headers, text);
    } finally {
      release();
      await gateway.close();
    }
  });

  it('cancels the upstream request when the client goes away', async () => {
    const gateway = await startFakeGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(': hopbase-keepalive\n\n'), 10);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const { url } = await startServer(`${gateway.url}/v1`, { apiKey: KEY });
      const controller = new AbortController();
      const res = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { ...fromApp(url), 'content-type': 'application/json' },
        body: '{"stream":true}',
        signal: controller.signal,
      });
      await res.body!.getReader().read();
      expect(gateway.open).toBe(1);
      controller.abort();
      await waitFor(() => gateway.closedEarly === 1 && gateway.open === 0);
    } finally {
      await gateway.close();
    }
  });

  it('cuts the client’s stream when the gateway’s breaks off', async () => {
    const gateway = await startFakeGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      setTimeout(() => res.destroy(), 20);
    });
    try {
      const { url } = await startServer(`${gateway.url}/v1`, { apiKey: KEY });
      const res = await fetch(`${url}/v1/responses`, {
        method: 'POST',
        headers: { ...fromApp(url), 'content-type': 'application/json' },
        body: '{"stream":true}',
      });
      const { text, cut } = await readText(res);
      expect(text).toBe('data: {"n":1}\n\n');
      expect(cut).toBe(true);
    } finally {
      await gateway.close();
    }
  });
});

describe('headers, both ways, by allow-list', () => {
  it('forwards only what describes the API call, never account, address or method headers', async () => {
    const gateway = await startFakeGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n');
    });
    try {
      const { url } = await startServer(`${gateway.url}/v1`, { apiKey: KEY });
      const wanted = {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'prompt-caching-2024-07-31',
        'openai-beta': 'assistants=v2',
        'idempotency-key': 'idem-123',
        'x-request-id': 'client-req-1',
      };
      const unwanted = {
        'openai-organization': 'org-attacker',
        'openai-project': 'proj_attacker',
        'x-real-ip': '10.0.0.1',
        via: '1.1 evil',
        forwarded: 'for=10.0.0.1',
        'x-forwarded-for': '10.0.0.1',
        'x-forwarded-host': 'evil.example',
        'x-http-method-override': 'DELETE',
        'x-method-override': 'DELETE',
        'x-original-url': '/v1/files',
        'x-api-key': 'sk-attacker',
        authorization: 'Bearer sk-attacker',
        cookie: 'session=1',
        'x-custom': 'anything',
        expect: '100-continue',
      };
      const res = await raw(url, '/v1/chat/completions', {
        method: 'POST',
        headers: { ...fromApp(url), ...wanted, ...unwanted },
        body: '{"stream":true}',
      });
      expect(res.status).toBe(200);
      const seen = gateway.seen[0]?.headers ?? {};
      expect(seen).toMatchObject(wanted);
      for (const name of Object.keys(unwanted)) {
        if (name === 'authorization' || name === 'x-api-key') continue;
        expect(seen[name], name).toBeUndefined();
      }
      // The server's key, not the client's.
      expect(seen.authorization).toBe(`Bearer ${KEY}`);
      expect(seen['x-api-key']).toBe(KEY);
      expect(seen.origin).toBeUndefined();
      expect(seen['sec-fetch-site']).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });

  it('passes what a client needs back, and nothing that replaces the server’s security headers', async () => {
    const gateway = await startFakeGateway((req, res) => {
      res.writeHead(req.url?.includes('models') ? 200 : 429, {
        'content-type': 'application/json',
        'x-request-id': 'req_abc',
        'request-id': 'req_def',
        'retry-after': '7',
        'retry-after-ms': '7000',
        'x-should-retry': 'true',
        'x-ratelimit-remaining-requests': '0',
        'anthropic-ratelimit-requests-remaining': '0',
        'content-security-policy': "default-src *; script-src 'unsafe-inline' *",
        'x-frame-options': 'ALLOWALL',
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': 'true',
        'set-cookie': 'tracker=1; Path=/',
        'referrer-policy': 'unsafe-url',
        'x-content-type-options': 'sniff',
        'cross-origin-opener-policy': 'unsafe-none',
        'strict-transport-security': 'max-age=0',
        location: 'https://evil.example/',
        'openai-organization': 'org-operator',
        server: 'gateway/1.0',
      });
      res.end('{"error":{"message":"slow down"}}');
    });
    try {
      const { url } = await startServer(`${gateway.url}/v1`, { apiKey: KEY });
      for (const [path, method] of [
        ['/v1/models', 'GET'],
        ['/v1/messages', 'POST'],
      ] as const) {
        const res = await raw(url, path, {
          method,
          headers: { ...fromApp(url), 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect(res.headers).toMatchObject({
          'content-type': 'application/json',
          'x-request-id': 'req_abc',
          'request-id': 'req_def',
          'retry-after': '7',
          'retry-after-ms': '7000',
          'x-should-retry': 'true',
          'x-ratelimit-remaining-requests': '0',
          'anthropic-ratelimit-requests-remaining': '0',
          // The server's own, untouched.
          'content-security-policy': contentSecurityPolicy([]),
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
          'cross-origin-opener-policy': 'same-origin',
        });
        for (const name of [
          'access-control-allow-origin',
          'access-control-allow-credentials',
          'set-cookie',
          'strict-transport-security',
          'location',
          'openai-organization',
          'server',
        ]) {
          expect(res.headers[name], name).toBeUndefined();
        }
      }
    } finally {
      await gateway.close();
    }
  });
});

describe('the operator’s gateway query', () => {
  // A value that form-encoding writes differently from the URL the operator gave: a space, `*`, `!`, `'`.
  const SIGNED = "s1g n*d!'(x)";
  const base = (gatewayUrl: string) =>
    `${gatewayUrl}/v1?api-version=2024-10-21&sig=${encodeURIComponent(SIGNED)}`;

  it('reaches the gateway exactly as written, with the client’s query after it', async () => {
    const gateway = await startFakeGateway((req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      // A careless gateway repeats the URL it got, decoded and re-encoded its own ways.
      const url = new URL(req.url, 'http://gateway');
      res.end(
        JSON.stringify({
          error: {
            message: `bad ${req.url} ${url.search} ${url.searchParams.toString()} ${url.searchParams.get('sig')}`,
          },
        }),
      );
    });
    try {
      const { url } = await startServer(base(gateway.url), { apiKey: KEY });
      const res = await raw(url, '/v1/responses?include=reasoning.encrypted_content', {
        method: 'POST',
        headers: { ...fromApp(url), 'content-type': 'application/json' },
        body: '{}',
      });
      // The query as the URL parser wrote it once, at start (it encodes `'`), never re-encoded since.
      const operator = new URL(base(gateway.url)).search;
      expect(operator).toBe('?api-version=2024-10-21&sig=s1g%20n*d!%27(x)');
      expect(gateway.seen[0]?.url).toBe(`/v1/responses${operator}&include=reasoning.encrypted_content`);
      expect(res.status).toBe(500);
      const message = JSON.parse(res.body).error.message as string;
      expect(message).toContain('include=reasoning.encrypted_content');
      for (const form of [
        SIGNED,
        encodeURIComponent(SIGNED),
        new URLSearchParams({ sig: SIGNED }).toString().slice('sig='.length),
      ]) {
        expect(message).not.toContain(form);
      }
    } finally {
      await gateway.close();
    }
  });

  it.each([
    ['/v1/chat/completions?api-version=2020-01-01', 'openai'],
    ['/v1/chat/completions?API-Version=2020-01-01', 'openai'],
    ['/v1/chat/completions?api%2Dversion=2020-01-01', 'openai'],
    ['/v1/messages?x=1&sig=mine', 'anthropic'],
  ])('refuses a client query naming one of its parameters: %s', async (path, family) => {
    const gateway = await startFakeGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n');
    });
    try {
      const { url } = await startServer(base(gateway.url), { apiKey: KEY });
      const res = await raw(url, path, {
        method: 'POST',
        headers: { ...fromApp(url), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(400);
      const body = JSON.parse(res.body);
      if (family === 'anthropic')
        expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      else expect(body).toMatchObject({ error: { type: 'invalid_request_error' } });
      expect(body.error.message).toMatch(/may not name (api-version|API-Version|sig)/);
      expect(gateway.seen).toHaveLength(0);
    } finally {
      await gateway.close();
    }
  });
});
