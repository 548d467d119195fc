import { createHash } from 'node:crypto';
import OpenAI, { AuthenticationError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { simOptionsFromEnv } from './options.ts';
import { SCENARIOS } from './scenarios.ts';
import {
  FLAKY_MEMORY,
  LOG_BODY_LIMIT,
  LOG_LIMIT,
  type LoggedRequest,
  type RunningSimulator,
  startSimulator,
} from './server.ts';
import { frames, postJson, readText, waitFor } from './testing.ts';

// HTTP behaviour around the streams: validation, auth, CORS, the request log, flaky retries, disconnects.
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 2, keepaliveMs: 20, stallMs: 5000, apiKey: undefined });
});
afterAll(() => sim.close());
beforeEach(() => sim.simulator.clearRequests());

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'Hello there' }],
  ...extra,
});

async function expectServing(): Promise<void> {
  const res = await postJson(`${sim.url}/v1/chat/completions`, chat('sim-echo'));
  expect(res.status).toBe(200);
  expect(((await res.json()) as { object: string }).object).toBe('chat.completion');
}

describe('bad requests get a protocol-shaped error and the server keeps serving', () => {
  it('malformed JSON', async () => {
    const post = (path: string) =>
      fetch(`${sim.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model":',
      });
    const openaiRes = await post('/v1/chat/completions');
    expect(openaiRes.status).toBe(400);
    expect(await openaiRes.json()).toEqual({
      error: {
        message: expect.stringContaining('could not parse the JSON body'),
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    const anthropicRes = await post('/v1/messages');
    expect(anthropicRes.status).toBe(400);
    expect(await anthropicRes.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') },
      request_id: anthropicRes.headers.get('request-id'),
    });
    await expectServing();
  });

  it('wrong content type', async () => {
    const res = await fetch(`${sim.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ model: 'sim-echo', input: 'hi' }),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    await expectServing();
  });

  it('unknown path, shaped by the path prefix', async () => {
    const openaiRes = await fetch(`${sim.url}/v1/embeddings`, { method: 'POST' });
    expect(openaiRes.status).toBe(404);
    expect(((await openaiRes.json()) as { error: { message: string } }).error.message).toBe(
      'Invalid URL (POST /v1/embeddings)',
    );
    const anthropicRes = await fetch(`${sim.url}/v1/messages/batches`);
    expect(anthropicRes.status).toBe(404);
    expect(((await anthropicRes.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
    const wrongMethod = await fetch(`${sim.url}/v1/chat/completions`);
    expect(wrongMethod.status).toBe(404);
    await expectServing();
  });

  it('oversized body', async () => {
    const huge = chat('sim-echo', { padding: 'x'.repeat(simOptionsFromEnv({}).maxBodyBytes) });
    const openaiRes = await postJson(`${sim.url}/v1/chat/completions`, huge);
    expect(openaiRes.status).toBe(413);
    expect(((await openaiRes.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
    const anthropicRes = await postJson(`${sim.url}/v1/messages`, { ...huge, max_tokens: 10 });
    expect(anthropicRes.status).toBe(413);
    expect(((await anthropicRes.json()) as { error: { type: string } }).error.type).toBe('request_too_large');
    await expectServing();
  });

  it.each([
    [
      '/v1/chat/completions',
      { messages: [{ role: 'user', content: 'x' }] },
      'you must provide a model parameter',
      null,
    ],
    [
      '/v1/chat/completions',
      { model: 'sim-echo', messages: [] },
      expect.stringContaining('empty array'),
      'messages',
    ],
    [
      '/v1/chat/completions',
      { model: 'sim-echo', messages: [{ role: 'robot', content: 'x' }] },
      expect.stringContaining("Invalid value: 'robot'"),
      'messages[0].role',
    ],
    ['/v1/responses', { input: 'x' }, "Missing required parameter: 'model'.", 'model'],
    ['/v1/responses', { model: 'sim-echo', input: [] }, expect.stringContaining('empty'), 'input'],
    [
      '/v1/responses',
      { model: 'sim-echo', input: [{ role: 'robot', content: 'x' }] },
      expect.any(String),
      'input[0].role',
    ],
  ])('OpenAI validation: POST %s %j → 400', async (path, body, message, param) => {
    const res = await postJson(`${sim.url}${path}`, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message,
        type: 'invalid_request_error',
        param,
        code: param === null ? null : expect.any(String),
      },
    });
  });

  it.each([
    [{ max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }, 'model: Field required'],
    [{ model: 'sim-echo', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Field required'],
    [{ model: 'sim-echo', max_tokens: 10, messages: [] }, 'messages: at least one message is required'],
    [
      { model: 'sim-echo', max_tokens: 10, messages: [{ role: 'system', content: 'x' }] },
      "messages.0.role: Input should be 'user' or 'assistant'",
    ],
  ])('Anthropic validation: %j → 400', async (body, message) => {
    const res = await postJson(`${sim.url}/v1/messages`, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message },
      request_id: res.headers.get('request-id'),
    });
  });
});

describe('API key', () => {
  let secured: RunningSimulator;
  beforeAll(async () => {
    secured = await startSimulator({ deltaMs: 1, apiKey: 'sk-sim-secret' });
  });
  afterAll(() => secured.close());

  it('rejects a missing or wrong key with 401 in each protocol’s shape', async () => {
    const missing = await postJson(`${secured.url}/v1/chat/completions`, chat('sim-echo'));
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain(
      "You didn't provide an API key",
    );
    const wrong = await postJson(
      `${secured.url}/v1/responses`,
      { model: 'sim-echo', input: 'x' },
      {
        authorization: 'Bearer sk-wrong',
      },
    );
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const anthropic = await postJson(
      `${secured.url}/v1/messages`,
      { model: 'sim-echo', max_tokens: 5, messages: [] },
      {
        'x-api-key': 'sk-wrong',
      },
    );
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const models = await fetch(`${secured.url}/v1/models`);
    expect(models.status).toBe(401);
  });

  it('accepts the key as a Bearer token or x-api-key on every path', async () => {
    const viaHeader = await postJson(`${secured.url}/v1/chat/completions`, chat('sim-echo'), {
      'x-api-key': 'sk-sim-secret',
    });
    expect(viaHeader.status).toBe(200);
    const viaBearer = await postJson(
      `${secured.url}/v1/messages`,
      { model: 'sim-echo', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] },
      { authorization: 'Bearer sk-sim-secret' },
    );
    expect(viaBearer.status).toBe(200);
  });

  it('makes the openai SDK raise AuthenticationError', async () => {
    const client = new OpenAI({ baseURL: `${secured.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(client.models.list()).rejects.toBeInstanceOf(AuthenticationError);
    const ok = new OpenAI({ baseURL: `${secured.url}/v1`, apiKey: 'sk-sim-secret', maxRetries: 0 });
    expect((await ok.models.list()).data.length).toBeGreaterThan(5);
  });
});

describe('CORS', () => {
  it('answers the preflight with 204 and the requested headers', async () => {
    const res = await fetch(`${sim.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-api-key,anthropic-version,x-stainless-os',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'content-type,x-api-key,anthropic-version,x-stainless-os',
    );
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('exposes the retry and request-id headers on every answer', async () => {
    const res = await postJson(`${sim.url}/v1/chat/completions`, chat('sim-rate-limit'), {
      origin: 'http://example.test',
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'retry-after, x-request-id, request-id, x-should-retry',
    );
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('x-should-retry')).toBe('true');
  });

  it('gives /__sim no CORS headers and refuses it to other sites', async () => {
    const own = await fetch(`${sim.url}/__sim/requests`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    const sameHost = await fetch(`${sim.url}/__sim/status`, { headers: { origin: sim.url } });
    expect(sameHost.status).toBe(200);
    const crossSite: Record<string, string>[] = [
      { origin: 'http://example.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const read = await fetch(`${sim.url}/__sim/requests`, { headers });
      expect(read.status).toBe(403);
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      const clear = await fetch(`${sim.url}/__sim/requests`, { method: 'DELETE', headers });
      expect(clear.status).toBe(403);
    }
    const preflight = await fetch(`${sim.url}/__sim/requests`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'DELETE' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('models and the request log', () => {
  it('lists every scenario as a model with a description', async () => {
    const list = (await (await fetch(`${sim.url}/v1/models`)).json()) as {
      object: string;
      data: { id: string; object: string; owned_by: string; description: string }[];
    };
    expect(list.object).toBe('list');
    expect(list.data.map((m) => m.id)).toEqual(SCENARIOS.map((s) => s.id));
    expect(
      list.data.every((m) => m.object === 'model' && m.owned_by === 'hopbase-sim' && m.description),
    ).toBe(true);
    const one = await fetch(`${sim.url}/v1/models/sim-long`);
    expect(((await one.json()) as { id: string }).id).toBe('sim-long');
  });

  it('records what was sent, newest last, with keys redacted, and can be cleared', async () => {
    await postJson(`${sim.url}/v1/chat/completions`, chat('sim-echo'), {
      authorization: 'Bearer sk-visible?',
    });
    await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k' },
      body: 'not json',
    });
    const log = (await (await fetch(`${sim.url}/__sim/requests`)).json()) as LoggedRequest[];
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: chat('sim-echo') });
    expect(log[0]?.headers.authorization).toBe('[redacted]');
    expect(log[1]).toMatchObject({ path: '/v1/messages', body: 'not json' });
    expect(log[1]?.headers['x-api-key']).toBe('[redacted]');
    expect(log[1]?.id).toBeGreaterThan(log[0]?.id ?? 0);
    expect(Date.parse(log[0]?.at ?? '')).not.toBeNaN();
    const cleared = await fetch(`${sim.url}/__sim/requests`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await (await fetch(`${sim.url}/__sim/requests`)).json()).toEqual([]);
  });

  it('keeps the SHA-256 of each body as received, byte for byte', async () => {
    const raw = '{ "model": "sim-echo",  "messages": [{"role": "user", "content": "héllo"}] }';
    await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    await postJson(`${sim.url}/v1/chat/completions`, JSON.parse(raw));
    const [spaced, compact] = sim.simulator.requests();
    expect(spaced?.rawSha256).toBe(createHash('sha256').update(raw, 'utf8').digest('hex'));
    // Same JSON, other bytes: the parsed bodies are equal, the hashes are not.
    expect(compact?.body).toEqual(spaced?.body);
    expect(compact?.rawSha256).not.toBe(spaced?.rawSha256);
    expect(compact?.rawSha256).toBe(
      createHash('sha256')
        .update(JSON.stringify(JSON.parse(raw)))
        .digest('hex'),
    );
  });

  it(`keeps the newest ${LOG_LIMIT} requests only`, async () => {
    for (let i = 0; i < LOG_LIMIT + 5; i += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, LOG_LIMIT + 5 - i) }, (_, j) =>
          fetch(`${sim.url}/v1/models?n=${i + j}`),
        ),
      );
    }
    const log = sim.simulator.requests();
    expect(log).toHaveLength(LOG_LIMIT);
    const ids = log.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const status = (await (await fetch(`${sim.url}/__sim/status`)).json()) as { requests: number };
    expect(status.requests).toBe(LOG_LIMIT);
  });

  it('keeps a large body truncated, with a marker and the full size', async () => {
    const body = chat('sim-echo', { padding: 'x'.repeat(LOG_BODY_LIMIT * 2) });
    const sent = JSON.stringify(body);
    expect((await postJson(`${sim.url}/v1/chat/completions`, body)).status).toBe(200);
    const [logged] = sim.simulator.requests();
    expect(typeof logged?.body).toBe('string');
    const text = logged?.body as string;
    expect(text.startsWith(sent.slice(0, LOG_BODY_LIMIT))).toBe(true);
    expect(text.endsWith(`…[truncated: ${Buffer.byteLength(sent)} bytes in all]`)).toBe(true);
    expect(text.length).toBeLessThan(LOG_BODY_LIMIT + 100);
    expect(logged?.rawSha256).toBe(createHash('sha256').update(sent).digest('hex'));
  });
});

describe('sim-flaky', () => {
  it('interrupts the first attempt and lets the identical retry succeed', async () => {
    const body = chat('sim-flaky', { stream: true, messages: [{ role: 'user', content: 'flaky stream' }] });
    const first = await readText(await postJson(`${sim.url}/v1/chat/completions`, body));
    expect(frames(first.text).at(-1)?.data).toContain('"error"');
    const other = await readText(
      await postJson(`${sim.url}/v1/chat/completions`, {
        ...body,
        messages: [{ role: 'user', content: 'another' }],
      }),
    );
    expect(frames(other.text).at(-1)?.data).toContain('"error"');
    const retry = await readText(await postJson(`${sim.url}/v1/chat/completions`, body));
    expect(frames(retry.text).at(-1)?.data).toBe('[DONE]');
  });

  it(`remembers the last ${FLAKY_MEMORY} first attempts only, forgetting the oldest`, async () => {
    const ask = (content: string) =>
      postJson(
        `${sim.url}/v1/chat/completions`,
        chat('sim-flaky', { messages: [{ role: 'user', content }] }),
      );
    expect((await ask('oldest')).status).toBe(500);
    expect((await ask('kept')).status).toBe(500);
    // FLAKY_MEMORY - 1 more first attempts that are never retried push 'oldest' out, and only it.
    for (let i = 0; i < FLAKY_MEMORY - 1; i += 50) {
      const batch = Array.from({ length: Math.min(50, FLAKY_MEMORY - 1 - i) }, (_, j) =>
        ask(`never retried ${i + j}`),
      );
      expect((await Promise.all(batch)).every((res) => res.status === 500)).toBe(true);
    }
    expect((await ask('kept')).status).toBe(200);
    expect((await ask('oldest')).status).toBe(500);
  });

  it('lets the SDK’s own retry of a non-streaming request succeed', async () => {
    const client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'k', maxRetries: 1 });
    const response = await client.responses.create({ model: 'sim-flaky', input: 'flaky once' });
    expect(response.status).toBe('completed');
    const attempts = sim.simulator.requests().filter((r) => r.path === '/v1/responses');
    expect(attempts).toHaveLength(2);
  });
});

describe('non-streaming faults', () => {
  it('sim-interrupt answers 500 in the protocol shape', async () => {
    const res = await postJson(`${sim.url}/v1/messages`, {
      model: 'sim-interrupt',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: 'Response stream interrupted, please retry' },
    });
  });

  it('sim-drop cuts the connection', async () => {
    await expect(postJson(`${sim.url}/v1/chat/completions`, chat('sim-drop'))).rejects.toThrow();
    await expectServing();
  });

  it('sim-long returns a few thousand tokens', async () => {
    const res = await postJson(`${sim.url}/v1/chat/completions`, chat('sim-long'));
    const body = (await res.json()) as { usage: { completion_tokens: number } };
    expect(body.usage.completion_tokens).toBeGreaterThan(2000);
    expect(body.usage.completion_tokens).toBeLessThan(6000);
  });
});

describe('client disconnect', () => {
  async function status(): Promise<number> {
    const res = await fetch(`${sim.url}/__sim/status`);
    return ((await res.json()) as { activeGenerations: number }).activeGenerations;
  }

  it.each([
    ['streaming sim-long', '/v1/chat/completions', chat('sim-long', { stream: true })],
    ['streaming sim-stall (silent)', '/v1/responses', { model: 'sim-stall', input: 'x', stream: true }],
    ['non-streaming sim-stall', '/v1/chat/completions', chat('sim-stall')],
  ])('stops the generation: %s', async (_name, path, body) => {
    const controller = new AbortController();
    const pending = fetch(`${sim.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    await waitFor(() => sim.simulator.activeGenerations() === 1);
    if ((body as { stream?: boolean }).stream) {
      const reader = (await pending).body?.getReader();
      await reader?.read();
    }
    expect(await status()).toBe(1);
    const [logged] = sim.simulator.requests();
    const detail = (await (await fetch(`${sim.url}/__sim/status`)).json()) as { activeRequests: number[] };
    expect(detail.activeRequests).toEqual([logged?.id]);
    controller.abort();
    await pending.catch(() => undefined);
    await waitFor(() => sim.simulator.activeGenerations() === 0);
    expect(await status()).toBe(0);
  });
});
