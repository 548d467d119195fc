import { describe, expect, it } from 'vitest';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { draftToSend, editStart } from './messageDraft.ts';

const photo: AttachmentRef = { id: 'file_1', name: 'cat.png', mimeType: 'image/png', size: 3, kind: 'image' };
const notes: AttachmentRef = { id: 'file_2', name: 'n.md', mimeType: 'text/markdown', size: 3, kind: 'text' };

describe('draftToSend', () => {
  it('sends text, files, or both, as they are', () => {
    expect(draftToSend({ text: 'Hi ', attachments: [] })).toEqual({ text: 'Hi ', attachments: [] });
    expect(draftToSend({ text: '', attachments: [photo] })).toEqual({ text: '', attachments: [photo] });
    expect(draftToSend({ text: 'Look', attachments: [photo, notes] })).toEqual({
      text: 'Look',
      attachments: [photo, notes],
    });
  });
  it('sends nothing without words or files', () => {
    expect(draftToSend({ text: '', attachments: [] })).toBeNull();
    expect(draftToSend({ text: ' \n\t', attachments: [] })).toBeNull();
  });
});

describe('editStart', () => {
  const message = { text: 'Original', attachments: [photo, notes] };
  it('starts from the message when nothing was kept', () => {
    expect(editStart(message, '', null)).toEqual({ text: 'Original', attachments: [photo, notes] });
    expect(editStart({ text: 'Bare' }, '', null)).toEqual({ text: 'Bare', attachments: [] });
  });
  it('starts from a kept text alone (an edit from before files were kept)', () => {
    expect(editStart(message, 'Changed', null)).toEqual({ text: 'Changed', attachments: [photo, notes] });
  });
  it('starts from the kept edit, an emptied text and removed files included', () => {
    expect(editStart(message, '', [notes])).toEqual({ text: '', attachments: [notes] });
    expect(editStart(message, 'New', [])).toEqual({ text: 'New', attachments: [] });
  });
});
