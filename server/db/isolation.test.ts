import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEvent } from './changes.ts';
import { type Person, Storage } from './storage.ts';
import { conversation, newPerson, startTimeout, testDatabases } from './testing.ts';

/**
 * Written as an attacker works: Mallory has her own account and knows (or guesses) Alice's ids, from a
 * shared link, a screenshot, a log, or by trying the shapes ids have. Everything she can reach goes
 * through her own repositories; whatever she does, she sees nothing of Alice's and changes none of it.
 */

const aliceSecret = 'the launch code is 0000';

/** Ids Mallory tries besides Alice's own: empty-ish, wildcards, SQL, the shapes the app's ids have. */
const guesses = ["' OR '1'='1", '%', '_', '*', 'c_0000000000000000', '..', 'x'.repeat(300), '\u0000'];

describe.each(testDatabases())('one person cannot reach another on $name', (database) => {
  let storage: Storage;
  let alice: Person;
  let mallory: Person;
  /** What Alice has, read through her own repositories, before Mallory starts. */
  let before: unknown;

  const aliceHolds = async () => ({
    conversation: await alice.conversations.get('plans'),
    list: await alice.conversations.list(),
    attachment: await alice.attachments.info('photo'),
    bytes: Buffer.from((await alice.attachments.file('photo'))?.bytes ?? []).toString('hex'),
    recording: await alice.recordings.get('plans-t1'),
    request: await alice.requests.get('plans-t1'),
    settings: await alice.settings.get(),
    usage: await alice.usage.totals({ from: '2026-01-01', to: '2026-12-31' }),
  });

  beforeAll(async () => {
    storage = await Storage.open(await database.start());
    alice = await newPerson(storage, 'alice@example.test');
    mallory = await newPerson(storage, 'mallory@example.test');
    await alice.conversations.put(
      conversation('plans', { title: 'Launch plans', systemPrompt: aliceSecret }),
      0,
    );
    await alice.conversations.put(
      conversation('plans', {
        title: 'Launch plans',
        messages: [{ id: 'm1', role: 'user', text: aliceSecret, createdAt: 1 }],
      }),
      1,
    );
    await alice.attachments.put({
      id: 'photo',
      conversationId: 'plans',
      name: 'door.png',
      mimeType: 'image/png',
      bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    await alice.recordings.put('plans-t1', 'plans', { items: [], raw: `data: ${aliceSecret}\n\n` });
    await alice.requests.put('plans-t1', 'plans', { messages: [{ role: 'user', content: aliceSecret }] });
    await alice.settings.put({ systemPrompt: aliceSecret }, 0);
    await alice.usage.record({
      attemptId: 'plans-t1',
      conversationId: 'plans',
      protocol: 'responses',
      model: 'gpt-test',
      startedAt: new Date('2026-05-01T12:00:00Z'),
      inputTokens: 1_000,
      outputTokens: 100,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      interrupted: false,
    });
    before = await aliceHolds();
  }, startTimeout);
  afterAll(async () => {
    await storage?.close();
    await database.stop();
  });

  it("reads nothing of Alice's, by her ids or by guessed ones", async () => {
    for (const id of ['plans', ...guesses]) {
      expect(await mallory.conversations.get(id)).toBeUndefined();
      expect(await mallory.attachments.info(id)).toBeUndefined();
      expect(await mallory.attachments.file(id)).toBeUndefined();
      expect(await mallory.attachments.ofConversation(id)).toEqual([]);
      expect(await mallory.recordings.get(id)).toBeUndefined();
      expect(await mallory.recordings.ofConversation(id)).toEqual([]);
      expect(await mallory.requests.get(id)).toBeUndefined();
    }
    expect(await mallory.recordings.get('plans-t1')).toBeUndefined();
    expect(await mallory.requests.get('plans-t1')).toBeUndefined();
    expect(await mallory.settings.get()).toBeUndefined();
    expect(await mallory.usage.totals({ from: '2000-01-01', to: '2100-01-01' })).toEqual([]);
    expect(await mallory.conversations.changesSince(0)).toEqual([]);
    expect(await storage.forAdmin(mallory.userId)).toBeUndefined();
  });

  it("finds nothing of Alice's by listing or searching, whatever the query or the page cursor", async () => {
    expect((await mallory.conversations.list({ limit: 200 })).items).toEqual([]);
    for (const query of ['launch', 'Launch plans', aliceSecret, '%', '_', '\\', "' OR 1=1 --", 'a'])
      expect((await mallory.conversations.search(query)).items).toEqual([]);
    // A cursor taken from Alice's page starts Mallory's list after it, among Mallory's own.
    const alicePage = await alice.conversations.list({ limit: 1 });
    const cursor = { updatedAt: Number.MAX_SAFE_INTEGER, id: alicePage.items[0]?.id ?? 'plans' };
    expect((await mallory.conversations.list({ after: cursor })).items).toEqual([]);
    for (const after of [
      { updatedAt: 1, id: '\u0000' },
      { updatedAt: Number.NaN, id: 'plans' },
    ])
      expect(await mallory.conversations.list({ after })).toEqual({ items: [], next: undefined });
  });

  it("changes nothing of Alice's: writing, deleting, uploading under her ids makes Mallory's own", async () => {
    // Her version, known from a screenshot: no row of Mallory's is at it, so nothing is written anywhere.
    expect(await mallory.conversations.put(conversation('plans', { title: 'Owned' }), 2)).toEqual({
      ok: false,
      current: undefined,
    });
    expect(await mallory.settings.put({ systemPrompt: 'Owned' }, 1)).toEqual({
      ok: false,
      current: undefined,
    });
    // A deletion deletes (and leaves a tombstone of) Mallory's id only, with Mallory's files and recordings.
    expect(await mallory.conversations.delete('plans')).toMatchObject({ version: 1 });
    expect(await mallory.attachments.delete('photo')).toBe(false);
    expect(await mallory.recordings.delete('plans-t1')).toBe(false);
    // Under the same ids, Mallory only ever writes rows of her own.
    expect(await mallory.conversations.put(conversation('mine', { title: 'Owned' }), 0)).toMatchObject({
      ok: true,
    });
    expect(
      await mallory.attachments.put({
        id: 'photo',
        conversationId: 'mine',
        name: 'evil.png',
        mimeType: 'image/png',
        bytes: new Uint8Array([1, 2, 3]),
      }),
    ).toMatchObject({ ok: true, info: { name: 'evil.png', size: 3 } });
    expect(await mallory.recordings.put('plans-t1', 'mine', { items: [], raw: 'data: owned' })).toEqual({
      ok: true,
    });
    expect(await mallory.requests.put('plans-t1', 'mine', { model: 'evil' })).toEqual({ ok: true });
    await mallory.usage.record({
      attemptId: 'plans-t1',
      conversationId: 'mine',
      protocol: 'chat',
      model: 'evil',
      startedAt: new Date('2026-05-01T12:00:00Z'),
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      interrupted: true,
    });
    expect(await aliceHolds()).toEqual(before);
    // And Alice's own view of what changed lists none of Mallory's doings.
    expect((await alice.conversations.changesSince(0)).map((c) => c.id)).toEqual(['plans']);
  });

  it('cannot name another person at all: only an id a session gave opens a person', async () => {
    for (const id of [
      'alice@example.test',
      `${alice.userId}' OR '1'='1`,
      '',
      '*',
      alice.userId.toUpperCase(),
    ])
      expect(() => storage.forUser(id)).toThrow();
    expect(await storage.sessions.find('A'.repeat(43))).toBeUndefined();
    const session = await storage.sessions.create(alice.userId);
    const [stored] = await storage.db.query("SELECT encode(token_hash, 'base64') AS h FROM sessions");
    const hash = (stored as { h: string }).h;
    // The table leaked: its hashes are no tokens.
    for (const token of [hash, hash.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_')])
      expect(await storage.sessions.find(token)).toBeUndefined();
    expect(await storage.sessions.find(session.token)).toMatchObject({ userId: alice.userId });
  });

  it("hears none of Alice's changes on Mallory's feed", async () => {
    const heard: ChangeEvent[] = [];
    const stop = storage.changes.subscribe(mallory.userId, (event) => heard.push(event));
    const aliceHeard = new Promise<void>((resolve) => {
      const stopAlice = storage.changes.subscribe(alice.userId, () => {
        stopAlice();
        resolve();
      });
    });
    try {
      await alice.conversations.put(conversation('later', { title: aliceSecret }), 0);
      await aliceHeard;
      expect(heard).toEqual([]);
    } finally {
      stop();
    }
  });
});
