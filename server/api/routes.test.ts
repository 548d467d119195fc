import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authConfigFromEnv } from '../auth/config.ts';
import { TeamAuth, type TeamConfig } from '../auth/teamAuth.ts';
import { Storage } from '../db/storage.ts';
import { conversation, startTimeout } from '../db/testing.ts';
import { apiRoutes } from './routes.ts';

/**
 * The team API as an attacker tries it: Mallory, signed in as herself (behind the test's authenticating
 * proxy: the header names the person), goes after Alice's data with Alice's ids and guessed ones.
 */
let storage: Storage;
let server: Server;
let base: string;

beforeAll(async () => {
  storage = await Storage.open({ engine: 'pglite', dataDir: null });
  const auth = new TeamAuth(authConfigFromEnv({ HOPBASE_AUTH: 'header' }) as TeamConfig, storage);
  server = createServer(getRequestListener(apiRoutes(auth, storage).fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, startTimeout);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await storage?.close();
});

const as =
  (email: string) =>
  (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'x-forwarded-email': email,
        'sec-fetch-site': 'same-origin',
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
const alice = as('alice@example.test');
const mallory = as('mallory@example.test');

const put = (who: typeof alice, id: string, baseVersion: number, over = {}) =>
  who(`/api/conversations/${id}`, { method: 'PUT', body: { baseVersion, record: conversation(id, over) } });

describe('conversations', () => {
  it('are written from the version they were made from, and a stale write gets what is stored', async () => {
    expect((await put(alice, 'conv_a1', 0)).status).toBe(200);
    const stale = await put(alice, 'conv_a1', 0, { title: 'Other device' });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { current: { version: number } }).current.version).toBe(1);
    expect((await put(alice, 'conv_a1', 1, { title: 'Renamed' })).status).toBe(200);
    const read = (await (await alice('/api/conversations/conv_a1')).json()) as { record: { title: string } };
    expect(read.record.title).toBe('Renamed');
  });

  it('are listed a page at a time, and found by their words', async () => {
    for (let i = 0; i < 5; i++)
      await put(alice, `conv_page${i}`, 0, { title: `Page ${i}`, updatedAt: 1_800_000_000_000 + i });
    const first = (await (await alice('/api/conversations?limit=2')).json()) as {
      items: { id: string }[];
      next: string;
    };
    expect(first.items.map((c) => c.id)).toEqual(['conv_page4', 'conv_page3']);
    const second = (await (
      await alice(`/api/conversations?limit=2&after=${encodeURIComponent(first.next)}`)
    ).json()) as {
      items: { id: string }[];
    };
    expect(second.items.map((c) => c.id)).toEqual(['conv_page2', 'conv_page1']);
    const found = (await (await alice('/api/conversations?q=reykjav')).json()) as {
      items: unknown[];
      total: number;
    };
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.total).toBe(found.items.length);
    // Every page of a search counts all that match: one per page here, five in all.
    const titled = (await (await alice('/api/conversations?q=page&limit=1')).json()) as {
      items: unknown[];
      total: number;
    };
    expect(titled).toMatchObject({ items: [expect.anything()], total: 5 });
    expect((await alice('/api/conversations?after=nonsense')).status).toBe(400);
  });

  it('are read several at once, deleted ones as tombstones, unknown ones left out', async () => {
    await put(alice, 'conv_b1', 0, { title: 'One' });
    await put(alice, 'conv_b2', 0, { title: 'Two' });
    expect((await alice('/api/conversations/conv_b2', { method: 'DELETE' })).status).toBe(200);
    const read = (await (
      await alice('/api/conversation-records?id=conv_b1&id=conv_b2&id=conv_nowhere&id=conv_b1')
    ).json()) as { items: { id: string; deleted: boolean; record?: { title: string } }[] };
    expect(read.items.map(({ id, deleted, record }) => [id, deleted, record?.title])).toEqual([
      ['conv_b1', false, 'One'],
      ['conv_b2', true, undefined],
    ]);
    const many = Array.from({ length: 101 }, (_, i) => `id=conv_${i}`).join('&');
    expect((await alice(`/api/conversation-records?${many}`)).status).toBe(400);
  });

  it('refuse a record whose id is not the address’s, a bad version, a body that is not JSON', async () => {
    const other = await alice('/api/conversations/conv_x', {
      method: 'PUT',
      body: { baseVersion: 0, record: conversation('conv_y') },
    });
    expect(other.status).toBe(400);
    expect(
      (
        await alice('/api/conversations/conv_x', {
          method: 'PUT',
          body: { baseVersion: -1, record: conversation('conv_x') },
        })
      ).status,
    ).toBe(400);
    const junk = await fetch(`${base}/api/conversations/conv_x`, {
      method: 'PUT',
      headers: {
        'x-forwarded-email': 'alice@example.test',
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      body: '{"baseVersion":',
    });
    expect(junk.status).toBe(400);
    expect(await junk.json()).toMatchObject({ error: expect.stringMatching(/Not a valid request/) });
  });
});

describe('Mallory after Alice’s data', () => {
  it('cannot read, find, change or delete Alice’s conversation, with its id or a guessed one', async () => {
    await put(alice, 'conv_secret', 0, { title: 'Alice’s secret plan' });
    for (const id of ['conv_secret', 'conv_a1', 'conv_guess'])
      expect((await mallory(`/api/conversations/${id}`)).status).toBe(404);
    const batch = (await (await mallory('/api/conversation-records?id=conv_secret&id=conv_a1')).json()) as {
      items: unknown[];
    };
    expect(batch.items).toEqual([]);
    const listed = (await (await mallory('/api/conversations')).json()) as { items: unknown[] };
    expect(listed.items).toEqual([]);
    const found = (await (await mallory('/api/conversations?q=secret')).json()) as { items: unknown[] };
    expect(found.items).toEqual([]);
    // Her write under Alice's id makes her own conversation; Alice's is untouched.
    expect((await put(mallory, 'conv_secret', 1, { title: 'Taken over' })).status).toBe(404);
    expect((await put(mallory, 'conv_secret', 0, { title: 'Mallory’s own' })).status).toBe(200);
    expect((await mallory('/api/conversations/conv_secret', { method: 'DELETE' })).status).toBe(200);
    const still = (await (await alice('/api/conversations/conv_secret')).json()) as {
      deleted: boolean;
      record: { title: string };
    };
    expect(still.deleted).toBe(false);
    expect(still.record.title).toBe('Alice’s secret plan');
  });

  it('never keeps a gateway key in the settings', async () => {
    const keyholder = as('keyholder@example.test');
    const settings = { systemPrompt: 'Hi', apiKey: 'sk-browser-only' };
    expect(
      (await keyholder('/api/settings', { method: 'PUT', body: { baseVersion: 0, settings } })).status,
    ).toBe(200);
    const read = (await (await keyholder('/api/settings')).json()) as { document: object };
    expect(read.document).toEqual({ systemPrompt: 'Hi' });
  });

  it('cannot read or change Alice’s settings', async () => {
    expect(
      (
        await alice('/api/settings', {
          method: 'PUT',
          body: { baseVersion: 0, settings: { systemPrompt: 'Alice' } },
        })
      ).status,
    ).toBe(200);
    const mine = (await (await mallory('/api/settings')).json()) as { document: unknown };
    expect(mine.document).toEqual({});
    expect(
      (
        await mallory('/api/settings', {
          method: 'PUT',
          body: { baseVersion: 1, settings: { systemPrompt: 'M' } },
        })
      ).status,
    ).toBe(409);
    const hers = (await (await alice('/api/settings')).json()) as { document: { systemPrompt: string } };
    expect(hers.document.systemPrompt).toBe('Alice');
  });

  it.each([
    ['one by one', '/api/changes', 'conv_while_listening'],
    ['a page at a time', '/api/changes?since=0&batch=1', 'conv_while_listening_batched'],
  ])('hears none of Alice’s changes, %s', async (_, path, hers) => {
    const controller = new AbortController();
    const response = await fetch(`${base}${path}`, {
      headers: { 'x-forwarded-email': 'mallory@example.test' },
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let heard = '';
    while (!heard.includes('event: ready')) heard += (await reader.read()).value ?? '';
    await put(alice, hers, 0);
    // Mallory's own change comes after Alice's: when it arrives, Alice's would have too.
    const marker = `${hers}_mallory_marker`;
    await put(mallory, marker, 0);
    while (!heard.includes(marker)) heard += (await reader.read()).value ?? '';
    controller.abort();
    expect(heard).not.toContain(`"${hers}"`);
    expect(heard).not.toContain('conv_a1');
  });

  it('can do nothing without being signed in, or from another site', async () => {
    for (const path of [
      '/api/conversations',
      '/api/conversations/conv_secret',
      '/api/settings',
      '/api/changes',
    ])
      expect((await fetch(`${base}${path}`)).status).toBe(401);
    const crossSite = await alice('/api/conversations/conv_secret', {
      method: 'DELETE',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect((await alice('/api/conversations/conv_secret')).status).toBe(200);
  });
});

describe('the change stream', () => {
  it('sends what was missed a page per event to a page that asks so, then the live changes one by one', async () => {
    const before = (await (await put(alice, 'conv_batch_before', 0)).json()) as { change: number };
    const first = (await (await put(alice, 'conv_batch_a', 0)).json()) as { change: number };
    const second = (await (await put(alice, 'conv_batch_b', 0)).json()) as { change: number };
    const controller = new AbortController();
    const response = await fetch(`${base}/api/changes?since=${before.change}&batch=1`, {
      headers: { 'x-forwarded-email': 'alice@example.test' },
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let heard = '';
    while (!heard.includes('event: ready')) heard += (await reader.read()).value ?? '';
    const missed = /event: changes\ndata: (.*)\nid: (\d+)\n\n/.exec(heard);
    expect(JSON.parse(missed![1]!)).toEqual([
      { kind: 'conversation', id: 'conv_batch_a', version: 1, deleted: false, change: first.change },
      { kind: 'conversation', id: 'conv_batch_b', version: 1, deleted: false, change: second.change },
    ]);
    expect(missed![2]).toBe(String(second.change));
    expect(heard).not.toContain('event: change\n');
    await put(alice, 'conv_batch_live', 0);
    while (!/conv_batch_live[\s\S]*\n\n/.test(heard)) heard += (await reader.read()).value ?? '';
    controller.abort();
    expect(heard).toMatch(/event: change\ndata: \{"kind":"conversation","id":"conv_batch_live",/);
  });

  it('sends what a page missed since its last event, then the live changes', async () => {
    const written = (await (await put(alice, 'conv_before', 0)).json()) as { change: number };
    await put(alice, 'conv_after_a', 0);
    const controller = new AbortController();
    const response = await fetch(`${base}/api/changes`, {
      headers: { 'x-forwarded-email': 'alice@example.test', 'last-event-id': String(written.change) },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let heard = '';
    while (!heard.includes('event: ready')) heard += (await reader.read()).value ?? '';
    expect(heard).toContain('conv_after_a');
    expect(heard).not.toContain('"conv_before"');
    await put(alice, 'conv_live', 0);
    while (!/conv_live[\s\S]*\n\n/.test(heard)) heard += (await reader.read()).value ?? '';
    controller.abort();
    expect(heard).toMatch(
      /event: change\ndata: \{"kind":"conversation","id":"conv_live","version":1,"deleted":false\}\nid: \d+\n/,
    );
  });
});
