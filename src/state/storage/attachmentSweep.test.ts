// @vitest-environment node
// Node's own Blob: the one fake-indexeddb can store (jsdom's cannot be cloned), as a browser stores its own.
import 'fake-indexeddb/auto';
import { createStore, keys, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import type { AttachmentRef, Conversation } from '../domain/types.ts';
import { attachmentsInUse, attachmentsToSweep, sweepAgeMs, sweepAttachments } from './attachmentSweep.ts';

const now = 1_000 * sweepAgeMs;
const old = now - sweepAgeMs - 1;
const young = now - sweepAgeMs + 60_000;

describe('attachmentsToSweep', () => {
  const inUse = new Set(['file_sent', 'file_draft']);
  it('sweeps a blob nothing refers to once it is a day old', () => {
    expect(attachmentsToSweep([{ id: 'file_lost', storedAt: old }], inUse, now)).toEqual(['file_lost']);
  });
  it('leaves a younger one: another tab’s draft may hold it', () => {
    expect(attachmentsToSweep([{ id: 'file_new', storedAt: young }], inUse, now)).toEqual([]);
    expect(attachmentsToSweep([{ id: 'file_new', storedAt: now - sweepAgeMs }], inUse, now)).toEqual([]);
  });
  it('never sweeps one a message or a draft refers to, however old', () => {
    const stored = [
      { id: 'file_sent', storedAt: old },
      { id: 'file_draft', storedAt: null },
    ];
    expect(attachmentsToSweep(stored, inUse, now)).toEqual([]);
  });
  it('sweeps an unused one stored at an unknown time (before times were kept)', () => {
    expect(attachmentsToSweep([{ id: 'file_unknown', storedAt: null }], inUse, now)).toEqual([
      'file_unknown',
    ]);
  });
});

const ref = (id: string): AttachmentRef => ({
  id,
  name: `${id}.png`,
  mimeType: 'image/png',
  size: 1,
  kind: 'image',
});
const conversation: Conversation = {
  id: 'c',
  title: 'c',
  createdAt: 1,
  updatedAt: 1,
  messages: [{ id: 'm', role: 'user', text: 'look', createdAt: 1, attachments: [ref('file_a')] }],
};

describe('attachmentsInUse', () => {
  it('counts the messages’ files, the drafts’ and any id a record that could not be read mentions', () => {
    const unreadable = [
      { value: { messages: 'broken', note: 'file_0123456789abcdef and file_fedcba9876543210' } },
    ];
    expect([...attachmentsInUse([conversation], unreadable, ['file_d'])].sort()).toEqual([
      'file_0123456789abcdef',
      'file_a',
      'file_d',
      'file_fedcba9876543210',
    ]);
  });
});

describe('sweepAttachments', () => {
  it('deletes the blobs picked in the database, and nothing else', async () => {
    const db = createStore('sweep-test', 'state');
    const blob = new Blob([new Uint8Array([1])], { type: 'image/png' });
    for (const id of ['file_a', 'file_draft', 'file_lost']) await set(`attachment:${id}`, blob, db);
    await set('conversation:c', { id: 'c' }, db);
    // In Node a stored File comes back a Blob: no time kept, so unused ones count as old.
    expect(await sweepAttachments(db, new Set(['file_a', 'file_draft']), now)).toBe(1);
    expect((await keys(db)).sort()).toEqual(['attachment:file_a', 'attachment:file_draft', 'conversation:c']);
  });
});
