import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttachmentRef, UserMessage as UserMessageData } from '../../state/domain/types.ts';
import { fakeObjectUrls } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { UserMessage } from './UserMessage.tsx';

const photo: AttachmentRef = {
  id: 'file_photo',
  name: 'photo.png',
  mimeType: 'image/png',
  size: 12,
  kind: 'image',
};
const table: AttachmentRef = {
  id: 'file_table',
  name: 'table.csv',
  mimeType: 'text/csv',
  size: 8,
  kind: 'text',
};
const message: UserMessageData = {
  id: 'm1',
  role: 'user',
  text: 'What are these?',
  createdAt: 1,
  attachments: [photo, table],
};
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let app: TestApp;
beforeEach(async () => {
  app = createTestApp();
  sessionStorage.clear();
  fakeObjectUrls();
  // The message as sent: in a stored conversation, its files' bytes stored.
  app.stores.conversations
    .getState()
    .hydrate([{ id: 'c1', title: 'c1', createdAt: 1, updatedAt: 1, messages: [message] }], 'c1');
  await app.session.attachments.put([
    { ref: photo, blob: new Blob([pngBytes], { type: 'image/png' }) },
    { ref: table, blob: new Blob(['a,b\n1,2\n'], { type: 'text/csv' }) },
  ]);
});

function setup() {
  const onEdit = vi.fn();
  app.render(
    <UserMessage message={message} version={null} canEdit onEdit={onEdit} onSelectVersion={vi.fn()} />,
  );
  return { onEdit, user: userEvent.setup() };
}

const editBox = () => screen.getByRole('form', { name: 'Edit message' });
const editFiles = () => within(editBox()).getByRole('list', { name: 'Attachments to send' });
const notes = () => new File(['# Notes\n'], 'notes.md', { type: 'text/markdown' });

describe('the edit box', () => {
  it('shows the message’s files; one removed and one added, Send gives the edit that list', async () => {
    const { onEdit, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(within(editFiles()).getByRole('img', { name: 'photo.png' })).toBeVisible();
    expect(within(editFiles()).getByText('table.csv')).toBeVisible();

    await user.click(within(editBox()).getByRole('button', { name: 'Remove photo.png' }));
    await user.upload(within(editBox()).getByLabelText('Files to attach'), notes());
    await within(editFiles()).findByText('notes.md');
    await user.type(within(editBox()).getByRole('textbox', { name: 'Edit message' }), ' And now?');
    await user.click(within(editBox()).getByRole('button', { name: 'Send' }));

    expect(onEdit).toHaveBeenCalledTimes(1);
    const [id, text, files] = onEdit.mock.calls[0]! as [string, string, AttachmentRef[]];
    expect([id, text]).toEqual(['m1', 'What are these? And now?']);
    expect(files).toEqual([
      table,
      {
        id: expect.stringMatching(/^file_/),
        name: 'notes.md',
        mimeType: 'text/markdown',
        size: 8,
        kind: 'text',
      },
    ]);
    // The new file's bytes are stored; the removed one's stay, the original message still has it.
    expect(await (await app.session.attachments.get(files[1]!.id))?.text()).toBe('# Notes\n');
    expect(await app.session.attachments.get(photo.id)).toBeDefined();
  });

  it('adds a pasted file and a dropped one, and refuses one too many, naming it', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const box = within(editBox()).getByRole('textbox', { name: 'Edit message' });
    fireEvent.paste(box, { clipboardData: { files: [notes()], types: ['Files'] } });
    await within(editFiles()).findByText('notes.md');
    const dataTransfer = { types: ['Files'], files: [new File(['y'], 'dropped.md')], dropEffect: 'none' };
    fireEvent.dragOver(editBox(), { dataTransfer });
    expect(within(editBox()).getByText('Drop files to attach them')).toBeVisible();
    fireEvent.drop(editBox(), { dataTransfer });
    await within(editFiles()).findByText('dropped.md');
    await user.upload(
      within(editBox()).getByLabelText('Files to attach'),
      Array.from({ length: 7 }, (_, i) => new File(['x'], `note-${i + 1}.md`, { type: 'text/markdown' })),
    );
    expect(await within(editBox()).findByRole('alert')).toHaveTextContent(
      'note-7.md was not attached: a message can carry at most 10 files.',
    );
    expect(within(editFiles()).getAllByRole('listitem')).toHaveLength(10);
    expect(box).toHaveValue('What are these?');
  });

  it('cannot send an edit with neither text nor files', async () => {
    const { onEdit, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.clear(within(editBox()).getByRole('textbox', { name: 'Edit message' }));
    const send = within(editBox()).getByRole('button', { name: 'Send' });
    expect(send).toBeEnabled();
    await user.click(within(editBox()).getByRole('button', { name: 'Remove photo.png' }));
    await user.click(within(editBox()).getByRole('button', { name: 'Remove table.csv' }));
    expect(send).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(onEdit).not.toHaveBeenCalled();
  });

  it('keeps an unsent edit’s files over a reload; Cancel deletes the bytes of files added to it only', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(within(editBox()).getByRole('button', { name: 'Remove table.csv' }));
    await user.upload(within(editBox()).getByLabelText('Files to attach'), notes());
    await within(editFiles()).findByText('notes.md');
    cleanup();

    setup();
    const removable = within(editFiles())
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label'));
    expect(removable).toEqual(['Remove photo.png', 'Remove notes.md']);
    const added = JSON.parse(sessionStorage.getItem('hopbase-chat:draft-files:edit:m1')!) as AttachmentRef[];
    await userEvent.setup().click(within(editBox()).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('user-message')).toHaveTextContent('table.csv');
    await waitFor(async () => expect(await app.session.attachments.get(added[1]!.id)).toBeUndefined());
    expect(await app.session.attachments.get(table.id)).toBeDefined();
    expect(await app.session.attachments.get(photo.id)).toBeDefined();
    expect(sessionStorage.getItem('hopbase-chat:draft-files:edit:m1')).toBeNull();
  });
});
