// @vitest-environment node
// Node's own Blob: the one fake-indexeddb can store (jsdom's cannot be cloned), as a browser stores its own.
import 'fake-indexeddb/auto';
import { createStore, keys, set, type UseStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentRef, Conversation } from '../domain/types.ts';
import { createAppStores } from '../stores/appStores.ts';
import {
  attachmentUses,
  databaseAttachments,
  deleteOrphanedAttachments,
  memoryAttachments,
  orphanedAttachments,
  readAttachmentBlobs,
  writeMissingAttachments,
} from './attachmentBlobs.ts';
import { loadState } from './load.ts';

let dbCount = 0;
let db: UseStore;
beforeEach(() => {
  db = createStore(`attachments-test-${++dbCount}`, 'state');
});

const ref = (id: string, name = `${id}.png`): AttachmentRef => ({
  id,
  name,
  mimeType: 'image/png',
  size: 3,
  kind: 'image',
});
const blob = (...values: number[]) => new Blob([new Uint8Array(values)], { type: 'image/png' });
const read = async (b: Blob | undefined) => (b ? [...new Uint8Array(await b.arrayBuffer())] : undefined);

function conversation(id: string, refs: AttachmentRef[][]): Conversation {
  return {
    id,
    title: id,
    createdAt: 1,
    updatedAt: 1,
    messages: refs.map((attachments, i) => ({
      id: `${id}-m${i}`,
      role: 'user',
      text: 'look',
      createdAt: 1,
      attachments,
    })),
  };
}

describe.each([
  ['in IndexedDB', () => databaseAttachments(db)],
  ['in memory', () => memoryAttachments()],
])('attachment blobs %s', (_where, make) => {
  it('keeps bytes by id, gives them back, and deletes them', async () => {
    const blobs = make();
    await blobs.put([
      { ref: ref('a'), blob: blob(1, 2, 3) },
      { ref: ref('b'), blob: blob(4) },
    ]);
    expect(await read(await blobs.get('a'))).toEqual([1, 2, 3]);
    expect((await blobs.get('a'))?.type).toBe('image/png');
    await blobs.remove(['a']);
    expect(await blobs.get('a')).toBeUndefined();
    expect(await read(await blobs.get('b'))).toEqual([4]);
    await blobs.remove([]);
    expect(await blobs.get('never')).toBeUndefined();
  });
});

describe('in the app database', () => {
  it('lives under attachment:<id>, which a load neither reads as a conversation nor reports as unreadable', async () => {
    await databaseAttachments(db).put([{ ref: ref('a'), blob: blob(1) }]);
    await set('conversation:c1', conversation('c1', [[ref('a')]]), db);
    expect(await keys(db)).toContain('attachment:a');
    const stores = createAppStores();
    await loadState(db, stores);
    expect(stores.storage.getState().unreadable).toEqual([]);
    expect(Object.keys(stores.conversations.getState().conversations)).toEqual(['c1']);
  });

  it('reads the blobs a backup asks for, leaving out those not stored', async () => {
    await databaseAttachments(db).put([{ ref: ref('a'), blob: blob(7) }]);
    const found = await readAttachmentBlobs(db, ['a', 'gone']);
    expect([...found.keys()]).toEqual(['a']);
    expect(await read(found.get('a'))).toEqual([7]);
  });

  it('writes only the blobs it lacks: a second restore writes nothing', async () => {
    await databaseAttachments(db).put([{ ref: ref('a'), blob: blob(1) }]);
    const files = [
      { id: 'a', blob: blob(9) },
      { id: 'b', blob: blob(2) },
    ];
    expect(await writeMissingAttachments(db, files)).toEqual({ written: 1, kept: 1 });
    expect(await writeMissingAttachments(db, files)).toEqual({ written: 0, kept: 2 });
    // The one here stays as it was: an attachment's bytes never change under its id.
    expect(await read(await databaseAttachments(db).get('a'))).toEqual([1]);
  });
});

describe('attachmentUses', () => {
  it('finds each attachment once, where it is first referred to', () => {
    const uses = attachmentUses([conversation('c1', [[ref('a')], [ref('a'), ref('b')]])]);
    expect([...uses.entries()].map(([id, use]) => [id, use.conversationId, use.messageId])).toEqual([
      ['a', 'c1', 'c1-m0'],
      ['b', 'c1', 'c1-m1'],
    ]);
  });
});

describe('orphanedAttachments', () => {
  const c1 = conversation('c1', [[ref('a'), ref('shared')]]);
  const c2 = conversation('c2', [[ref('shared')]]);

  it('names the attachments only a deleted conversation referred to', () => {
    expect(orphanedAttachments({ c1, c2 }, { c2 }, ['c1'])).toEqual(['a']);
  });

  it('looks for the gone among the ids the store says it touched only', () => {
    expect(orphanedAttachments({ c1, c2 }, { c2 }, ['c2'])).toEqual([]);
  });

  it('names none while every conversation is still there', () => {
    expect(orphanedAttachments({ c1, c2 }, { c1: { ...c1, title: 'renamed' }, c2 }, ['c1'])).toEqual([]);
  });
});

describe('deleteOrphanedAttachments', () => {
  it('deletes a deleted conversation’s blobs, not those another conversation still uses', async () => {
    const stores = createAppStores();
    const blobs = memoryAttachments();
    await blobs.put([
      { ref: ref('a'), blob: blob(1) },
      { ref: ref('shared'), blob: blob(2) },
    ]);
    stores.conversations
      .getState()
      .hydrate(
        [conversation('c1', [[ref('a'), ref('shared')]]), conversation('c2', [[ref('shared')]])],
        'c1',
      );
    const stop = deleteOrphanedAttachments(stores.conversations, blobs);
    stores.conversations.getState().deleteConversation('c1');
    await Promise.resolve();
    expect(await blobs.get('a')).toBeUndefined();
    expect(await blobs.get('shared')).toBeDefined();
    stop();
  });
});
