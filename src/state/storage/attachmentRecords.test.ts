import { describe, expect, it } from 'vitest';
import type { Conversation } from '../domain/types.ts';
import { readConversationRecord } from '../formats/records.ts';

/** A stored conversation whose message carries references to attachments (their bytes live apart). */
function conversation(attachments: unknown): Conversation {
  return {
    id: 'conv_1',
    title: 'Photo',
    createdAt: 1,
    updatedAt: 1,
    messages: [{ id: 'm1', role: 'user', text: 'What is this?', createdAt: 1, attachments } as never],
  };
}

const photo = { id: 'file_1', name: 'cat.png', mimeType: 'image/png', size: 1234, kind: 'image' };
const notes = { id: 'file_2', name: 'notes.md', mimeType: 'text/markdown', size: 20, kind: 'text' };

describe('a stored message’s attachments', () => {
  it('are read as they were written', () => {
    const record = conversation([photo, notes]);
    expect(readConversationRecord('conversation:conv_1', record)).toEqual({
      kind: 'conversation',
      conversation: record,
      revision: 0,
    });
  });

  it.each([
    ['not a list', photo, 'messages[0].attachments: expected a list'],
    ['without a name', [{ ...photo, name: undefined }], 'messages[0].attachments[0].name: expected a string'],
    [
      'with a size that is not a number',
      [{ ...photo, size: '1 kB' }],
      'messages[0].attachments[0].size: expected a number',
    ],
    [
      'of an unknown kind',
      [notes, { ...photo, kind: 'pdf' }],
      'messages[0].attachments[1].kind: expected image or text',
    ],
  ])('set the record aside when %s', (_name, attachments, reason) => {
    expect(readConversationRecord('conversation:conv_1', conversation(attachments))).toMatchObject({
      kind: 'unreadable',
      reason,
    });
  });
});
