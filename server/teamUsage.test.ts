import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { payloads, readText } from '../simulator/testing.ts';
import { buildRequest, type Protocol } from '../src/core/index.ts';
import { startTimeout, testDatabases } from './db/testing.ts';
import type { TeamServer } from './team.ts';
import { type ServedTeam, serveTeam, startTestTeam, type TestTeam } from './testing/teamServer.ts';
import { type FakeGateway, fromApp, type SeenRequest } from './testing.ts';

/**
 * Team mode's per-person limits and usage, as people (and an attacker among them) meet them: the
 * production server behind an authenticating proxy (the header names the person), before a scripted
 * gateway whose streams say exactly what they cost. On PostgreSQL and PGlite.
 */

const LIMITS = { HOPBASE_USER_REQUESTS_PER_MINUTE: '3', HOPBASE_USER_TOKENS_PER_DAY: '1000' };
const PATHS: Record<Protocol, string> = {
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
  messages: '/v1/messages',
};

/** Each protocol's stream as the gateway sends it, and the usage it states. */
const STREAMS: Record<Protocol, { events: string[]; usage: Record<string, number> }> = {
  chat: {
    events: [
      'data: {"id":"c1","object":"chat.completion.chunk","model":"served-model","choices":[{"index":0,"delta":{"content":"Hi"}}]}',
      'data: {"id":"c1","object":"chat.completion.chunk","model":"served-model","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      'data: {"id":"c1","object":"chat.completion.chunk","model":"served-model","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18,"prompt_tokens_details":{"cached_tokens":3},"completion_tokens_details":{"reasoning_tokens":2}}}',
      'data: [DONE]',
    ],
    usage: {
      input_tokens: 11,
      output_tokens: 7,
      cached_tokens: 3,
      cache_write_tokens: 0,
      reasoning_tokens: 2,
    },
  },
  responses: {
    events: [
      'event: response.created\ndata: {"type":"response.created","response":{"id":"r1","model":"served-model","status":"in_progress"}}',
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hi"}',
      'event: response.completed\ndata: {"type":"response.completed","response":{"id":"r1","model":"served-model","status":"completed","output":[],"usage":{"input_tokens":21,"output_tokens":9,"total_tokens":30,"input_tokens_details":{"cached_tokens":5},"output_tokens_details":{"reasoning_tokens":4}}}}',
    ],
    usage: {
      input_tokens: 21,
      output_tokens: 9,
      cached_tokens: 5,
      cache_write_tokens: 0,
      reasoning_tokens: 4,
    },
  },
  messages: {
    events: [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","model":"served-model","content":[],"usage":{"input_tokens":10,"cache_read_input_tokens":4,"cache_creation_input_tokens":2,"output_tokens":1}}}',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}',
      'event: message_stop\ndata: {"type":"message_stop"}',
    ],
    // Anthropic's input excludes the cache: 10 + 4 read + 2 written.
    usage: {
      input_tokens: 16,
      output_tokens: 12,
      cached_tokens: 4,
      cache_write_tokens: 2,
      reasoning_tokens: 0,
    },
  },
};

/** Whole (not streamed) answers, pretty-printed as the APIs send them, and the usage they state. */
const WHOLE: Record<Protocol, { body: unknown; usage: Record<string, number> }> = {
  chat: {
    body: {
      id: 'c2',
      object: 'chat.completion',
      model: 'served-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 31, completion_tokens: 4, total_tokens: 35 },
    },
    usage: { input_tokens: 31, output_tokens: 4 },
  },
  responses: {
    body: {
      id: 'r2',
      object: 'response',
      model: 'served-model',
      status: 'completed',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 41,
        output_tokens: 6,
        total_tokens: 47,
        output_tokens_details: { reasoning_tokens: 1 },
      },
    },
    usage: { input_tokens: 41, output_tokens: 6, reasoning_tokens: 1 },
  },
  messages: {
    body: {
      id: 'm2',
      type: 'message',
      role: 'assistant',
      model: 'served-model',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 51, output_tokens: 8 },
    },
    usage: { input_tokens: 51, output_tokens: 8 },
  },
};

const protocolOf = (url: string) =>
  (Object.entries(PATHS).find(([, path]) => url.startsWith(path))?.[0] ?? 'chat') as Protocol;
const write = (res: ServerResponse, event: string) => res.write(`${event}\n\n`);

/** The gateway, by the model asked for: a whole stream, a cut one, one held open, a JSON answer, a costly one. */
async function answer(seen: SeenRequest, res: ServerResponse): Promise<void> {
  if (seen.url === '/v1/models') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"object":"list","data":[]}');
    return;
  }
  const protocol = protocolOf(seen.url);
  const model = (JSON.parse(seen.body) as { model?: string }).model ?? '';
  const { events } = STREAMS[protocol];
  if (model === 'whole') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(WHOLE[protocol].body, null, 2));
    return;
  }
  if (model === 'refused') {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"no","type":"invalid_request_error"}}');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.flushHeaders();
  if (model === 'costly') {
    write(
      res,
      'data: {"id":"c3","model":"served-model","choices":[],"usage":{"prompt_tokens":900,"completion_tokens":300,"total_tokens":1200}}',
    );
    write(res, 'data: [DONE]');
    res.end();
    return;
  }
  if (model === 'cut' || model === 'held') {
    // Messages: the usage so far is in message_start; then one delta, and the stream breaks (or waits).
    for (const event of events.slice(0, 3)) write(res, event);
    if (model === 'cut') setImmediate(() => res.socket?.destroy());
    return;
  }
  for (const event of events) write(res, event);
  res.end();
}

describe.each(testDatabases())('per-person limits and usage on $name', (database) => {
  let server: TestTeam;
  let gateway: FakeGateway;
  let team: TeamServer;
  let url: string;

  beforeAll(async () => {
    const env = { HOPBASE_AUTH: 'header', HOPBASE_ADMINS: 'boss@example.test', ...LIMITS };
    server = await startTestTeam(env, await database.start(), answer);
    ({ gateway, team, url } = server);
  }, startTimeout);

  afterAll(async () => {
    await server?.close();
    await database.stop();
  });

  let people = 0;
  /** A person of their own for each use: limits and usage are per person. */
  const someone = () => `person${++people}-${database.name.toLowerCase()}@example.test`;

  const ask = (
    email: string | undefined,
    protocol: Protocol,
    /** Over the defaults; as text: sent as it is. */
    body: Record<string, unknown> | string = {},
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ) =>
    fetch(`${url}${PATHS[protocol]}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...fromApp(url),
        ...(email && { 'x-forwarded-email': email }),
        ...headers,
      },
      body:
        typeof body === 'string'
          ? body
          : JSON.stringify({ model: 'asked-model', stream: true, max_tokens: 100, messages: [], ...body }),
      signal,
    });

  const api = (email: string | undefined, path: string) =>
    fetch(`${url}${path}`, { headers: email ? { 'x-forwarded-email': email } : {} });

  /** The usage rows the server recorded for `email`, as stored. */
  const rows = async (email: string) =>
    (await team.storage.db.query(
      `SELECT attempt_id, conversation_id, protocol, model, day::text AS day, input_tokens, output_tokens,
         cached_tokens, cache_write_tokens, reasoning_tokens, interrupted
       FROM usage u JOIN users p ON p.id = u.user_id WHERE p.email = $1 ORDER BY recorded_at, attempt_id`,
      [email],
    )) as Record<string, unknown>[];
  /** Waits until `count` rows are recorded for `email` (recording follows the answer's end). */
  const recorded = (email: string, count: number) =>
    vi.waitFor(
      async () => {
        const found = await rows(email);
        if (found.length < count) throw new Error(`${found.length} of ${count} rows so far`);
        return found;
      },
      { timeout: 15_000, interval: 20 },
    );
  const today = () => new Date().toISOString().slice(0, 10);

  describe('usage, read from the stream the server relays', () => {
    it.each(['chat', 'responses', 'messages'] as const)(
      'records what a %s stream said, under the ids the page sent, with the model it asked for',
      async (protocol) => {
        const email = someone();
        const response = await ask(
          email,
          protocol,
          {},
          {
            'x-hopbase-attempt': 'att_1',
            'x-hopbase-conversation': 'conv_1',
          },
        );
        expect(response.status).toBe(200);
        const { text } = await readText(response);
        // Relayed byte for byte.
        expect(text).toBe(STREAMS[protocol].events.map((e) => `${e}\n\n`).join(''));
        expect(await recorded(email, 1)).toEqual([
          {
            attempt_id: 'att_1',
            conversation_id: 'conv_1',
            protocol,
            model: 'asked-model',
            day: today(),
            interrupted: false,
            ...STREAMS[protocol].usage,
          },
        ]);
        // The page's ids are the server's business: the gateway never saw them.
        const seen = gateway.seen.at(-1);
        expect(seen?.headers['x-hopbase-attempt']).toBeUndefined();
        expect(seen?.headers['x-hopbase-conversation']).toBeUndefined();
      },
    );

    it.each(['chat', 'responses', 'messages'] as const)(
      'records a whole (not streamed) %s answer’s usage',
      async (protocol) => {
        const email = someone();
        const response = await ask(email, protocol, { model: 'whole', stream: false });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(WHOLE[protocol].body);
        const [row] = await recorded(email, 1);
        expect(row).toMatchObject({ protocol, model: 'whole', interrupted: false, ...WHOLE[protocol].usage });
      },
    );

    it('records a stream the gateway cut as interrupted, billed for the usage it had stated', async () => {
      const email = someone();
      const response = await ask(email, 'messages', { model: 'cut' });
      const { cut } = await readText(response);
      expect(cut).toBe(true);
      expect(await recorded(email, 1)).toMatchObject([
        { model: 'cut', interrupted: true, input_tokens: 16, output_tokens: 1, cached_tokens: 4 },
      ]);
    });

    it('records a stream the person stopped as interrupted, billed for the usage it had stated', async () => {
      const email = someone();
      const controller = new AbortController();
      const response = await ask(email, 'messages', { model: 'held' }, {}, controller.signal);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let heard = '';
      while (!heard.includes('text_delta')) heard += (await reader.read()).value ?? '';
      const closedEarly = gateway.closedEarly;
      controller.abort();
      expect(await recorded(email, 1)).toMatchObject([
        { model: 'held', interrupted: true, input_tokens: 16, output_tokens: 1 },
      ]);
      // Stopping the answer stopped the gateway's too.
      await vi.waitFor(() => expect(gateway.closedEarly).toBeGreaterThan(closedEarly));
    });

    it('takes the model from the answer when the body does not name it first and is too long to read whole', async () => {
      const email = someone();
      const body = {
        stream: true,
        messages: [{ role: 'user', content: 'x'.repeat(70_000) }],
        model: 'asked-last',
      };
      await readText(await ask(email, 'chat', JSON.stringify(body)));
      expect(await recorded(email, 1)).toMatchObject([{ model: 'served-model', input_tokens: 11 }]);
    });

    it('gives a reused attempt id a row of its own: a second request never replaces the first one’s bill', async () => {
      const email = someone();
      const ids = { 'x-hopbase-attempt': 'att_same', 'x-hopbase-conversation': 'conv_1' };
      await readText(await ask(email, 'chat', {}, ids));
      await recorded(email, 1);
      await readText(await ask(email, 'messages', {}, ids));
      const found = await recorded(email, 2);
      expect(found.map((row) => row.protocol).sort()).toEqual(['chat', 'messages']);
      expect(found.find((row) => row.protocol === 'chat')?.attempt_id).toBe('att_same');
      expect(found.find((row) => row.protocol === 'messages')?.attempt_id).toMatch(/^srv_/);
    });

    it('names a request without ids by a server-made attempt id, under no conversation', async () => {
      const email = someone();
      await readText(await ask(email, 'responses'));
      expect(await recorded(email, 1)).toMatchObject([
        { attempt_id: expect.stringMatching(/^srv_/), conversation_id: '(none)' },
      ]);
    });

    it('refuses ids that are none before the gateway is called', async () => {
      const email = someone();
      const before = gateway.seen.length;
      const response = await ask(email, 'chat', {}, { 'x-hopbase-attempt': 'a'.repeat(201) });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { type: 'invalid_request_error', message: expect.stringMatching(/x-hopbase-attempt/) },
      });
      expect(gateway.seen.length).toBe(before);
    });

    it('records nothing for an error the gateway answered, nor for the model list', async () => {
      const email = someone();
      expect((await ask(email, 'chat', { model: 'refused' })).status).toBe(400);
      const models = await fetch(`${url}/v1/models`, {
        headers: { 'x-forwarded-email': email, 'sec-fetch-site': 'same-origin' },
      });
      await models.text();
      // A marker after them: once it is recorded, anything before it would have been.
      await readText(await ask(email, 'chat', { model: 'marker' }));
      expect(await recorded(email, 1)).toMatchObject([{ model: 'marker' }]);
      expect(await rows(email)).toHaveLength(1);
    });
  });

  describe('with the built-in simulator answering', () => {
    let simulated: ServedTeam;
    let simUrl: string;
    beforeAll(async () => {
      simulated = await serveTeam(team);
      simUrl = simulated.url;
    });
    afterAll(() => simulated?.close());

    /** What each protocol's stream says it cost, read from its events here. */
    const stated: Record<Protocol, (events: Record<string, unknown>[]) => Record<string, unknown>> = {
      chat: (events) => {
        const usage = events.find((e) => e.usage)?.usage as {
          prompt_tokens: number;
          completion_tokens: number;
        };
        return { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens };
      },
      responses: (events) => {
        const done = events.find((e) => e.type === 'response.completed') as {
          response: { usage: { input_tokens: number; output_tokens: number } };
        };
        return {
          input_tokens: done.response.usage.input_tokens,
          output_tokens: done.response.usage.output_tokens,
        };
      },
      messages: (events) => {
        const start = events.find((e) => e.type === 'message_start') as {
          message: { usage: { input_tokens: number } };
        };
        const delta = events.find((e) => e.type === 'message_delta') as { usage: { output_tokens: number } };
        return { input_tokens: start.message.usage.input_tokens, output_tokens: delta.usage.output_tokens };
      },
    };

    it.each(['chat', 'responses', 'messages'] as const)(
      'records what the simulator’s %s stream said, as the app sends it',
      async (protocol) => {
        const email = someone();
        const request = buildRequest(protocol, {
          model: 'sim-echo',
          messages: [{ role: 'user', text: 'What is a usage line?' }],
        });
        const response = await fetch(`${simUrl}/v1${request.path}`, {
          method: 'POST',
          headers: { ...request.headers, ...fromApp(simUrl), 'x-forwarded-email': email },
          body: JSON.stringify(request.body),
        });
        const { text } = await readText(response);
        const expected = stated[protocol](payloads(text));
        expect(expected.output_tokens).toBeGreaterThan(10);
        expect(await recorded(email, 1)).toMatchObject([
          { protocol, model: 'sim-echo', interrupted: false, ...expected },
        ]);
      },
    );
  });

  describe('limits', () => {
    it.each(['chat', 'responses', 'messages'] as const)(
      'answers a %s request past the requests of a minute with 429 in the protocol’s shape and a true Retry-After; the gateway hears nothing',
      async (protocol) => {
        const email = someone();
        for (let i = 0; i < 3; i++) expect((await ask(email, protocol, { model: 'whole' })).status).toBe(200);
        const before = gateway.seen.length;
        // The official SDKs read the refusal as their API's own rate-limit error.
        const headers = { ...fromApp(url), 'x-forwarded-email': email };
        const refusal =
          protocol === 'messages'
            ? await new Anthropic({
                baseURL: url,
                apiKey: 'none',
                maxRetries: 0,
                defaultHeaders: headers,
              }).messages
                .create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
                .catch((error: unknown) => error)
            : protocol === 'chat'
              ? await new OpenAI({
                  baseURL: `${url}/v1`,
                  apiKey: 'none',
                  maxRetries: 0,
                  defaultHeaders: headers,
                }).chat.completions
                  .create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })
                  .catch((error: unknown) => error)
              : await new OpenAI({
                  baseURL: `${url}/v1`,
                  apiKey: 'none',
                  maxRetries: 0,
                  defaultHeaders: headers,
                }).responses
                  .create({ model: 'm', input: 'Hi' })
                  .catch((error: unknown) => error);
        const rateLimitError = protocol === 'messages' ? Anthropic.RateLimitError : OpenAI.RateLimitError;
        expect(refusal).toBeInstanceOf(rateLimitError);
        const error = refusal as InstanceType<typeof rateLimitError>;
        expect(error.status).toBe(429);
        expect(error.message).toMatch(/HOPBASE_USER_REQUESTS_PER_MINUTE is 3/);
        if (protocol === 'messages')
          expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
        else expect(error.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
        // The first of the three started a moment ago: a slot frees in a minute, less that moment.
        const retryAfter = Number(error.headers?.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(55);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(gateway.seen.length).toBe(before);
      },
    );

    it('says when the oldest request of the minute frees its slot, and admits one then', async () => {
      const email = someone();
      const age = (seconds: number) =>
        team.storage.db.query(
          `UPDATE request_windows SET started = ARRAY(SELECT t - $2 * interval '1 second' FROM unnest(started) t)
           WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
          [email, seconds],
        );
      for (let i = 0; i < 3; i++) {
        expect((await ask(email, 'chat', { model: 'whole' })).status).toBe(200);
        // Started 40, 30 and 20 s ago by the time of the next request.
        await age(10);
      }
      await age(10);
      const refused = await ask(email, 'chat');
      expect(refused.status).toBe(429);
      // The oldest is 40 s old: its slot frees in 20 s.
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(19);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(20);
      await age(20);
      expect((await ask(email, 'chat', { model: 'whole' })).status).toBe(200);
      expect((await ask(email, 'chat')).status).toBe(429);
    });

    it('refuses a person past the tokens of a day until midnight UTC; others are not held to it', async () => {
      const email = someone();
      await readText(await ask(email, 'chat', { model: 'costly' }));
      await recorded(email, 1);
      const before = gateway.seen.length;
      const asked = Date.now();
      const refused = await ask(email, 'messages');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        type: 'error',
        error: { type: 'rate_limit_error', message: expect.stringMatching(/1200 tokens today/) },
      });
      const midnight = new Date(asked);
      midnight.setUTCHours(24, 0, 0, 0);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Math.abs(retryAfter - (midnight.getTime() - asked) / 1000)).toBeLessThanOrEqual(2);
      expect(gateway.seen.length).toBe(before);
      expect((await ask(someone(), 'messages', { model: 'whole' })).status).toBe(200);
    });

    it('lets no other site’s page use up a person’s requests (the proxy refuses it, nothing counted)', async () => {
      const email = someone();
      const before = gateway.seen.length;
      for (let i = 0; i < 5; i++) {
        const forged = await ask(
          email,
          'chat',
          {},
          { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        );
        expect(forged.status).toBe(403);
      }
      expect(gateway.seen.length).toBe(before);
      for (let i = 0; i < 3; i++) expect((await ask(email, 'chat', { model: 'whole' })).status).toBe(200);
    });

    it('refuses no one signed in (401, in the protocol’s shape), before any limit or the gateway', async () => {
      const before = gateway.seen.length;
      const refused = await ask(undefined, 'messages');
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      expect(gateway.seen.length).toBe(before);
    });
  });

  describe('usage routes, as an attacker tries them', () => {
    const range = () => `from=${today()}&to=${today()}`;

    it('shows a person their own usage per day, model and protocol, and nothing of anyone else’s', async () => {
      const alice = someone();
      const mallory = someone();
      await readText(await ask(alice, 'messages', { model: 'alice-model' }));
      await recorded(alice, 1);
      const own = await api(alice, `/api/usage?${range()}`);
      expect(own.headers.get('cache-control')).toBe('no-store');
      expect(await own.json()).toEqual({
        from: today(),
        to: today(),
        totals: [
          {
            day: today(),
            model: 'alice-model',
            protocol: 'messages',
            attempts: 1,
            interrupted: 0,
            inputTokens: 16,
            outputTokens: 12,
            cachedTokens: 4,
            cacheWriteTokens: 2,
            reasoningTokens: 0,
          },
        ],
      });
      // Mallory's own is empty, however she asks: her session decides whose, never the query.
      for (const query of [
        range(),
        `${range()}&user=${alice}`,
        `${range()}&userId=1&email=${alice}`,
        `from=2000-01-01&to=2000-12-31`,
      ]) {
        const theirs = (await (await api(mallory, `/api/usage?${query}`)).json()) as { totals: unknown[] };
        expect(theirs.totals).toEqual([]);
      }
    });

    it('shows everyone’s usage per person to an administrator, and to no one else (403), nor to nobody (401)', async () => {
      const alice = someone();
      await readText(await ask(alice, 'responses', { model: 'audited' }));
      await recorded(alice, 1);
      expect((await api(alice, `/api/admin/usage?${range()}`)).status).toBe(403);
      // A bad query tells a non-administrator nothing more than 403.
      expect((await api(alice, '/api/admin/usage?from=junk')).status).toBe(403);
      expect((await api(undefined, `/api/admin/usage?${range()}`)).status).toBe(401);
      expect((await api(undefined, `/api/usage?${range()}`)).status).toBe(401);
      const boss = (await (await api('boss@example.test', `/api/admin/usage?${range()}`)).json()) as {
        totals: { email: string; model: string; protocol: string; day: string; inputTokens: number }[];
      };
      expect(boss.totals).toContainEqual(
        expect.objectContaining({
          email: alice,
          model: 'audited',
          protocol: 'responses',
          day: today(),
          inputTokens: 21,
        }),
      );
    });

    it('refuses a range that is no range, with a message that says why', async () => {
      const email = someone();
      for (const [query, message] of [
        ['', /from must be a day written YYYY-MM-DD/],
        ['from=2026-01-01', /to must be a day/],
        ['from=2026-02-30&to=2026-03-01', /from must be a day.*not "2026-02-30"/],
        ['from=26-01-01&to=2026-03-01', /from must be a day/],
        ['from=0000-01-01&to=2026-03-01', /from must be a day/],
        ['from=2026-03-02&to=2026-03-01', /comes after/],
        ['from=2025-01-01&to=2026-01-02', /At most 366 days.*367/],
        ["from=2026-01-01' OR '1'='1&to=2026-01-02", /from must be a day/],
      ] as const) {
        const response = await api(email, `/api/usage?${query}`);
        expect(response.status, query).toBe(400);
        expect(((await response.json()) as { error: string }).error).toMatch(message);
      }
      expect((await api(email, '/api/usage?from=2024-01-01&to=2024-12-31')).status).toBe(200);
    });
  });
});
