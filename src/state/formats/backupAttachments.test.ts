// @vitest-environment node
// Node's own Blob: the one fake-indexeddb can store (jsdom's cannot be cloned), as a browser stores its own.
import 'fake-indexeddb/auto';
import { createStore, set, type UseStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentRef, Conversation } from '../domain/types.ts';
import { databaseAttachments } from '../storage/attachmentBlobs.ts';
import { loadState } from '../storage/load.ts';
import { createAppStores } from '../stores/appStores.ts';
import { type BackupDocument, backUp, readBackup, restoreBackup } from './backup.ts';

let dbCount = 0;
let db: UseStore;
beforeEach(() => {
  db = createStore(`backup-attachments-${++dbCount}`, 'state');
});

const key = 'sk-secret-key-123';
const pngBytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 254, 255];
const photo: AttachmentRef = {
  id: 'file_photo',
  name: 'photo.png',
  mimeType: 'image/png',
  size: pngBytes.length,
  kind: 'image',
};
/** A text file that happens to hold the API key: its bytes are kept exactly, never scrubbed. */
const notesText = `# Notes\nkey: ${key}\n`;
const notes: AttachmentRef = {
  id: 'file_notes',
  name: 'notes.md',
  mimeType: 'text/markdown',
  size: new TextEncoder().encode(notesText).length,
  kind: 'text',
};

const conversation: Conversation = {
  id: 'conv_1',
  title: 'Files',
  createdAt: 1,
  updatedAt: 2,
  messages: [
    { id: 'm1', role: 'user', text: `What are these? (${key})`, createdAt: 1, attachments: [photo, notes] },
    // An edit carries the original's attachments: the same blob, backed up once.
    { id: 'm2', role: 'user', text: 'And this one?', createdAt: 2, parentId: null, attachments: [photo] },
  ],
};

async function seed(files: { ref: AttachmentRef; blob: Blob }[]) {
  await set('conversation:conv_1', { ...conversation, revision: 1 }, db);
  await databaseAttachments(db).put(files);
}

const stored = [
  { ref: photo, blob: new Blob([new Uint8Array(pngBytes)], { type: 'image/png' }) },
  { ref: notes, blob: new Blob([notesText], { type: 'text/markdown' }) },
];

const bytesOf = async (blob: Blob | undefined) =>
  blob ? [...new Uint8Array(await blob.arrayBuffer())] : null;

describe('backing up attachments', () => {
  it('holds each attachment once, its bytes in base64 exactly, named by where it was first sent', async () => {
    await seed(stored);
    const file = await backUp(db, key, 0);
    expect(file).toMatchObject({ conversations: 1, recordings: 0, attachments: 2, missingAttachments: 0 });
    const document = JSON.parse(file.text) as BackupDocument;
    expect(document.attachments).toEqual([
      {
        id: 'file_photo',
        conversationId: 'conv_1',
        messageId: 'm1',
        name: 'photo.png',
        type: 'image/png',
        size: pngBytes.length,
        data: btoa(String.fromCharCode(...pngBytes)),
      },
      {
        id: 'file_notes',
        conversationId: 'conv_1',
        messageId: 'm1',
        name: 'notes.md',
        type: 'text/markdown',
        size: notes.size,
        data: Buffer.from(notesText).toString('base64'),
      },
    ]);
    // The key is scrubbed from the conversation, not from a file's bytes.
    expect(JSON.stringify(document.conversations)).not.toContain(key);
  });

  it('says which attachments it could not hold because their bytes are gone', async () => {
    await seed(stored.slice(0, 1));
    const file = await backUp(db, '', 0);
    expect(file).toMatchObject({ attachments: 1, missingAttachments: 1 });
  });
});

describe('restoring attachments', () => {
  it('brings back every blob byte for byte, with the conversations that show them; twice is once', async () => {
    await seed(stored);
    const file = await backUp(db, '', 0);
    db = createStore(`backup-attachments-${++dbCount}`, 'state');

    const result = await restoreBackup(db, file.text, null);
    expect(result).toMatchObject({ ok: true, files: { written: 2, kept: 0 }, problems: [] });
    expect(result.ok && result.counts).toEqual({
      conversations: 1,
      recordings: 0,
      attachments: 2,
      problems: 0,
    });
    const blobs = databaseAttachments(db);
    expect(await bytesOf(await blobs.get('file_photo'))).toEqual(pngBytes);
    expect((await blobs.get('file_photo'))?.type).toBe('image/png');
    expect(
      new TextDecoder().decode(new Uint8Array((await bytesOf(await blobs.get('file_notes'))) ?? [])),
    ).toBe(notesText);
    const stores = createAppStores();
    await loadState(db, stores);
    const messages = stores.conversations.getState().conversations.conv_1?.messages;
    expect(messages?.map((m) => (m.role === 'user' ? m.attachments : null))).toEqual([
      [photo, notes],
      [photo],
    ]);

    const again = await restoreBackup(db, file.text, null);
    expect(again).toMatchObject({ ok: true, files: { written: 0, kept: 2 } });
    expect(again.ok && again.outcome).toMatchObject({
      added: [],
      revived: [],
      joined: [],
      recordingsWritten: 0,
    });
  });

  it('refuses, entry by entry, an attachment whose bytes do not match, or that nothing refers to', async () => {
    await seed(stored);
    const document = JSON.parse((await backUp(db, '', 0)).text) as BackupDocument;
    const [first, second] = document.attachments;
    const text = JSON.stringify({
      ...document,
      attachments: [
        { ...first, data: 'AAAA' },
        second,
        { ...second, id: 'file_other', name: 'stray.md' },
        'junk',
      ],
    });
    const read = readBackup(text);
    expect(read.ok && read.problems).toEqual([
      {
        entry: { kind: 'attachment', number: 1, name: 'photo.png' },
        reason: `data: expected the base64 of ${pngBytes.length} bytes`,
      },
      {
        entry: { kind: 'attachment', number: 3, name: 'stray.md' },
        reason: 'no conversation in this backup refers to it',
      },
      { entry: { kind: 'attachment', number: 4, name: '' }, reason: 'expected an object' },
    ]);
    expect(read.ok && read.attachments.map((a) => a.id)).toEqual(['file_notes']);
  });
});
