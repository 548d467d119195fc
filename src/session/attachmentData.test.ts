import { describe, expect, it } from 'vitest';
import { type AttachmentContent, buildRequest, protocols } from '../core/index.ts';
import { placeholderContent } from '../state/domain/attachmentPlaceholders.ts';
import type { AttachmentRef } from '../state/domain/types.ts';
import { memoryAttachments } from '../state/storage/attachmentBlobs.ts';
import { AttachmentMissing, bodyWithAttachments } from './attachmentData.ts';

const imageBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 7]);
/** Backticks that need a longer fence, `$&` that a replacement string would read as a pattern, quotes, lines. */
const notesText = 'Price: $& "quoted"\n```ts\nconst a = 1;\n```\nend\\';

const image: AttachmentRef = {
  id: 'file_img',
  name: 'dot.png',
  mimeType: 'image/png',
  size: 12,
  kind: 'image',
};
const notes: AttachmentRef = {
  id: 'file_txt',
  name: 'notes.md',
  mimeType: 'text/markdown',
  size: 60,
  kind: 'text',
};
const refs = new Map([image, notes].map((r) => [r.id, r]));

async function storedBlobs() {
  const blobs = memoryAttachments();
  await blobs.put([
    { ref: image, blob: new Blob([imageBytes], { type: 'image/png' }) },
    { ref: notes, blob: new Blob([notesText], { type: 'text/markdown' }) },
  ]);
  return blobs;
}

const request = (attachments: AttachmentContent[]) => ({
  model: 'm',
  messages: [{ role: 'user' as const, text: 'What is this?', attachments }],
});

const imageData = btoa(String.fromCharCode(...imageBytes));
const real: AttachmentContent[] = [
  { kind: 'image', mimeType: 'image/png', data: imageData },
  { kind: 'text', name: 'notes.md', text: notesText },
];

describe('bodyWithAttachments', () => {
  it.each(protocols)('%s: puts in the bytes, giving exactly the body built with them', async (protocol) => {
    const stored = buildRequest(protocol, request([image, notes].map(placeholderContent))).body;
    expect(JSON.stringify(stored)).not.toContain(imageData);
    const sent = await bodyWithAttachments(stored, (id) => refs.get(id), await storedBlobs());
    expect(sent).toBe(JSON.stringify(buildRequest(protocol, request(real)).body));
  });

  it('sends the same bytes every time: a retry is the first attempt again', async () => {
    const stored = buildRequest('messages', request([image, notes].map(placeholderContent))).body;
    const blobs = await storedBlobs();
    const first = await bodyWithAttachments(stored, (id) => refs.get(id), blobs);
    expect(await bodyWithAttachments(stored, (id) => refs.get(id), blobs)).toBe(first);
  });

  it('leaves a body without attachments as its JSON', async () => {
    const body = buildRequest('chat', { model: 'm', messages: [{ role: 'user', text: 'Hi' }] }).body;
    expect(await bodyWithAttachments(body, () => undefined, memoryAttachments())).toBe(JSON.stringify(body));
  });

  it('refuses, naming the file, when its bytes are no longer stored', async () => {
    const stored = buildRequest('chat', request([placeholderContent(notes)])).body;
    const attempt = bodyWithAttachments(stored, (id) => refs.get(id), memoryAttachments());
    await expect(attempt).rejects.toBeInstanceOf(AttachmentMissing);
    await expect(attempt).rejects.toThrow(/^notes\.md is no longer stored in this browser/);
  });
});
