import { describe, expect, it } from 'vitest';
import { exportWords } from '../../i18n/explain.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import type { Conversation } from '../domain/types.ts';
import { exportConversationMarkdown } from './conversationExport.ts';

const english = exportWords(createI18n('en'));
const conversation: Conversation = {
  id: 'conv_1',
  title: 'Files',
  createdAt: 0,
  updatedAt: 0,
  messages: [
    {
      id: 'm1',
      role: 'user',
      text: 'What are these?',
      createdAt: 0,
      attachments: [
        { id: 'file_1', name: 'cat.png', mimeType: 'image/png', size: 12_345, kind: 'image' },
        { id: 'file_2', name: 'notes.md', mimeType: 'text/markdown', size: 2048, kind: 'text' },
      ],
    },
    {
      id: 'm2',
      role: 'user',
      text: '',
      createdAt: 0,
      attachments: [{ id: 'file_3', name: 'dog.webp', mimeType: 'image/webp', size: 900, kind: 'image' }],
    },
  ],
};

describe('exporting a conversation with attachments', () => {
  it('names each message’s files in the Markdown, after its text (or alone)', () => {
    const markdown = exportConversationMarkdown(conversation, '', 0, english);
    expect(markdown).toContain(
      'What are these?\n\n_Attached: `cat.png` (image/png, 12 kB) and `notes.md` (text, 2 kB)_',
    );
    expect(markdown).toContain('\n\n_Attached: `dog.webp` (image/webp, 900 B)_\n');
    expect(markdown).not.toContain('_(empty)_');
  });

  it('writes sizes and the list of files as the UI’s language does', () => {
    const markdown = exportConversationMarkdown(conversation, '', 0, exportWords(createI18n('es')));
    expect(markdown).toContain('`cat.png` (image/png, 12 kB) y `notes.md`');
    expect(markdown).toMatch(/`notes.md` \([^,]+, 2 kB\)/);
  });
});
