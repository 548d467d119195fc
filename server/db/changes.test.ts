import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announce, type ChangeEvent, changesChannel } from './changes.ts';
import { Storage } from './storage.ts';
import { conversation, newPerson, startTimeout, testDatabases } from './testing.ts';

/** Collects what one person's listeners hear, and waits for an event the test names. */
function follow(storage: Storage, userId: string) {
  const heard: ChangeEvent[] = [];
  const waiting: { match: (e: ChangeEvent) => boolean; resolve: (e: ChangeEvent) => void }[] = [];
  const stop = storage.changes.subscribe(userId, (event) => {
    heard.push(event);
    for (const w of waiting.splice(0)) {
      if (w.match(event)) w.resolve(event);
      else waiting.push(w);
    }
  });
  return {
    heard,
    stop,
    next: (match: (e: ChangeEvent) => boolean) =>
      new Promise<ChangeEvent>((resolve) => {
        const found = heard.find(match);
        if (found) resolve(found);
        else waiting.push({ match, resolve });
      }),
  };
}

const isChangeOf = (id: string, version?: number) => (e: ChangeEvent) =>
  e.type === 'change' && e.id === id && (version === undefined || e.version === version);

describe.each(testDatabases())('the change feed on $name', (database) => {
  let writer: Storage;
  /** PostgreSQL: a second server process's storage on the same database. PGlite: one process, the same. */
  let reader: Storage;
  const log: string[] = [];
  beforeAll(async () => {
    const config = await database.start();
    writer = await Storage.open(config, { log: (line) => log.push(line) });
    reader =
      database.name === 'PostgreSQL' ? await Storage.open(config, { log: (line) => log.push(line) }) : writer;
  }, startTimeout);
  afterAll(async () => {
    if (reader !== writer) await reader?.close();
    await writer?.close();
    await database.stop();
  });

  it("delivers a person's committed changes to that person's listeners only, without their content", async () => {
    const ann = await newPerson(writer);
    const bob = await newPerson(writer);
    const annHears = follow(reader, ann.userId);
    const bobHears = follow(reader, bob.userId);
    try {
      await ann.conversations.put(conversation('c1', { title: 'Secret plans' }), 0);
      await ann.conversations.put(conversation('c1', { title: 'Secret plans, v2' }), 1);
      await ann.conversations.delete('c1');
      await ann.settings.put({ theme: 'dark' }, 0);
      await bob.conversations.put(conversation('b1'), 0);
      await bobHears.next(isChangeOf('b1'));
      await annHears.next((e) => e.type === 'change' && e.kind === 'settings');
      expect(annHears.heard.map((e) => e.type === 'change' && [e.kind, e.id, e.version, e.deleted])).toEqual([
        ['conversation', 'c1', 1, false],
        ['conversation', 'c1', 2, false],
        ['conversation', 'c1', 3, true],
        ['settings', ann.userId, 1, false],
      ]);
      expect(bobHears.heard).toHaveLength(1);
      expect(JSON.stringify(annHears.heard)).not.toContain('Secret');
    } finally {
      annHears.stop();
      bobHears.stop();
    }
  });

  it('sends nothing for a write that did not happen: a refused write, a rolled-back transaction', async () => {
    const ann = await newPerson(writer);
    const hears = follow(reader, ann.userId);
    try {
      await ann.conversations.put(conversation('c1'), 0);
      expect((await ann.conversations.put(conversation('c1'), 0)).ok).toBe(false);
      await expect(
        writer.db.transaction(async (tx) => {
          await announce(tx, {
            userId: ann.userId,
            kind: 'conversation',
            id: 'rolled-back',
            version: 1,
            change: 1,
            deleted: false,
          });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await ann.conversations.put(conversation('c2'), 0);
      // Notifications arrive in commit order: once c2's has come, any other would have come before it.
      await hears.next(isChangeOf('c2'));
      expect(hears.heard.map((e) => e.type === 'change' && e.id)).toEqual(['c1', 'c2']);
    } finally {
      hears.stop();
    }
  });

  it('ignores a notification on its channel that is not a change', async () => {
    const ann = await newPerson(writer);
    const hears = follow(reader, ann.userId);
    try {
      await writer.db.query('SELECT pg_notify($1, $2)', [changesChannel, `{"u":"${ann.userId}","k":"x"}`]);
      await ann.conversations.put(conversation('c1'), 0);
      await hears.next(isChangeOf('c1'));
      expect(hears.heard).toHaveLength(1);
      expect(log).toContain('changes: a notification that is not a change was ignored');
    } finally {
      hears.stop();
    }
  });

  // Only PostgreSQL's connection can be lost: PGlite is in this process.
  if (database.name === 'PostgreSQL')
    it('listens again after its connection is cut, and tells its listeners to read again what they missed', async () => {
      const ann = await newPerson(writer);
      const hears = follow(reader, ann.userId);
      try {
        // What an administrator, a restarted proxy or a failover does to the listening connections.
        await writer.db.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE query = 'LISTEN "hopbase_changes"' AND pid <> pg_backend_pid()`,
        );
        await hears.next((e) => e.type === 'resync');
        await ann.conversations.put(conversation('after'), 0);
        await hears.next(isChangeOf('after', 1));
        expect(log.some((line) => line.includes('listening connection was lost'))).toBe(true);
      } finally {
        hears.stop();
      }
    });
});
