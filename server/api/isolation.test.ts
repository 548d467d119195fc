import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authConfigFromEnv } from '../auth/config.ts';
import { TeamAuth, type TeamConfig } from '../auth/teamAuth.ts';
import { Storage } from '../db/storage.ts';
import { conversation, startTimeout } from '../db/testing.ts';
import { teamRoutes } from '../team.ts';
import { type Answer, type SignInMode, send, startTeamApp, type TeamApp } from './testing.ts';

/**
 * Every route of `/api`, as an attacker tries it, through the production server in team mode, with people
 * known by a trusted proxy's header and by a session cookie. Mallory is signed in as herself and goes after
 * Alice's data: with Alice's ids (from a shared link, a screenshot, a log), with guessed ones, with ids
 * meant to confuse a router, an object or a database; without a session; from another site's page.
 * A route added to the server without a case here fails the first test.
 */

/** In every piece of Alice's data: no answer to anyone else may hold it. */
const secret = `alice-secret-${randomBytes(6).toString('hex')}`;
const ids = { conversation: 'conv_alice', attachment: 'file_alice', attempt: 'conv_alice-t1' };
/**
 * A conversation of Alice's that Mallory asks for but never writes under: in an answer to her (her change
 * stream included) it could only be a leak.
 */
const aliceOnly = 'conv_alice_only';
const aliceEmail = 'alice@example.test';
const malloryEmail = 'mallory@example.test';

/**
 * Path segments, as sent on the wire: Alice's ids, then guesses (objects' own keys, dot segments plain and
 * encoded, an encoded slash, a NUL, SQL and LIKE wildcards, another case, a trailing space, a right-to-left
 * mark, a decomposed é, an encoded lone surrogate, a long id and a very long one).
 */
const segments = [
  ...Object.values(ids),
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '..%2F',
  '%2e%2e',
  '..',
  '%2F',
  '%00',
  encodeURIComponent("' OR '1'='1"),
  '%25',
  '*',
  'CONV_ALICE',
  'conv_alice%20',
  '%E2%80%AE',
  encodeURIComponent('会話🙂'),
  'e%CC%81',
  '%ED%A0%80',
  'x'.repeat(201),
  'x'.repeat(8_000),
];

/** A segment as the router hands it on: decoded when it can be. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

interface Call {
  path: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}
const json = (path: string, value: unknown): Call => ({
  path,
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

/**
 * Each route with what Mallory sends it, given a path segment (for routes without an id, it goes into
 * the query). Her writes carry content of her own, never Alice's secret.
 */
const cases: Record<string, (segment: string) => Call> = {
  'GET /api/me': () => ({ path: '/api/me' }),
  'GET /api/conversations': (segment) => ({
    path: `/api/conversations?q=${segment}&after=${Number.MAX_SAFE_INTEGER}.${segment}`,
  }),
  'GET /api/conversations/:id': (segment) => ({ path: `/api/conversations/${segment}` }),
  'GET /api/conversation-records': (segment) => ({
    path: `/api/conversation-records?id=${segment}&id=${ids.conversation}&id=${aliceOnly}`,
  }),
  // At the version Alice's is at: none of Mallory's is there.
  'PUT /api/conversations/:id': (segment) =>
    json(`/api/conversations/${segment}`, {
      baseVersion: 1,
      record: conversation(decoded(segment), { title: 'Taken over' }),
    }),
  'DELETE /api/conversations/:id': (segment) => ({ path: `/api/conversations/${segment}` }),
  'GET /api/settings': () => ({ path: '/api/settings' }),
  'PUT /api/settings': () =>
    json('/api/settings', { baseVersion: 1, settings: { systemPrompt: 'Taken over' } }),
  'GET /api/changes': (segment) => ({ path: `/api/changes?since=0&q=${segment}` }),
  'PUT /api/attachments/:id': (segment) => ({
    path: `/api/attachments/${segment}?conversation=${ids.conversation}&name=evil.html`,
    body: '<script>alert(document.cookie)</script>',
    headers: { 'content-type': 'text/html' },
  }),
  'GET /api/attachments/:id': (segment) => ({ path: `/api/attachments/${segment}` }),
  'DELETE /api/attachments/:id': (segment) => ({ path: `/api/attachments/${segment}` }),
  'PUT /api/recordings/:attemptId': (segment) =>
    json(`/api/recordings/${segment}?conversation=${ids.conversation}`, {
      items: [],
      raw: 'data: owned\n\n',
    }),
  'GET /api/recordings/:attemptId': (segment) => ({ path: `/api/recordings/${segment}` }),
  'PUT /api/requests/:attemptId': (segment) =>
    json(`/api/requests/${segment}?conversation=${ids.conversation}`, { body: { model: 'owned' } }),
  'GET /api/requests/:attemptId': (segment) => ({ path: `/api/requests/${segment}` }),
  'GET /api/usage': (segment) => ({ path: `/api/usage?from=2026-01-01&to=2026-12-31&user=${segment}` }),
  'GET /api/admin/usage': (segment) => ({ path: `/api/admin/usage?from=${segment}&to=2026-12-31` }),
};
const routeNames = Object.keys(cases);
const methodOf = (route: string) => route.slice(0, route.indexOf(' '));

/** How a person calls a route: their headers, the call's own on top. */
const call = async (app: TeamApp, who: Record<string, string>, route: string, segment: string) => {
  const made = cases[route]?.(segment);
  if (!made) throw new Error(`no case for ${route}`);
  return send(app.url, methodOf(route), made.path, { body: made.body, headers: { ...who, ...made.headers } });
};

let storage: Storage;

beforeAll(async () => {
  storage = await Storage.open({ engine: 'pglite', dataDir: null });
}, startTimeout);

afterAll(async () => {
  await storage?.close();
});

it('has a case for every route of /api the server mounts, and none for a route it does not', () => {
  const auth = new TeamAuth(authConfigFromEnv({ HOPBASE_AUTH: 'header' }) as TeamConfig, storage);
  const mounted = teamRoutes(auth, storage, () => {})
    .routes.filter((route) => route.method !== 'ALL' && route.path.startsWith('/api'))
    .map((route) => `${route.method} ${route.path}`);
  expect([...new Set(mounted)].sort()).toEqual([...routeNames].sort());
});

describe.each<SignInMode>(['header', 'oidc'])('people known by %s', (mode) => {
  let app: TeamApp;
  let alice: Record<string, string>;
  let mallory: Record<string, string>;
  /** Everything of Alice's, read by Alice through the API, before Mallory starts. */
  let before: unknown;

  const aliceHolds = async () => {
    const read = async (path: string) => {
      const answer = await send(app.url, 'GET', path, { headers: alice });
      return {
        status: answer.status,
        type: answer.headers['content-type'],
        body: answer.bytes.toString('hex'),
      };
    };
    return {
      conversation: await read(`/api/conversations/${ids.conversation}`),
      only: await read(`/api/conversations/${aliceOnly}`),
      list: await read('/api/conversations'),
      attachment: await read(`/api/attachments/${ids.attachment}`),
      recording: await read(`/api/recordings/${ids.attempt}`),
      request: await read(`/api/requests/${ids.attempt}`),
      settings: await read('/api/settings'),
    };
  };

  /** Nothing of Alice's in an answer to Mallory, and no failure of the server's. */
  const expectNothingOfAlice = (answer: Answer, what: string) => {
    expect(answer.status, what).toBeLessThan(500);
    for (const mark of [secret, aliceOnly, aliceEmail]) expect(answer.text, what).not.toContain(mark);
  };

  beforeAll(async () => {
    app = await startTeamApp(storage, mode);
    alice = await app.as(aliceEmail);
    mallory = await app.as(malloryEmail);
    const put = async (path: string, body: string | Uint8Array, type = 'application/json') => {
      const answer = await send(app.url, 'PUT', path, { body, headers: { ...alice, 'content-type': type } });
      if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${answer.text}`);
    };
    for (const id of [ids.conversation, aliceOnly])
      await put(
        `/api/conversations/${id}`,
        JSON.stringify({ baseVersion: 0, record: conversation(id, { title: `Plans ${secret}` }) }),
      );
    await put(
      `/api/attachments/${ids.attachment}?conversation=${ids.conversation}&name=plan.png`,
      new TextEncoder().encode(`PNG ${secret}`),
      'image/png',
    );
    await put(
      `/api/recordings/${ids.attempt}?conversation=${ids.conversation}`,
      JSON.stringify({
        items: [{ t: 1, kind: 'event', event: 'message', data: secret }],
        raw: `data: ${secret}\n\n`,
      }),
    );
    await put(
      `/api/requests/${ids.attempt}?conversation=${ids.conversation}`,
      JSON.stringify({ body: { messages: [{ role: 'user', content: secret }] } }),
    );
    await put('/api/settings', JSON.stringify({ baseVersion: 0, settings: { systemPrompt: secret } }));
    before = await aliceHolds();
  }, startTimeout);

  afterAll(async () => {
    await app?.close();
  });

  it('answers no route without a session: 401, and nothing read or changed', async () => {
    // A session no one was given; in OpenID mode, a header naming Alice that no trusted proxy set.
    const forged = {
      origin: app.url,
      'sec-fetch-site': 'same-origin',
      cookie: `hopbase-session=${randomBytes(32).toString('base64url')}`,
      ...(mode === 'oidc' && { 'x-forwarded-email': aliceEmail }),
    };
    for (const route of routeNames)
      for (const who of [{}, forged]) {
        const answer = await call(app, who, route, ids.conversation);
        expect(answer.status, route).toBe(401);
        expect(JSON.parse(answer.text), route).toMatchObject({ error: expect.any(String) });
        expectNothingOfAlice(answer, route);
      }
    expect(await aliceHolds()).toEqual(before);
  });

  it('answers no route to another site’s page, even with Alice’s own session: 403', async () => {
    const { origin: _origin, 'sec-fetch-site': _site, ...session } = alice;
    const elsewhere: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: `https://sub.${new URL(app.url).hostname}` },
      { origin: 'null' },
    ];
    for (const route of routeNames)
      for (const from of elsewhere) {
        const answer = await call(app, { ...session, ...from }, route, ids.attempt);
        expect(answer.status, `${route} from ${JSON.stringify(from)}`).toBe(403);
        expectNothingOfAlice(answer, route);
      }
    // With no browser's marker at all, a read is served (curl, a script) but no change is made.
    for (const route of routeNames.filter((name) => methodOf(name) !== 'GET'))
      expect((await call(app, session, route, ids.attempt)).status, route).toBe(403);
    expect(await aliceHolds()).toEqual(before);
  });

  it('gives Mallory nothing of Alice’s, by Alice’s ids or guessed ones, on any route, and changes none of it', async () => {
    for (const route of routeNames)
      for (const segment of segments) {
        const answer = await call(app, mallory, route, segment);
        expectNothingOfAlice(answer, `${route} with ${segment.slice(0, 40)}`);
      }
    expect(await aliceHolds()).toEqual(before);
  });

  it('makes another person’s writes under Alice’s ids their own, and their deletions delete only their own', async () => {
    const other = await app.as(`other-${mode}@example.test`);
    for (const route of [
      'PUT /api/attachments/:id',
      'PUT /api/recordings/:attemptId',
      'PUT /api/requests/:attemptId',
    ]) {
      const segment = route.includes('attachments') ? ids.attachment : ids.attempt;
      expect((await call(app, other, route, segment)).status, route).toBeLessThan(300);
    }
    const hers = await send(app.url, 'GET', `/api/attachments/${ids.attachment}`, { headers: other });
    expect(hers.text).toBe('<script>alert(document.cookie)</script>');
    expect((await send(app.url, 'GET', `/api/requests/${ids.attempt}`, { headers: other })).text).toBe(
      '{"body":{"model":"owned"}}',
    );
    expect(
      (await send(app.url, 'DELETE', `/api/attachments/${ids.attachment}`, { headers: other })).status,
    ).toBe(204);
    expect(
      (await send(app.url, 'DELETE', `/api/conversations/${ids.conversation}`, { headers: other })).status,
    ).toBe(200);
    expect((await send(app.url, 'GET', `/api/recordings/${ids.attempt}`, { headers: other })).status).toBe(
      404,
    );
    expect(await aliceHolds()).toEqual(before);
  });

  it('refuses a body nested too deep to be written back, on every route that takes JSON, and never fails on it', async () => {
    // 20,000 levels inside every object of the route's own body: JSON.parse takes them, JSON.stringify
    // cannot.
    const mark = '"__deep__"';
    const deepen = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(deepen)
        : typeof value === 'object' && value !== null
          ? {
              ...Object.fromEntries(Object.entries(value).map(([key, member]) => [key, deepen(member)])),
              deep: '__deep__',
            }
          : value;
    const someone = await app.as(`deep-${mode}@example.test`);
    const answers: Record<string, number> = {};
    for (const route of routeNames) {
      const made = cases[route]?.('conv_deep');
      if (made?.headers?.['content-type'] !== 'application/json') continue;
      const body = JSON.stringify(deepen(JSON.parse(String(made.body)))).replaceAll(
        mark,
        `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      );
      const answer = await send(app.url, methodOf(route), made.path, {
        body,
        headers: { ...someone, ...made.headers },
      });
      answers[route] = answer.status;
    }
    // A recording keeps only its items and raw text: what else it holds is left out, not refused.
    expect(answers).toEqual({
      'PUT /api/conversations/:id': 400,
      'PUT /api/settings': 400,
      'PUT /api/recordings/:attemptId': 204,
      'PUT /api/requests/:attemptId': 400,
    });
  });

  it('serves a stored file so that nothing in it can run in this origin, whoever opens it', async () => {
    const files = [
      {
        name: 'page.html',
        type: 'text/html',
        body: '<script>parent.postMessage(document.cookie, "*")</script>',
      },
      {
        name: 'logo.svg',
        type: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      },
      { name: 'fake.png', type: 'image/png', body: '<html><script>alert(1)</script></html>' },
    ];
    for (const [i, file] of files.entries()) {
      const path = `/api/attachments/file_x${i}`;
      const stored = await send(app.url, 'PUT', `${path}?conversation=c_x&name=${file.name}`, {
        body: file.body,
        headers: { ...alice, 'content-type': file.type },
      });
      expect(stored.status).toBe(200);
      const read = await send(app.url, 'GET', path, { headers: alice });
      expect(read.text).toBe(file.body);
      expect(read.headers['content-type']).toBe(file.type);
      // The server's own page policy is replaced, not joined: this one allows no script at all.
      expect(read.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'",
      );
      expect(read.headers['x-content-type-options']).toBe('nosniff');
      expect(read.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Only an image type the browser will not run is shown: the rest is downloaded.
      expect(read.headers['content-disposition']).toBe(
        `${file.type === 'image/png' ? 'inline' : 'attachment'}; filename="${file.name}"; filename*=UTF-8''${file.name}`,
      );
    }
  });
});
