/**
 * Attachments through the session (their blobs stored when attached): sent in each protocol's form with their bytes, kept in
 * the stored request as placeholders, sent byte for byte again by Retry, Regenerate and an edit, and a
 * missing blob is an answer's clear error, not a crash.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildRequest, type Protocol, protocols } from '../core/index.ts';
import { fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage, Conversation } from '../state/domain/types.ts';
import type { NewAttachment } from '../state/storage/attachmentBlobs.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
beforeEach(async () => {
  app = createTestApp();
  app.stores.settings.getState().update({ model: 'sim-echo' });
  // As the composer does when they are attached.
  await app.session.attachments.put([photo, notes, table]);
});

const imageBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const imageBase64 = btoa(String.fromCharCode(...imageBytes));
const photo: NewAttachment = {
  ref: { id: 'file_photo', name: 'photo.png', mimeType: 'image/png', size: imageBytes.length, kind: 'image' },
  blob: new Blob([imageBytes], { type: 'image/png' }),
};
const notes: NewAttachment = {
  ref: { id: 'file_notes', name: 'notes.md', mimeType: 'text/markdown', size: 9, kind: 'text' },
  blob: new Blob(['# Notes\n'], { type: 'text/markdown' }),
};

const table: NewAttachment = {
  ref: { id: 'file_table', name: 'table.csv', mimeType: 'text/csv', size: 8, kind: 'text' },
  blob: new Blob(['a,b\n1,2\n'], { type: 'text/csv' }),
};

/** A recorded stream of each protocol, to answer with. */
const streams: Record<Protocol, string> = {
  chat: 'chat/openai-text-obfuscation-usage.sse',
  responses: 'responses/openai-text.sse',
  messages: 'anthropic/text-padded.sse',
};

/** A gateway answering every request with a recorded stream of the request's protocol; each body kept as sent. */
function gateway() {
  const bodies: string[] = [];
  const fetchImpl = vi.fn<typeof fetch>(async (url, init) => {
    bodies.push(String(init?.body));
    const protocol = protocols.find((p) =>
      String(url).endsWith(buildRequest(p, { model: 'm', messages: [] }).path),
    );
    return new Response(streamFromBytes(fixtureBytes(streams[protocol ?? 'messages'])), {
      headers: { 'content-type': 'text/event-stream' },
    });
  });
  app.setFetch(fetchImpl);
  return bodies;
}

function conversation(): Conversation {
  const { activeId, conversations } = app.stores.conversations.getState();
  return conversations[activeId!]!;
}
const answers = () => conversation().messages.filter((m): m is AssistantMessage => m.role === 'assistant');

describe('sending attachments', () => {
  it('keeps their references on the message, their bytes as the blobs stored', async () => {
    gateway();
    await app.session.send('What are these?', 'messages', [photo.ref, notes.ref]);
    const sent = conversation().messages[0];
    expect(sent).toMatchObject({
      role: 'user',
      text: 'What are these?',
      attachments: [photo.ref, notes.ref],
    });
    expect(await app.session.attachments.get('file_photo')).toBe(photo.blob);
  });

  it('sends the bytes, and stores the request with a placeholder for each file instead', async () => {
    const bodies = gateway();
    await app.session.send('What are these?', 'messages', [photo.ref, notes.ref]);
    const sent = JSON.parse(bodies[0]!) as { messages: { content: unknown[] }[] };
    expect(sent.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: imageBase64 } },
      { type: 'text', text: 'File: notes.md\n```\n# Notes\n\n```' },
      { type: 'text', text: 'What are these?' },
    ]);
    const stored = JSON.stringify(answers()[0]?.attempts[0]?.request.body);
    expect(stored).not.toContain(imageBase64);
    expect(stored).toContain('⟦attachment:file_photo⟧');
    expect(stored).toContain('File: notes.md\\n```\\n⟦attachment:file_notes⟧\\n```');
  });

  it.each(['chat', 'responses'] as const)(
    '%s: sends the image in the protocol’s own part',
    async (protocol) => {
      const bodies = gateway();
      await app.session.send('Look', protocol, [photo.ref]);
      expect(bodies[0]).toContain(`"data:image/png;base64,${imageBase64}"`);
      expect(bodies[0]).toContain(protocol === 'chat' ? '"type":"image_url"' : '"type":"input_image"');
    },
  );

  it('sends the very same bytes again on Retry and on Regenerate, and after an edit', async () => {
    const bodies = gateway();
    await app.session.send('What are these?', 'messages', [photo.ref, notes.ref]);
    const [first] = answers();
    await app.session.retry(conversation().id, first!.id);
    await app.session.regenerate(conversation().id, first!.id);
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[2]).toBe(bodies[0]);

    const userId = conversation().messages[0]!.id;
    await app.session.edit(conversation().id, userId, 'And now?', 'messages');
    expect(bodies[3]).toContain(imageBase64);
    expect(bodies[3]).toContain('# Notes');
  });

  it('sends an edit with the files it was given: one removed, one added, the earlier version unchanged', async () => {
    const bodies = gateway();
    await app.session.send('What are these?', 'messages', [photo.ref, notes.ref]);
    const original = conversation().messages[0]!;
    await app.session.edit(conversation().id, original.id, 'And these?', 'messages', [notes.ref, table.ref]);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).not.toContain(imageBase64);
    expect(bodies[1]).toContain('File: notes.md');
    expect(bodies[1]).toContain('File: table.csv');
    const edited = conversation().messages.find((m) => m.role === 'user' && m.text === 'And these?');
    expect(edited).toMatchObject({ attachments: [notes.ref, table.ref] });
    expect(conversation().messages.find((m) => m.id === original.id)).toMatchObject({
      attachments: [photo.ref, notes.ref],
    });

    // All files taken out: the new version has none.
    await app.session.edit(conversation().id, original.id, 'Words alone', 'messages', []);
    const bare = conversation().messages.find((m) => m.role === 'user' && m.text === 'Words alone');
    expect(bare).not.toHaveProperty('attachments');
  });

  it('fails that answer with a clear error, sending nothing, when a file is no longer stored', async () => {
    const bodies = gateway();
    await app.session.send('What are these?', 'messages', [photo.ref, notes.ref]);
    await app.session.attachments.remove(['file_notes']);
    const [first] = answers();
    await app.session.retry(conversation().id, first!.id);
    expect(bodies).toHaveLength(1);
    const failed = answers()[0]?.attempts.at(-1);
    expect(failed?.turn.status).toBe('error');
    expect(failed?.turn.error?.code).toBe('attachment_missing');
    expect(failed?.turn.error?.message).toMatch(/^notes\.md is no longer stored in this browser/);
    // Not retried on its own: the file will not come back.
    expect(answers()[0]?.attempts).toHaveLength(2);
  });
});
