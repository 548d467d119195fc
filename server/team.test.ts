import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTimeout } from './db/testing.ts';
import { startTestTeam, type TestTeam } from './testing/teamServer.ts';
import { type FakeGateway, fromApp } from './testing.ts';

/** The production server in team mode (behind an authenticating proxy; PGlite in memory), before a gateway. */
let server: TestTeam;
let gateway: FakeGateway;
let url: string;

beforeAll(async () => {
  server = await startTestTeam(
    { HOPBASE_AUTH: 'header' },
    { engine: 'pglite', dataDir: null },
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: [DONE]\n\n');
    },
  );
  ({ gateway, url } = server);
}, startTimeout);

afterAll(() => server?.close());

const chat = (headers: Record<string, string>) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...fromApp(url), ...headers },
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
  });

describe('team mode', () => {
  it('serves the gateway to signed-in people only: without sign-in, 401 in the protocol’s shape and no gateway call', async () => {
    const refused = await chat({});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/Sign in/) } });
    expect(gateway.seen).toHaveLength(0);

    const allowed = await chat({ 'x-forwarded-email': 'ann@example.test' });
    expect(allowed.status).toBe(200);
    await allowed.text();
    expect(gateway.seen).toHaveLength(1);
    // The person's own headers name them to this server only, never to the gateway.
    expect(gateway.seen[0]?.headers['x-forwarded-email']).toBeUndefined();
  });

  it('answers its sign-in and data routes, with the server’s security headers', async () => {
    const me = await fetch(`${url}/api/me`, { headers: { 'x-forwarded-email': 'ann@example.test' } });
    expect(await me.json()).toMatchObject({ mode: 'header', user: { email: 'ann@example.test' } });
    expect(me.headers.get('x-frame-options')).toBe('DENY');
    expect((await fetch(`${url}/api/conversations`)).status).toBe(401);
  });

  it('takes a person’s writes and deletions through the whole server, bodies sent in chunks too', async () => {
    const as = { 'x-forwarded-email': 'ann@example.test', ...fromApp(url) };
    const record = { id: 'conv_whole', title: 'Whole', createdAt: 1, messages: [] };
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${url}/api/conversations/conv_whole`, {
        method: 'PUT',
        headers: { ...as, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      const body = JSON.stringify({ baseVersion: 0, record });
      request.write(body.slice(0, 20));
      request.end(body.slice(20));
    });
    expect(chunked).toBe(200);
    const deleted = await fetch(`${url}/api/conversations/conv_whole`, { method: 'DELETE', headers: as });
    expect(deleted.status).toBe(200);
    const read = await fetch(`${url}/api/conversations/conv_whole`, { headers: as });
    expect(await read.json()).toMatchObject({ deleted: true });
  });

  it('refuses a body over the size a conversation may have, declared or streamed, with 413', async () => {
    const as = {
      'x-forwarded-email': 'ann@example.test',
      ...fromApp(url),
      'content-type': 'application/json',
    };
    const huge = `{"baseVersion":0,"record":{"id":"conv_big","title":"${'x'.repeat(12_100_000)}"}}`;
    const declared = await fetch(`${url}/api/conversations/conv_big`, {
      method: 'PUT',
      headers: as,
      body: huge,
    });
    expect(declared.status).toBe(413);
    const streamed = await fetch(`${url}/api/conversations/conv_big`, {
      method: 'PUT',
      headers: as,
      body: new Blob([huge]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ error: 'The request is too large.' });
  });

  it('serves the app at a conversation’s own address', async () => {
    const page = await fetch(`${url}/c/conv_0123456789abcdef`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>HopBase Chat</title>');
  });
});
