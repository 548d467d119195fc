import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readText, waitFor } from '../simulator/testing.ts';
import { createServerApp, type ServerApp } from './app.ts';
import {
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  parseGatewayUrl,
  type ServerConfig,
  type ServerLimits,
} from './config.ts';
import { createGatewayProxy } from './proxy.ts';
import {
  type FakeGateway,
  fromApp,
  onePageDist,
  openSocket,
  rawRequest,
  requestHead,
  startFakeGateway,
} from './testing.ts';

// The production server against clients that go away mid-request, hold connections, send one byte at a
// time or ask for 100-continue: written as an attacker (or an unlucky network) works, over raw sockets.

const KEY = 'sk-hopbase-hostile-3d9e7a1c';

let distDir: string;
const running: { close(): Promise<void> }[] = [];
const logLines: string[] = [];

beforeAll(async () => {
  distDir = await onePageDist();
});

afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await rm(distDir, { recursive: true, force: true });
});

async function startServer(
  gatewayUrl: string | undefined,
  options: { limits?: Partial<ServerLimits>; maxBodyBytes?: number; bodyIdleTimeoutMs?: number } = {},
): Promise<{ app: ServerApp; url: string; host: string }> {
  const config: ServerConfig = {
    host: '127.0.0.1',
    port: 0,
    distDir,
    connectSrc: [],
    allowedHosts: [],
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    proxy: gatewayUrl
      ? {
          target: parseGatewayUrl(gatewayUrl),
          apiKey: KEY,
          allowNoOrigin: false,
          maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
          bodyIdleTimeoutMs: options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
        }
      : undefined,
  };
  const app = createServerApp(config, (line) => logLines.push(line));
  running.push(app);
  const url = await app.listen();
  return { app, url, host: new URL(url).host };
}

async function gateway(...args: Parameters<typeof startFakeGateway>): Promise<FakeGateway> {
  const started = await startFakeGateway(...args);
  running.push(started);
  return started;
}

/** A gateway that answers every call with a short event stream. */
const answering = () =>
  gateway((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"ok":true}\n\ndata: [DONE]\n\n');
  });

/** A gateway that starts every answer and holds it open until `release()`. */
async function holding() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = await gateway(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"n":1}\n\n');
    await released;
    res.end('data: [DONE]\n\n');
  });
  return { gateway: started, release };
}

/** Opens a stream from `localAddress` and resolves once its first bytes arrived; `done` when it ends. */
function openStream(url: string, path: string, localAddress = '127.0.0.1') {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; done: Promise<void> }>((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path,
        method: 'POST',
        agent: false,
        localAddress,
        headers: { ...fromApp(url), 'content-type': 'application/json' },
      },
      (res) => {
        const done = once(res, 'end').then(() => {});
        res.once('data', () => resolve({ status: res.statusCode ?? 0, done }));
        res.resume();
      },
    );
    req.on('error', reject);
    req.end('{"stream":true}');
  });
}

const health = async (url: string) => (await rawRequest(url, '/healthz')).status;

describe('a client that goes away in the middle of its request body', () => {
  it('never takes the server down: partial bodies, then a reset, many times, on every route', async () => {
    const upstream = await answering();
    const proxied = await startServer(`${upstream.url}/v1`);
    const simulated = await startServer(undefined);
    for (const server of [proxied, simulated]) {
      for (let i = 0; i < 30; i++) {
        const path = ['/v1/chat/completions', '/v1/messages', '/v1/responses', '/', '/healthz'][i % 5] ?? '/';
        const socket = await openSocket(server.url);
        socket.write(
          requestHead('POST', path, server.host, {
            ...fromApp(server.url),
            'content-type': 'application/json',
            'content-length': '100000',
          }),
        );
        socket.write(`{"model":"sim-echo","messages":[{"role":"user","content":"${'x'.repeat(i * 97)}`);
        // Half of them wait for the body to be on its way; the rest go away at once.
        if (i % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
        socket.destroy();
      }
      expect(await health(server.url)).toBe(200);
    }
    // The same with a chunked body that never ends.
    for (let i = 0; i < 10; i++) {
      const socket = await openSocket(proxied.url);
      socket.write(
        requestHead('POST', '/v1/responses', proxied.host, {
          ...fromApp(proxied.url),
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        }),
      );
      socket.write('5\r\n{"mod\r\n');
      socket.destroy();
    }
    expect(await health(proxied.url)).toBe(200);
    expect(upstream.open).toBe(0);
  });
});

describe('request bodies', () => {
  it('are streamed to the gateway as they arrive, not held whole', async () => {
    let firstBytes = '';
    const upstream = createServer((req, res) => {
      req.once('data', (chunk: Buffer) => {
        firstBytes = chunk.toString('utf8');
      });
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n'),
      );
      req.resume();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    running.push({
      close: () => new Promise((resolve) => upstream.close(() => resolve())),
    });
    const server = await startServer(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`);
    const socket = await openSocket(server.url);
    const body = `{"model":"sim-echo","padding":"${'y'.repeat(20_000)}"}`;
    socket.write(
      requestHead('POST', '/v1/chat/completions', server.host, {
        ...fromApp(server.url),
        'content-type': 'application/json',
        'content-length': String(body.length),
        connection: 'close',
      }),
    );
    socket.write(body.slice(0, 1000));
    // The gateway has the start of the body while the client still holds the rest.
    await waitFor(() => firstBytes.length > 0, 5000);
    expect(body.startsWith(firstBytes)).toBe(true);
    socket.write(body.slice(1000));
    expect(await socket.closed).toMatch(/^HTTP\/1\.1 200 [\s\S]*data: \[DONE\]/);
  });

  it('over the limit while streaming: 413 in the protocol’s shape, the gateway’s request cancelled', async () => {
    const upstream = await gateway(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n');
    });
    const server = await startServer(`${upstream.url}/v1`, { maxBodyBytes: 10_000 });
    for (const [path, expected] of [
      ['/v1/chat/completions', { error: { type: 'invalid_request_error' } }],
      ['/v1/messages', { type: 'error', error: { type: 'request_too_large' } }],
    ] as const) {
      // Chunked: no declared length to refuse it by, so the count does.
      const res = await rawRequest(server.url, path, {
        method: 'POST',
        headers: { ...fromApp(server.url), 'content-type': 'application/json' },
        body: Buffer.alloc(30_000, 'z'),
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject(expected);
      expect(JSON.parse(res.body).error.message).toContain('limit of 10000 bytes');
    }
    expect(upstream.seen).toHaveLength(0);
  });
});

describe('concurrent requests', () => {
  it('are capped per client address (429) and in total (503), in the protocol’s shape, with Retry-After', async () => {
    const { gateway: upstream, release } = await holding();
    const server = await startServer(`${upstream.url}/v1`, {
      limits: { maxRequests: 3, maxRequestsPerClient: 2 },
    });
    const held = [
      await openStream(server.url, '/v1/chat/completions'),
      await openStream(server.url, '/v1/messages'),
    ];
    expect(held.map((h) => h.status)).toEqual([200, 200]);

    const post = (path: string, localAddress?: string) =>
      rawRequest(server.url, path, {
        method: 'POST',
        headers: { ...fromApp(server.url), 'content-type': 'application/json' },
        body: '{"stream":true}',
        localAddress,
      });
    const perClient = await post('/v1/chat/completions');
    expect(perClient.status).toBe(429);
    expect(Number(perClient.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(perClient.body)).toMatchObject({ error: { type: 'requests' } });
    expect(JSON.parse(perClient.body).error.message).toContain('HOPBASE_MAX_REQUESTS_PER_CLIENT');
    const anthropic = await post('/v1/messages');
    expect(anthropic.status).toBe(429);
    expect(JSON.parse(anthropic.body)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });

    // Another address still gets in, up to the total.
    held.push(await openStream(server.url, '/v1/responses', '127.0.0.2'));
    const total = await post('/v1/responses', '127.0.0.3');
    expect(total.status).toBe(503);
    expect(Number(total.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(total.body).error.message).toContain('HOPBASE_MAX_REQUESTS');
    expect(upstream.seen).toHaveLength(3);
    // The app's page and /healthz are not counted.
    expect(await health(server.url)).toBe(200);

    release();
    await Promise.all(held.map((h) => h.done));
    await waitFor(() => upstream.open === 0);
    expect((await post('/v1/chat/completions')).status).toBe(200);
  });
});

describe('slow clients', () => {
  it('time out while sending the headers: 408, connection closed', async () => {
    const server = await startServer(undefined, { limits: { headersTimeoutMs: 200 } });
    const socket = await openSocket(server.url);
    socket.write(`GET /healthz HTTP/1.1\r\nhost: ${server.host}\r\nx-slow: `);
    const answer = await socket.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"error"');
  });

  it('time out when the body stops: 408 in the protocol’s shape, the gateway’s request cancelled', async () => {
    const { gateway: upstream, release } = await holding();
    const server = await startServer(`${upstream.url}/v1`, { bodyIdleTimeoutMs: 200 });
    const socket = await openSocket(server.url);
    socket.write(
      requestHead('POST', '/v1/messages', server.host, {
        ...fromApp(server.url),
        'content-type': 'application/json',
        'content-length': '1000',
      }),
    );
    socket.write('{"model":');
    const answer = await socket.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    await waitFor(() => upstream.open === 0);
    release();
  });

  it('time out when the body trickles in a byte at a time', async () => {
    const upstream = await answering();
    const server = await startServer(`${upstream.url}/v1`, { limits: { requestTimeoutMs: 500 } });
    const socket = await openSocket(server.url);
    socket.write(
      requestHead('POST', '/v1/chat/completions', server.host, {
        ...fromApp(server.url),
        'content-type': 'application/json',
        'content-length': '100000',
      }),
    );
    // The attacker: one byte every 20 ms, never idle long enough for the idle timeout.
    const drip = setInterval(() => socket.write('x'), 20);
    try {
      expect(await socket.closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
    expect(await health(server.url)).toBe(200);
  });
});

describe('Expect: 100-continue', () => {
  it('gets 100 Continue, then the answer (raw request)', async () => {
    const upstream = await answering();
    const server = await startServer(`${upstream.url}/v1`);
    const body = '{"model":"sim-echo","stream":true}';
    const socket = await openSocket(server.url);
    socket.write(
      requestHead('POST', '/v1/chat/completions', server.host, {
        ...fromApp(server.url),
        'content-type': 'application/json',
        'content-length': String(body.length),
        expect: '100-continue',
        connection: 'close',
      }),
    );
    // A client that waits for 100 Continue before it sends the body.
    await waitFor(() => socket.received().includes('\r\n\r\n'), 5000);
    expect(socket.received()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    socket.write(body);
    const answer = await socket.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(answer).toContain('data: [DONE]');
    expect(upstream.seen[0]?.headers.expect).toBeUndefined();
  });

  it('works with curl', async () => {
    const upstream = await answering();
    const server = await startServer(`${upstream.url}/v1`);
    const curl = spawn('curl', [
      '-sS',
      '-H',
      'Expect: 100-continue',
      '-H',
      'content-type: application/json',
      '-H',
      `origin: ${server.url}`,
      '--data-binary',
      `{"padding":"${'p'.repeat(100_000)}"}`,
      '-w',
      '\n%{http_code}',
      `${server.url}/v1/chat/completions`,
    ]);
    const chunks: Buffer[] = [];
    curl.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const [code] = (await once(curl, 'close')) as [number | null];
    const output = Buffer.concat(chunks).toString('utf8');
    if (code === null || (code !== 0 && output === '')) throw new Error(`curl failed (${code})`);
    expect(output.trim().split('\n').at(-1)).toBe('200');
    expect(output).toContain('data: [DONE]');
  });
});

describe('a malformed request', () => {
  it('gets a 400 that says what is wrong, and the server goes on', async () => {
    const server = await startServer(undefined);
    const socket = await openSocket(server.url);
    socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n');
    const answer = await socket.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Malformed HTTP request');
    expect(await health(server.url)).toBe(200);
  });
});

describe('a gateway that goes silent', () => {
  it('is given up on: 502 before any answer, the stream cut after one', async () => {
    const upstream = await gateway((req, res) => {
      // Never answers the chat call; starts the Responses answer, then says nothing more.
      if (req.url.startsWith('/v1/responses')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"n":1}\n\n');
      }
    });
    const proxy = createGatewayProxy({
      target: parseGatewayUrl(`${upstream.url}/v1`),
      apiKey: KEY,
      allowNoOrigin: true,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      bodyIdleTimeoutMs: DEFAULT_BODY_IDLE_TIMEOUT_MS,
      gatewaySilenceMs: 200,
      log: (line) => logLines.push(line),
    });
    const server = createServer((req, res) => proxy.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({
      close: () =>
        new Promise((resolve) => {
          proxy.close();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const silent = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(silent.status).toBe(502);
    expect(((await silent.json()) as { error: { message: string } }).error.message).toContain('ETIMEDOUT');
    const started = await fetch(`${url}/v1/responses`, { method: 'POST', body: '{}' });
    expect(started.status).toBe(200);
    expect(await readText(started)).toEqual({ text: 'data: {"n":1}\n\n', cut: true });
    await waitFor(() => upstream.open === 0);
  });
});
