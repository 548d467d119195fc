import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Storage } from '../db/storage.ts';
import { startTimeout } from '../db/testing.ts';
import { type Answer, send, startTeamApp, type TeamApp } from './testing.ts';

/**
 * The routes that keep files, recordings and request bodies, fed random requests through the production
 * server in team mode: hostile ids, queries, headers and bodies (bytes, JSON of every shape, gzip good and
 * bad, bombs) from Mallory, from no one and from another site. Never a failure of the server's, every
 * refusal a JSON message, nothing of Alice's read or changed; and whatever is kept is read back exactly.
 */
const limits = { attachmentBytes: 2_000, recordingBytes: 3_000, requestBytes: 3_000 };

let storage: Storage;
let app: TeamApp;
let alice: Record<string, string>;
let mallory: Record<string, string>;
const secret = 'alice-fuzz-secret';

beforeAll(async () => {
  storage = await Storage.open({ engine: 'pglite', dataDir: null }, { limits });
  app = await startTeamApp(storage, 'header');
  alice = await app.as('alice@example.test');
  mallory = await app.as('mallory@example.test');
  const stored = await Promise.all([
    send(app.url, 'PUT', '/api/attachments/file_a?conversation=conv_a&name=a.png', {
      body: `PNG ${secret}`,
      headers: { ...alice, 'content-type': 'image/png' },
    }),
    send(app.url, 'PUT', '/api/recordings/conv_a-t1?conversation=conv_a', {
      body: JSON.stringify({ items: [], raw: secret }),
      headers: alice,
    }),
    send(app.url, 'PUT', '/api/requests/conv_a-t1?conversation=conv_a', {
      body: JSON.stringify({ body: { secret } }),
      headers: alice,
    }),
  ]);
  expect(stored.map((answer) => answer.status)).toEqual([200, 204, 204]);
}, startTimeout);

afterAll(async () => {
  await app?.close();
  await storage?.close();
});

/** An answer's text, unzipped as its `Content-Encoding` says (the client asked for it at random). */
function textOf(answer: Answer): string {
  const encoding = answer.headers['content-encoding'];
  if (answer.bytes.length === 0 || encoding === undefined) return answer.text;
  return (encoding === 'gzip' ? gunzipSync(answer.bytes) : inflateSync(answer.bytes)).toString();
}

/** A refusal's words: `{error}` from the routes, `{error: {message}}` from the server before them. */
function message(text: string): string | undefined {
  const { error } = JSON.parse(text) as { error?: string | { message?: unknown } };
  if (typeof error === 'string') return error;
  return typeof error?.message === 'string' ? error.message : undefined;
}

const aliceHolds = async () =>
  Promise.all(
    ['/api/attachments/file_a', '/api/recordings/conv_a-t1', '/api/requests/conv_a-t1'].map(
      async (path) => (await send(app.url, 'GET', path, { headers: alice })).text,
    ),
  );

/** Any character, NUL and halves of surrogate pairs on their own included (JSON escapes them). */
const anyUnit = fc.oneof(
  fc.constantFrom('\0', '\ud800', '\udfff'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/** A recorded event or comment as the browser keeps it (-0 is 0: JSON has no -0). */
const item = fc.record({
  t: fc.double({ noNaN: true, noDefaultInfinity: true }).map((t) => t + 0),
  kind: fc.constantFrom('event' as const, 'comment' as const),
  event: fc.string({ unit: anyUnit, maxLength: 20 }),
  data: fc.string({ unit: anyUnit, maxLength: 80 }),
});

/** Path segments: Alice's ids, objects' keys, dot segments, encodings good and bad, anything. */
const segment = fc.oneof(
  fc.constantFrom('file_a', 'conv_a-t1', 'conv_a', '__proto__', 'constructor', '', '..', '%2e%2e', '%2F'),
  fc.constantFrom('%00', '%zz', '%ED%A0%80', '%25', '*', 'x'.repeat(201), 'x'.repeat(4_000)),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent),
);

const query = fc.oneof(
  { arbitrary: fc.constantFrom('?conversation=conv_a', '?conversation=conv_a&name=a.png'), weight: 3 },
  fc.constantFrom('', '?conversation=', '?conversation=%00', '?conversation=a&conversation=b', '?name=x'),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 30 }))
    .map(
      ([conversation, name]) =>
        `?conversation=${encodeURIComponent(conversation)}&name=${encodeURIComponent(name)}`,
    ),
);

/** Header values Node will send (no CR, LF or NUL): the server sees only what a socket can carry. */
const headerValue = fc.oneof(
  fc.constantFrom('gzip', 'GZIP', 'gzip, gzip', 'deflate', 'br', 'identity', '', 'x-gzip'),
  fc.constantFrom('image/png', 'IMAGE/SVG+XML', 'text/html; charset=utf-7', 'text/plain;;', '*/*', 'a/b/c'),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((text) => text.replace(/[\r\n\0]/g, '')),
);
const headers = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'content-type',
        'content-encoding',
        'accept-encoding',
        'if-none-match',
        'range',
        'x-http-method-override',
      ),
      headerValue,
    ),
    { maxLength: 3 },
  )
  .map((pairs) => Object.fromEntries(pairs));

/** Recordings, good and nearly so: fields missing or of another kind, items that are not items. */
const recordingLike = fc.oneof(
  {
    arbitrary: fc.record({ items: fc.array(item, { maxLength: 4 }), raw: fc.string({ unit: anyUnit }) }),
    weight: 3,
  },
  fc.record(
    {
      items: fc.oneof(
        fc.array(fc.oneof(item, fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }),
        fc.jsonValue({ maxDepth: 3 }),
      ),
      raw: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
    },
    { requiredKeys: [] },
  ),
);
/** JSON of the route's own shape, of another route's, of anything; text that is not JSON at all. */
const bodyText = (shaped: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: shaped, weight: 4 },
    recordingLike.map((value) => JSON.stringify(value)),
    fc.jsonValue({ maxDepth: 4 }).map((body) => JSON.stringify({ body })),
    // Keys an object-merging reader might trip on.
    fc.constantFrom(
      '{"__proto__":{"raw":"x"},"items":[]}',
      '{"items":[],"raw":"","__proto__":null}',
      '{"body":{"__proto__":{"polluted":1}}}',
      '{"constructor":{"prototype":{"polluted":1}},"body":{}}',
    ),
    fc.jsonValue().map((value) => JSON.stringify(value) ?? ''),
    fc.nat({ max: 20_000 }).map((depth) => `{"body":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
const shapes = {
  attachments: fc.string({ unit: 'binary', maxLength: 500 }),
  recordings: recordingLike.map((value) => JSON.stringify(value)),
  requests: fc
    .dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
    .map((body) => JSON.stringify({ body })),
};
const bodyOf = (route: keyof typeof shapes) =>
  fc.oneof(
    { arbitrary: bodyText(shapes[route]), weight: 5 },
    fc.uint8Array({ maxLength: 2_500 }),
    bodyText(shapes[route]).map((text) => gzipSync(text)),
    // A bomb: small on the wire, far past the limit unzipped.
    fc.nat({ max: 2_000_000 }).map((size) => gzipSync(Buffer.alloc(size, 32))),
    bodyText(shapes[route]).map((text) => gzipSync(text).subarray(0, 15)),
  );

const identity = (name: string) =>
  name === 'mallory'
    ? mallory
    : name === 'another site'
      ? { ...mallory, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }
      : { origin: 'https://evil.example' };

const hostile = fc
  .constantFrom('attachments' as const, 'recordings' as const, 'requests' as const)
  .chain((route) =>
    fc.record({
      method: fc.oneof(
        { arbitrary: fc.constant('PUT'), weight: 4 },
        fc.constantFrom('GET', 'HEAD', 'DELETE', 'POST', 'PATCH'),
      ),
      route: fc.constant(route),
      segment,
      query,
      headers,
      body: bodyOf(route),
      who: fc.oneof(
        { arbitrary: fc.constant('mallory'), weight: 6 },
        fc.constantFrom('no session', 'another site'),
      ),
    }),
  );

describe('the routes that keep files, recordings and request bodies, under hostile requests', () => {
  it('never fail, always explain a refusal, and give away or change nothing of Alice’s', async () => {
    const before = await aliceHolds();
    await fc.assert(
      fc.asyncProperty(hostile, async (r) => {
        const withBody = r.method !== 'GET' && r.method !== 'HEAD';
        const answer = await send(app.url, r.method, `/api/${r.route}/${r.segment}${r.query}`, {
          // A file's type unless the random headers say another (or none: an empty one).
          headers: { ...identity(r.who), 'content-type': 'image/png', ...r.headers },
          ...(withBody && { body: r.body }),
        });
        const text = textOf(answer);
        const what = `${r.method} /api/${r.route}/${r.segment.slice(0, 30)} → ${answer.status} ${text.slice(0, 200)}`;
        expect([200, 204, 400, 401, 403, 404, 409, 410, 413, 415], what).toContain(answer.status);
        if (answer.status >= 400 && r.method !== 'HEAD') expect(message(text), what).toMatch(/\w/);
        expect(text, what).not.toContain(secret);
        if (r.who !== 'mallory') expect([401, 403, 400], what).toContain(answer.status);
      }),
      { numRuns: 500 },
    );
    expect(await aliceHolds()).toEqual(before);
  }, 180_000);
});

describe('what is kept, whatever it holds', () => {
  let n = 0;
  const fresh = () => `id_${n++}`;

  it('is a file read back byte for byte, with its type and its name', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: limits.attachmentBytes }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.constantFrom('image/png', 'image/gif', 'image/svg+xml', 'text/plain', 'application/octet-stream'),
        async (bytes, name, type) => {
          const id = fresh();
          const put = await send(
            app.url,
            'PUT',
            `/api/attachments/${id}?conversation=c&name=${encodeURIComponent(name)}`,
            {
              body: bytes,
              headers: { ...mallory, 'content-type': type },
            },
          );
          expect(put.status, put.text).toBe(200);
          const read = await send(app.url, 'GET', `/api/attachments/${id}`, { headers: mallory });
          expect(read.bytes.equals(Buffer.from(bytes))).toBe(true);
          expect(read.headers['content-type']).toBe(type);
          const exact =
            /filename\*=UTF-8''(.*)$/.exec(String(read.headers['content-disposition']))?.[1] ?? '';
          // PostgreSQL's text holds no NUL: a name loses only those.
          expect(decodeURIComponent(exact)).toBe(name.replaceAll('\0', '') || id);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('is a recording read back exactly, NUL characters and lone surrogates included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { maxLength: 10 }),
        fc.string({ unit: anyUnit, maxLength: 300 }),
        async (items, raw) => {
          const id = fresh();
          const put = await send(app.url, 'PUT', `/api/recordings/${id}?conversation=c`, {
            body: JSON.stringify({ items, raw }),
            headers: mallory,
          });
          expect(put.status, put.text).toBe(204);
          const read = await send(app.url, 'GET', `/api/recordings/${id}`, { headers: mallory });
          expect(JSON.parse(read.text)).toEqual({ items, raw });
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('is a request body read back as the very text it was sent as', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
        async (requestBody) => {
          const id = fresh();
          const text = JSON.stringify({ body: requestBody });
          fc.pre(Buffer.byteLength(text) < limits.requestBytes);
          const put = await send(app.url, 'PUT', `/api/requests/${id}?conversation=c`, {
            body: text,
            headers: mallory,
          });
          expect(put.status, put.text).toBe(204);
          expect((await send(app.url, 'GET', `/api/requests/${id}`, { headers: mallory })).text).toBe(text);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
