import { rm } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../simulator/testing.ts';
import { createServerApp, type ServerApp } from './app.ts';
import { DEFAULT_LIMITS, parseGatewayUrl } from './config.ts';
import { type FakeGateway, onePageDist, openSocket, rawRequest, startFakeGateway } from './testing.ts';

// The production server and its proxy fed random requests over raw sockets: any method, path, headers
// and body, cut off anywhere. Never a crash (an unhandled error fails the run), never a hang (every
// request the client finishes is answered or closed, within the server's own timeouts), and every
// refusal says what is wrong in JSON.

let distDir: string;
let gateway: FakeGateway;
let app: ServerApp;
let url: string;
let host: string;
const logLines: string[] = [];

beforeAll(async () => {
  distDir = await onePageDist();
  gateway = await startFakeGateway((req, res) => {
    if (req.url.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"n":1}\n\ndata: [DONE]\n\n');
  });
  app = createServerApp(
    {
      host: '127.0.0.1',
      port: 0,
      distDir,
      connectSrc: [],
      allowedHosts: [],
      // Short timeouts: a request that declares more body than it sends is answered quickly.
      limits: { ...DEFAULT_LIMITS, headersTimeoutMs: 300, requestTimeoutMs: 1000 },
      proxy: {
        target: parseGatewayUrl(`${gateway.url}/v1?api-version=2024-10-21`),
        apiKey: 'sk-fuzz-0a1b2c3d4e5f',
        allowNoOrigin: true,
        maxBodyBytes: 4096,
        bodyIdleTimeoutMs: 200,
      },
    },
    (line) => logLines.push(line),
  );
  url = await app.listen();
  host = new URL(url).host;
});

afterAll(async () => {
  await app.close();
  await gateway.close();
  await rm(distDir, { recursive: true, force: true });
});

const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE'),
  fc.stringMatching(/^[A-Z]{1,8}$/),
);

const segment = fc.oneof(
  fc.constantFrom('v1', 'chat', 'completions', 'responses', 'messages', 'models', '..', '.', '', 'assets'),
  fc.constantFrom('%2e%2e', '%2F', '%5c', '\\', '%00', '%zz', 'index.html', 'healthz', '__sim', 'status'),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/),
);

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?api-version=1', '?API-VERSION=2', '?api%2Dversion=3', '?x=1&x=2', '?', '?%', '?a=%zz'),
  fc.stringMatching(/^\?[A-Za-z0-9=&%+._-]{0,20}$/),
);

const path = fc.oneof(
  fc.constantFrom('/v1/chat/completions', '/v1/responses', '/v1/messages', '/v1/models', '/healthz', '/'),
  fc.tuple(fc.array(segment, { maxLength: 5 }), query).map(([parts, q]) => `/${parts.join('/')}${q}`),
);

const headerName = fc.oneof(
  fc.constantFrom(
    'content-type',
    'content-length',
    'transfer-encoding',
    'expect',
    'origin',
    'sec-fetch-site',
    'host',
    'accept',
    'anthropic-version',
    'openai-organization',
    'x-forwarded-for',
    'x-http-method-override',
    'authorization',
    'cookie',
    'upgrade',
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);

const headerValue = fc.oneof(
  fc.constantFrom(
    'application/json',
    'chunked',
    '100-continue',
    'same-origin',
    'cross-site',
    'null',
    '0',
    '10',
    '999999999',
    'SELF',
    'websocket',
  ),
  fc.nat({ max: 6000 }).map(String),
  fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
);

const request = fc.record({
  method,
  path,
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
  body: fc.oneof(
    fc.constant(new Uint8Array()),
    fc.uint8Array({ maxLength: 6000 }),
    fc.constantFrom('{"model":"sim-echo","stream":true}', '{', 'null', '[]').map((s) => Buffer.from(s)),
  ),
  // Where the client goes away, as a fraction of what it would send; `undefined`: it sends it all.
  cutAt: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
});

type RequestCase = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The bytes of a request as a careless client writes them: whatever it was given, then Connection: close. */
function wire(r: RequestCase): Buffer {
  const lines = [`${r.method} ${r.path} HTTP/1.1`];
  if (!r.headers.some(([name]) => name === 'host')) lines.push(`host: ${host}`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value === 'SELF' ? url : value}`);
  lines.push('connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), r.body]);
}

/** Undoes chunked transfer coding, for the bodies that were streamed. */
function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (end < 0 || !(size > 0)) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

/** The final response in what the server sent (after any 100 Continue): status, head and body. */
function parse(raw: string): { status: number; head: string; body: string } {
  const text = raw.replace(/^(HTTP\/1\.1 100 Continue\r\n\r\n)+/, '');
  const at = text.indexOf('\r\n\r\n');
  const head = text.slice(0, at);
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1] ?? 0);
  const rest = text.slice(at + 4);
  return { status, head, body: /\r\ntransfer-encoding: chunked/i.test(head) ? dechunk(rest) : rest };
}

/** A clear message: a JSON error with a non-empty text, in any of the shapes the server uses. */
function message(body: string): string | undefined {
  const parsed = JSON.parse(body) as { error?: string | { message?: unknown } };
  if (typeof parsed.error === 'string') return parsed.error;
  return typeof parsed.error?.message === 'string' ? parsed.error.message : undefined;
}

describe('the proxy under random requests', () => {
  it('never crashes, never hangs, and always explains a refusal', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const bytes = wire(r);
        const socket = await openSocket(url);
        if (r.cutAt !== undefined) {
          socket.write(bytes.subarray(0, Math.floor(bytes.length * r.cutAt)));
          socket.destroy();
          await socket.closed;
          return;
        }
        socket.write(bytes);
        // Never a hang: the server answers (or, for bytes it cannot read, closes) on its own.
        const answer = await socket.closed;
        const { status, head, body } = parse(answer);
        expect(status, head).toBeGreaterThanOrEqual(200);
        if (status >= 400 && r.method !== 'HEAD') {
          expect(message(body), `${head}\n\n${body}`).toMatch(/\w/);
        }
      }),
      { numRuns: 300 },
    );
    // Still serving, and nothing left hanging at the gateway.
    expect((await rawRequest(url, '/healthz')).status).toBe(200);
    await waitFor(() => gateway.open === 0, 5000);
  }, 120_000);
});
