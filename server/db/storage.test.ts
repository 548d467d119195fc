import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from './conversations.ts';
import { TooLarge } from './limits.ts';
import type { DatabaseConfig } from './open.ts';
import { Storage } from './storage.ts';
import { conversation, newPerson, startTimeout, testDatabases } from './testing.ts';

describe.each(testDatabases())('storage on $name', (database) => {
  let storage: Storage;
  let config: DatabaseConfig;
  beforeAll(async () => {
    config = await database.start();
    storage = await Storage.open(config, {
      limits: { attachmentBytes: 1_000, recordingBytes: 2_000, requestBytes: 2_000 },
    });
  }, startTimeout);
  afterAll(async () => {
    await storage?.close();
    await database.stop();
  });

  describe('conversations', () => {
    it('stores the record as given and reads it back, fields it does not know included', async () => {
      const person = await newPerson(storage);
      const record = conversation('c1', { futureField: { kept: true } });
      expect(await person.conversations.put(record, 0)).toMatchObject({ ok: true, version: 1 });
      const stored = await person.conversations.get('c1');
      expect(stored).toMatchObject({ deleted: false, id: 'c1', title: 'A conversation', version: 1 });
      expect(stored?.deleted === false && stored.record).toEqual(record);
    });

    it('writes from the version it was made from, and hands back the current record when it moved on', async () => {
      const person = await newPerson(storage);
      await person.conversations.put(conversation('c1'), 0);
      expect(await person.conversations.put(conversation('c1', { title: 'On the phone' }), 1)).toMatchObject({
        ok: true,
        version: 2,
      });
      // The laptop still holds version 1: its write is refused, and it is given version 2 to merge with.
      const late = await person.conversations.put(conversation('c1', { title: 'On the laptop' }), 1);
      expect(late.ok).toBe(false);
      expect(!late.ok && late.current).toMatchObject({ deleted: false, version: 2, title: 'On the phone' });
      // A second upload of a conversation the server has is a conflict too: nothing is doubled.
      const again = await person.conversations.put(conversation('c1'), 0);
      expect(again).toMatchObject({ ok: false, current: { version: 2 } });
      expect((await person.conversations.get('c1'))?.version).toBe(2);
    });

    it('keeps a tombstone when deleted: no content, never written again, and learned of by id', async () => {
      const person = await newPerson(storage);
      await person.conversations.put(conversation('c1'), 0);
      await person.attachments.put({
        id: 'f1',
        conversationId: 'c1',
        name: 'a.txt',
        mimeType: 'text/plain',
        bytes: new Uint8Array([104, 105]),
      });
      await person.recordings.put('c1-t2', 'c1', { items: [], raw: 'data: {}\n\n' });
      await person.requests.put('c1-t2', 'c1', { model: 'm', messages: [] });
      expect(await person.conversations.delete('c1')).toMatchObject({ version: 2 });
      expect(await person.conversations.get('c1')).toMatchObject({ deleted: true, version: 2 });
      expect(await person.attachments.info('f1')).toBeUndefined();
      expect(await person.recordings.get('c1-t2')).toBeUndefined();
      expect(await person.requests.get('c1-t2')).toBeUndefined();
      for (const table of ['attachments', 'recordings', 'request_bodies'])
        expect(await storage.db.query(`SELECT 1 FROM ${table} WHERE user_id = $1`, [person.userId])).toEqual(
          [],
        );
      expect(await person.conversations.delete('c1')).toBeUndefined();
      const late = await person.conversations.put(conversation('c1'), 2);
      expect(late).toMatchObject({ ok: false, current: { deleted: true, version: 2 } });
      expect((await person.conversations.list()).items).toEqual([]);
      expect((await person.conversations.search('Reykjavik')).items).toEqual([]);
      // Deleted on one device before another uploaded it: the upload finds the tombstone.
      await person.conversations.delete('never-uploaded');
      expect(await person.conversations.put(conversation('never-uploaded'), 0)).toMatchObject({
        ok: false,
        current: { deleted: true },
      });
      const refused = { ok: false, reason: 'deleted' };
      expect(await person.recordings.put('t9', 'never-uploaded', { items: [], raw: '' })).toEqual(refused);
      expect(await person.requests.put('t9', 'never-uploaded', { model: 'm' })).toEqual(refused);
      expect(await person.requests.get('t9')).toBeUndefined();
      expect(
        await person.attachments.put({
          id: 'f9',
          conversationId: 'never-uploaded',
          name: 'b.txt',
          mimeType: 'text/plain',
          bytes: new Uint8Array([1]),
        }),
      ).toEqual(refused);
    });

    it('lists a page at a time, most recently changed first, every conversation once', async () => {
      const person = await newPerson(storage);
      // Two share an update time: the id orders them, and neither is lost between pages.
      const times = [5, 3, 3, 9, 1, 7, 3];
      for (const [i, t] of times.entries())
        await person.conversations.put(conversation(`c${i}`, { updatedAt: t, title: `T${i}` }), 0);
      const seen: string[] = [];
      let page = await person.conversations.list({ limit: 3 });
      for (;;) {
        expect(page.items.length).toBeLessThanOrEqual(3);
        seen.push(...page.items.map((c) => c.id));
        if (!page.next) break;
        page = await person.conversations.list({ limit: 3, after: page.next });
      }
      expect(seen).toEqual(['c3', 'c5', 'c0', 'c6', 'c2', 'c1', 'c4']);
      expect((await person.conversations.list({ limit: 1_000_000 })).items).toHaveLength(7);
    });

    it('searches titles and text as the sidebar does: any case, no accents, markdown as words', async () => {
      const person = await newPerson(storage);
      await person.conversations.put(conversation('iceland'), 0);
      await person.conversations.put(
        conversation('paris', {
          title: 'Café talk',
          messages: [{ id: 'm', role: 'user', text: '100% of _these_ cafés', createdAt: 1 }],
        }),
        0,
      );
      const ids = async (query: string) => (await person.conversations.search(query)).items.map((c) => c.id);
      expect(await ids('REYKJAVIK')).toEqual(['iceland']);
      expect(await ids('is reykjavík')).toEqual(['iceland']);
      expect(await ids('capital of')).toEqual(['iceland']);
      expect(await ids('cafe')).toEqual(['paris']);
      // Only the current attempt counts; wildcards are letters like any other.
      expect(await ids('lost in transit')).toEqual([]);
      expect(await ids('100%')).toEqual(['paris']);
      expect(await ids('of_')).toEqual([]);
      expect(await ids('of _these')).toEqual(['paris']);
      // No match across two fields (the title and the first message).
      expect(await ids('conversation what')).toEqual([]);
      expect(await ids('   ')).toEqual([]);
    });

    it('searches an answer whose record holds its text in its parts only, as the browser writes it', async () => {
      const person = await newPerson(storage);
      const parts = [
        { kind: 'reasoning', key: 'r', text: 'Thinking of Oslo' },
        { kind: 'text', key: '0', text: 'It is Tórshavn.' },
      ];
      const answer = {
        id: 'a',
        role: 'assistant',
        createdAt: 1,
        attempts: [{ id: 't', startedAt: 1, turn: { status: 'complete', parts } }],
      };
      await person.conversations.put(conversation('parts', { messages: [answer] }), 0);
      // As an earlier version wrote it back: the text it read as missing stored empty, the parts whole.
      const emptied = { status: 'complete', text: '', reasoning: '', parts: parts.slice(1) };
      const written = { ...answer, attempts: [{ id: 't', startedAt: 1, turn: emptied }] };
      await person.conversations.put(conversation('emptied', { messages: [written] }), 0);
      const ids = async (query: string) => (await person.conversations.search(query)).items.map((c) => c.id);
      expect((await ids('torshavn')).sort()).toEqual(['emptied', 'parts']);
      expect(await ids('oslo')).toEqual(['parts']);
    });

    it('keeps text PostgreSQL cannot hold as is (NUL) in the record, and leaves it out of the columns', async () => {
      const person = await newPerson(storage);
      const record = conversation('nul', {
        title: 'a\u0000b',
        messages: [{ id: 'm', role: 'user', text: 'x\u0000y \ud800 z', createdAt: 1 }],
      });
      expect(await person.conversations.put(record, 0)).toMatchObject({ ok: true });
      const stored = await person.conversations.get('nul');
      expect(stored?.deleted === false && stored.record).toEqual(record);
      expect(stored?.deleted === false && stored.title).toBe('ab');
      expect((await person.conversations.search('xy')).items.map((c) => c.id)).toEqual(['nul']);
    });

    it('refuses a record that is not one, or is too large, before storing anything', async () => {
      const person = await newPerson(storage);
      await expect(
        person.conversations.put({ id: '', title: 't', createdAt: 1, messages: [] }, 0),
      ).rejects.toThrow();
      await expect(
        person.conversations.put(
          { title: 't', createdAt: 1, messages: [] } as unknown as ConversationRecord,
          0,
        ),
      ).rejects.toThrow();
      const huge = conversation('huge', { title: 'x'.repeat(10_000_001) });
      await expect(person.conversations.put(huge, 0)).rejects.toBeInstanceOf(TooLarge);
      expect((await person.conversations.list()).items).toEqual([]);
    });

    it('tells what changed after a point, deletions included, in order', async () => {
      const person = await newPerson(storage);
      const first = await person.conversations.put(conversation('a'), 0);
      if (!first.ok) throw new Error('not written');
      await person.conversations.put(conversation('b'), 0);
      await person.conversations.put(conversation('a', { title: 'Renamed' }), 1);
      await person.conversations.delete('b');
      const changes = await person.conversations.changesSince(first.change);
      expect(changes.map(({ id, version, deleted }) => ({ id, version, deleted }))).toEqual([
        { id: 'a', version: 2, deleted: false },
        { id: 'b', version: 2, deleted: true },
      ]);
    });
  });

  describe('attachments', () => {
    it('stores the bytes once per id: the same file again is a no-op, another file under its id is refused', async () => {
      const person = await newPerson(storage);
      const file = {
        id: 'f1',
        conversationId: 'c1',
        name: 'notes.txt',
        mimeType: 'text/plain',
        bytes: new TextEncoder().encode('hello'),
      };
      const first = await person.attachments.put(file);
      expect(first).toMatchObject({
        ok: true,
        info: { size: 5, sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' },
      });
      expect(await person.attachments.put(file)).toEqual(first);
      expect(await person.attachments.put({ ...file, bytes: new TextEncoder().encode('other') })).toEqual({
        ok: false,
        reason: 'different',
      });
      const stored = await person.attachments.file('f1');
      expect(Buffer.from(stored?.bytes ?? []).toString()).toBe('hello');
      expect(stored?.info).toEqual(first.ok && first.info);
      expect((await person.attachments.ofConversation('c1')).map((a) => a.id)).toEqual(['f1']);
      expect(await person.attachments.delete('f1')).toBe(true);
      expect(await person.attachments.file('f1')).toBeUndefined();
    });

    it('refuses a media type that is not one, before storing anything', async () => {
      const person = await newPerson(storage);
      for (const mimeType of [
        '',
        'image',
        'text/html\r\nx-evil: 1',
        'Image/PNG',
        'text/plain; charset=utf-8',
      ])
        await expect(
          person.attachments.put({
            id: 'f',
            conversationId: 'c',
            name: 'n',
            mimeType,
            bytes: new Uint8Array(1),
          }),
        ).rejects.toThrow(/media type/);
      expect(await person.attachments.info('f')).toBeUndefined();
    });

    it('refuses a file above the limit', async () => {
      const person = await newPerson(storage);
      const bytes = new Uint8Array(1_001);
      await expect(
        person.attachments.put({ id: 'big', conversationId: 'c', name: 'b', mimeType: 'image/png', bytes }),
      ).rejects.toBeInstanceOf(TooLarge);
      expect(await person.attachments.info('big')).toBeUndefined();
    });
  });

  describe('recordings', () => {
    it("keeps an attempt's events and raw body, grown as the attempt goes on", async () => {
      const person = await newPerson(storage);
      const items = [
        { t: 1.5, kind: 'event' as const, event: 'message', data: '{"x":1}' },
        { t: 2, kind: 'comment' as const, event: '', data: ' keep-alive' },
      ];
      expect(await person.recordings.put('t1', 'c1', { items: items.slice(0, 1), raw: 'data: 1' })).toEqual({
        ok: true,
      });
      expect(
        await person.recordings.put('t1', 'c1', { items, raw: 'data: 1\n\n: keep-alive\u0000\n' }),
      ).toEqual({ ok: true });
      expect(await person.recordings.get('t1')).toEqual({
        attemptId: 't1',
        conversationId: 'c1',
        items,
        raw: 'data: 1\n\n: keep-alive\u0000\n',
      });
      expect(await person.recordings.ofConversation('c1')).toEqual(['t1']);
      await expect(
        person.recordings.put('t2', 'c1', { items: [{ t: 'soon' }], raw: '' } as never),
      ).rejects.toThrow();
    });

    it('refuses a recording that would change what is stored: only more may come after it', async () => {
      const person = await newPerson(storage);
      const first = { t: 1, kind: 'event' as const, event: 'message', data: 'a' };
      const stored = { items: [first], raw: 'data: a\n\n' };
      await person.recordings.put('t1', 'c1', stored);
      expect(await person.recordings.put('t1', 'c1', stored)).toEqual({ ok: true });
      const different = { ok: false, reason: 'different' };
      for (const changed of [
        { items: [{ ...first, data: 'b' }], raw: stored.raw },
        { items: [{ ...first, t: 2 }], raw: stored.raw },
        { items: [{ ...first, kind: 'comment' as const }], raw: stored.raw },
        { items: [{ ...first, event: 'other' }], raw: stored.raw },
        { items: [], raw: stored.raw },
        { items: [first], raw: 'data: b\n\n' },
        { items: [first], raw: 'data: a' },
        { items: [first, first], raw: `x${stored.raw}` },
      ])
        expect(await person.recordings.put('t1', 'c1', changed)).toEqual(different);
      expect(await person.recordings.put('t1', 'c2', stored)).toEqual(different);
      expect(await person.recordings.get('t1')).toMatchObject(stored);
    });

    it('refuses a recording above the limit', async () => {
      const person = await newPerson(storage);
      const raw = 'x'.repeat(2_001);
      await expect(person.recordings.put('big', 'c', { items: [], raw })).rejects.toBeInstanceOf(TooLarge);
      expect(await person.recordings.get('big')).toBeUndefined();
    });
  });

  describe('anything a request sent', () => {
    it('is refused as invalid when nested too deep to be written as JSON, and kept at 512 levels', async () => {
      const person = await newPerson(storage);
      /** Arrays `levels` deep. */
      const nested = (levels: number) => {
        let value: unknown = [];
        for (let i = 1; i < levels; i++) value = [value];
        return value;
      };
      // 20,000 levels: JSON.parse makes them, JSON.stringify runs out of stack on them.
      for (const write of [
        () => person.conversations.put(conversation('deep', { messages: [nested(20_000)] }), 0),
        () => person.settings.put({ deep: nested(20_000) }, 0),
        () => person.requests.put('t1', 'c1', { deep: nested(20_000) }),
      ])
        await expect(write()).rejects.toThrow(/nested at most 512 levels deep/);
      // The record and its messages are two levels: 510 more are allowed, not 511.
      expect(
        await person.conversations.put(conversation('deep', { messages: [nested(510)] }), 0),
      ).toMatchObject({
        ok: true,
      });
      await expect(
        person.conversations.put(conversation('deeper', { messages: [nested(511)] }), 0),
      ).rejects.toThrow(/nested/);
      expect(await person.settings.put({ deep: nested(511) }, 0)).toMatchObject({ ok: true });
    });
  });

  describe('request bodies', () => {
    it('are written once: the same body again changes nothing, another is refused', async () => {
      const person = await newPerson(storage);
      // Key order and the NUL character kept: a body is sent again byte for byte.
      const body = { z: 1, a: [{ text: 'Hi\u0000 ⟦attachment:file_1⟧' }], model: 'm' };
      expect(await person.requests.put('t1', 'c1', body)).toEqual({ ok: true });
      expect(await person.requests.put('t1', 'c1', structuredClone(body))).toEqual({ ok: true });
      const different = { ok: false, reason: 'different' };
      expect(await person.requests.put('t1', 'c1', { ...body, model: 'n' })).toEqual(different);
      expect(await person.requests.put('t1', 'c1', { a: body.a, model: 'm', z: 1 })).toEqual(different);
      expect(await person.requests.put('t1', 'c2', body)).toEqual(different);
      const read = await person.requests.get('t1');
      expect(read).toEqual(body);
      expect(Object.keys(read ?? {})).toEqual(['z', 'a', 'model']);
    });

    it('refuse what is not a JSON object, or is above the limit', async () => {
      const person = await newPerson(storage);
      for (const body of [[], null, 'text', 3])
        await expect(person.requests.put('t1', 'c1', body as never)).rejects.toThrow(/JSON object/);
      await expect(person.requests.put('t2', 'c1', { text: 'x'.repeat(3_000) })).rejects.toBeInstanceOf(
        TooLarge,
      );
      expect(await person.requests.get('t2')).toBeUndefined();
    });
  });

  describe('settings', () => {
    it('stores one document per person with a version, refused when written from an old one', async () => {
      const person = await newPerson(storage);
      expect(await person.settings.get()).toBeUndefined();
      expect(await person.settings.put({ theme: 'dark' }, 0)).toMatchObject({ ok: true, version: 1 });
      expect(await person.settings.put({ theme: 'light' }, 1)).toMatchObject({ ok: true, version: 2 });
      expect(await person.settings.put({ theme: 'blue' }, 1)).toMatchObject({
        ok: false,
        current: { version: 2, document: { theme: 'light' } },
      });
      expect(await person.settings.get()).toMatchObject({ version: 2, document: { theme: 'light' } });
    });
  });

  describe('usage', () => {
    const attempt = {
      conversationId: 'c1',
      protocol: 'chat' as const,
      model: 'gpt-test',
      startedAt: new Date('2026-03-01T23:59:00Z'),
      inputTokens: 100,
      outputTokens: 20,
      cachedTokens: 50,
      cacheWriteTokens: 0,
      reasoningTokens: 5,
      interrupted: false,
    };

    it('sums attempts per day, model and protocol; a second record of an attempt replaces the first', async () => {
      const person = await newPerson(storage);
      await person.usage.record({ ...attempt, attemptId: 't1', outputTokens: 3, interrupted: true });
      await person.usage.record({ ...attempt, attemptId: 't1' });
      await person.usage.record({ ...attempt, attemptId: 't2', interrupted: true });
      await person.usage.record({ ...attempt, attemptId: 't3', protocol: 'messages', model: 'claude-test' });
      await person.usage.record({ ...attempt, attemptId: 't4', startedAt: new Date('2026-03-02T00:00:01Z') });
      expect(await person.usage.totals({ from: '2026-03-01', to: '2026-03-01' })).toEqual([
        {
          day: '2026-03-01',
          model: 'claude-test',
          protocol: 'messages',
          attempts: 1,
          interrupted: 0,
          inputTokens: 100,
          outputTokens: 20,
          cachedTokens: 50,
          cacheWriteTokens: 0,
          reasoningTokens: 5,
        },
        {
          day: '2026-03-01',
          model: 'gpt-test',
          protocol: 'chat',
          attempts: 2,
          interrupted: 1,
          inputTokens: 200,
          outputTokens: 40,
          cachedTokens: 100,
          cacheWriteTokens: 0,
          reasoningTokens: 10,
        },
      ]);
      expect(await person.usage.totals({ from: '2026-03-02', to: '2026-03-31' })).toHaveLength(1);
    });

    it('adds what a stream said under a new attempt id only: an id used again replaces nothing', async () => {
      const person = await newPerson(storage);
      const today = new Date('2026-04-10T08:00:00Z');
      expect(await person.usage.add({ ...attempt, attemptId: 't1', startedAt: today })).toBe(true);
      expect(
        await person.usage.add({
          ...attempt,
          attemptId: 't1',
          startedAt: today,
          inputTokens: 0,
          outputTokens: 0,
        }),
      ).toBe(false);
      await person.usage.add({ ...attempt, attemptId: 't2', startedAt: new Date('2026-04-10T23:59:59Z') });
      await person.usage.add({ ...attempt, attemptId: 't3', startedAt: new Date('2026-04-11T00:00:00Z') });
      // Input and output: 2 × (100 + 20) on the day, the next day's apart, another person's not at all.
      expect(await person.usage.tokensOn('2026-04-10')).toBe(240);
      expect(await person.usage.tokensOn('2026-04-11')).toBe(120);
      expect(await (await newPerson(storage)).usage.tokensOn('2026-04-10')).toBe(0);
    });

    it("shows everyone's usage per person to an administrator, and to no one else", async () => {
      const admin = await storage.users.signIn(
        { issuer: 'header', subject: `${randomUUID()}@example.test` },
        { email: 'admin@example.test', displayName: null, isAdmin: true },
      );
      const person = await newPerson(storage, 'ann@example.test');
      await person.usage.record({ ...attempt, attemptId: 't1', startedAt: new Date('2031-01-01T10:00:00Z') });
      const view = await storage.forAdmin(admin.id);
      expect(await view?.usage({ from: '2031-01-01', to: '2031-01-01' })).toMatchObject([
        { userId: person.userId, email: 'ann@example.test', attempts: 1, inputTokens: 100 },
      ]);
      expect(await storage.forAdmin(person.userId)).toBeUndefined();
      // No longer an administrator at the next sign-in: no longer shown everyone's.
      await storage.users.signIn(
        { issuer: 'header', subject: admin.subject },
        { email: 'admin@example.test', displayName: null, isAdmin: false },
      );
      expect(await storage.forAdmin(admin.id)).toBeUndefined();
    });
  });

  describe('requests of the last minute', () => {
    /** Moves a person's counted requests `ms` into the past, as if that long had passed. */
    const age = (userId: string, ms: number) =>
      storage.db.query(
        `UPDATE request_windows SET started = ARRAY(SELECT t - $2 * interval '1 millisecond' FROM unnest(started) t)
         WHERE user_id = $1`,
        [userId, ms],
      );

    it('admits up to the limit in a minute, then says when the oldest slot frees', async () => {
      const person = await newPerson(storage);
      expect(await person.recentRequests.admit(2)).toEqual({ admitted: true });
      await age(person.userId, 20_000);
      expect(await person.recentRequests.admit(2)).toEqual({ admitted: true });
      const refused = await person.recentRequests.admit(2);
      // The first request is 20 s old: its slot frees in 40 s (give or take the statements' own time).
      expect(refused.admitted).toBe(false);
      expect(!refused.admitted && refused.retryAfterMs).toBeGreaterThan(39_000);
      expect(!refused.admitted && refused.retryAfterMs).toBeLessThanOrEqual(40_000);
      // A refused request takes no slot: once the first is a minute old, one more is admitted, not two.
      await age(person.userId, 40_000);
      expect(await person.recentRequests.admit(2)).toEqual({ admitted: true });
      expect((await person.recentRequests.admit(2)).admitted).toBe(false);
      // Another person's window is their own.
      expect(await (await newPerson(storage)).recentRequests.admit(1)).toEqual({ admitted: true });
    });

    it('counts a limit lowered since by the requests still in the minute', async () => {
      const person = await newPerson(storage);
      for (let i = 0; i < 3; i++) {
        expect(await person.recentRequests.admit(5)).toEqual({ admitted: true });
        await age(person.userId, 10_000);
      }
      // Aged 30, 20 and 10 s: under a limit of 2, one of them must go, then another for a slot: the one
      // 20 s old, in 40 s.
      const refused = await person.recentRequests.admit(2);
      expect(!refused.admitted && refused.retryAfterMs).toBeGreaterThan(39_000);
      expect(!refused.admitted && refused.retryAfterMs).toBeLessThanOrEqual(40_000);
    });

    it('never admits more than the limit, however many ask at once, from two server processes', async () => {
      // PostgreSQL: a second storage (its own pool), as another process has; PGlite is one process.
      const other = database.name === 'PostgreSQL' ? await Storage.open(config) : storage;
      try {
        const person = await newPerson(storage);
        const twin = other.forUser(person.userId);
        const all = await Promise.all(
          Array.from({ length: 24 }, (_, i) => (i % 2 ? twin : person).recentRequests.admit(5)),
        );
        expect(all.filter((a) => a.admitted)).toHaveLength(5);
      } finally {
        if (other !== storage) await other.close();
      }
    });
  });

  it('keeps everything as it was through maintenance (PGlite vacuums and analyzes, PostgreSQL has autovacuum)', async () => {
    const person = await newPerson(storage);
    await person.conversations.put(conversation('kept'), 0);
    await person.conversations.put(conversation('kept', { title: 'Renamed' }), 1);
    await storage.maintain();
    expect(await person.conversations.get('kept')).toMatchObject({ version: 2, title: 'Renamed' });
    expect((await person.conversations.search('renamed')).items.map((c) => c.id)).toEqual(['kept']);
  });

  describe('people and sessions', () => {
    it('finds a person again by the identity their sign-in gives, with the profile of the latest sign-in', async () => {
      const identity = { issuer: 'https://idp.example.test', subject: randomUUID() };
      const first = await storage.users.signIn(identity, {
        email: 'a@x.test',
        displayName: 'A',
        isAdmin: false,
      });
      const again = await storage.users.signIn(identity, {
        email: 'b@x.test',
        displayName: 'B',
        isAdmin: true,
      });
      expect(again).toMatchObject({ id: first.id, email: 'b@x.test', displayName: 'B', isAdmin: true });
      const other = await storage.users.signIn(
        { issuer: 'https://other.example.test', subject: identity.subject },
        { email: null, displayName: null, isAdmin: false },
      );
      expect(other.id).not.toBe(first.id);
      expect(await storage.users.get('not-a-uuid')).toBeUndefined();
      // What PostgreSQL's text cannot hold is refused before it is sent.
      await expect(
        storage.users.signIn(
          { ...identity, subject: 'a\u0000b' },
          { email: null, displayName: null, isAdmin: false },
        ),
      ).rejects.toThrow(/Invalid/);
    });

    it('keeps only a hash of the token, and ends sessions by rotation, revocation and expiry', async () => {
      const person = await newPerson(storage);
      const session = await storage.sessions.create(person.userId);
      expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await storage.sessions.find(session.token)).toMatchObject({ userId: person.userId });
      const stored = await storage.db.query("SELECT encode(token_hash, 'hex') AS h FROM sessions");
      expect(JSON.stringify(stored)).not.toContain(session.token);

      const rotated = await storage.sessions.rotate(session.token);
      expect(rotated?.token).not.toBe(session.token);
      expect(await storage.sessions.find(session.token)).toBeUndefined();
      expect(await storage.sessions.rotate(session.token)).toBeUndefined();
      expect(await storage.sessions.find(rotated?.token ?? '')).toMatchObject({ userId: person.userId });

      await storage.sessions.revoke(rotated?.token ?? '');
      expect(await storage.sessions.find(rotated?.token ?? '')).toBeUndefined();

      const phone = await storage.sessions.create(person.userId);
      const laptop = await storage.sessions.create(person.userId);
      expect(await storage.sessions.revokeAll(person.userId)).toBe(2);
      expect(await storage.sessions.find(phone.token)).toBeUndefined();
      expect(await storage.sessions.find(laptop.token)).toBeUndefined();

      const live = await storage.sessions.create(person.userId);
      await storage.db.query(
        "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
        [person.userId],
      );
      expect(await storage.sessions.find(live.token)).toBeUndefined();
      expect(await storage.sessions.sweep()).toBeGreaterThanOrEqual(4);
      expect(await storage.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [person.userId])).toEqual(
        [],
      );
    });
  });
});
