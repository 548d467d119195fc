import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { fakeObjectUrls } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { Composer } from './Composer.tsx';

const png = (name = 'photo.png') =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], name, {
    type: 'image/png',
  });
const markdown = (name = 'notes.md', text = '# Notes\n') => new File([text], name, { type: 'text/markdown' });
const pdf = () =>
  new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 0xe2])], 'report.pdf', { type: 'application/pdf' });

let made: string[];
let revoked: string[];
let app: TestApp;
beforeEach(() => {
  app = createTestApp();
  sessionStorage.clear();
  ({ made, revoked } = fakeObjectUrls());
});
afterEach(() => vi.restoreAllMocks());

function setup(draftKey = 'conv_1') {
  const onSend = vi.fn();
  const view = app.render(
    <Composer draftKey={draftKey} streaming={false} onSend={onSend} onStop={vi.fn()} />,
  );
  return {
    onSend,
    user: userEvent.setup(),
    box: screen.getByRole('textbox', { name: 'Message' }),
    picker: screen.getByLabelText('Files to attach'),
    ...view,
  };
}

const pending = () => screen.getByRole('list', { name: 'Attachments to send' });
/** Waits until the image `name` shows as a thumbnail among the files to send. */
const shownThumbnail = (name: string) =>
  waitFor(() =>
    expect(within(pending()).getByRole('img', { name })).toHaveAttribute(
      'src',
      expect.stringMatching(/^blob:/),
    ),
  );
/** The list of files to send, once the files given have been read. */
const pendingSoon = () => screen.findByRole('list', { name: 'Attachments to send' });

describe('Composer attachments', () => {
  it('attaches an image and a text file from the picker, shows them, and sends them with the text', async () => {
    const { onSend, user, box, picker } = setup();
    await user.type(box, 'What are these?');
    await user.upload(picker, [png(), markdown()]);
    await shownThumbnail('photo.png');
    expect(within(pending()).getByRole('img', { name: 'photo.png' })).toHaveAttribute('src', 'blob:test/0');
    expect(within(pending()).getByText('notes.md')).toBeVisible();
    expect(within(pending()).getByText('8 B')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
    const [text, attachments] = onSend.mock.calls[0]!;
    expect(text).toBe('What are these?');
    expect(attachments).toEqual([
      {
        id: expect.stringMatching(/^file_/),
        name: 'photo.png',
        mimeType: 'image/png',
        size: 12,
        kind: 'image',
      },
      {
        id: expect.stringMatching(/^file_/),
        name: 'notes.md',
        mimeType: 'text/markdown',
        size: 8,
        kind: 'text',
      },
    ]);
    // Stored when attached: the message refers to these very bytes.
    expect(await (await app.session.attachments.get(attachments[1].id))?.text()).toBe('# Notes\n');
    expect(screen.queryByRole('list', { name: 'Attachments to send' })).toBeNull();
    // The thumbnail is gone, and so is its object URL.
    expect(revoked).toEqual(made);
  });

  it('sends files without text', async () => {
    const { onSend, user, picker } = setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.upload(picker, png());
    await shownThumbnail('photo.png');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [expect.objectContaining({ kind: 'image' })]);
  });

  it('removes a file with its Remove button, keeping the others and the text', async () => {
    const { user, box, picker } = setup();
    await user.type(box, 'Draft');
    await user.upload(picker, [png(), markdown()]);
    await user.click(await screen.findByRole('button', { name: 'Remove photo.png' }));
    expect(within(pending()).queryByRole('img')).toBeNull();
    expect(within(pending()).getByText('notes.md')).toBeVisible();
    expect(box).toHaveValue('Draft');
    expect(box).toHaveFocus();
  });

  it('says in an alert, naming the file, what cannot be attached, and keeps what was typed', async () => {
    const { user, box, picker } = setup();
    await user.type(box, 'Keep me');
    await user.upload(picker, [pdf(), markdown()]);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'report.pdf cannot be attached: only images (PNG, JPEG, WebP, GIF) and text or code files (UTF-8) can.',
    );
    expect(within(pending()).getByText('notes.md')).toBeVisible();
    expect(box).toHaveValue('Keep me');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses the files past the limit of a message, by name', async () => {
    const { user, picker } = setup();
    await user.upload(
      picker,
      Array.from({ length: 11 }, (_, i) => markdown(`note-${i + 1}.md`)),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'note-11.md was not attached: a message can carry at most 10 files.',
    );
    expect(within(pending()).getAllByRole('listitem')).toHaveLength(10);
  });

  it('attaches a pasted image, without pasting anything into the text', async () => {
    const { box } = setup();
    fireEvent.paste(box, { clipboardData: { files: [png('image.png')], types: ['Files'] } });
    await shownThumbnail('image.png');
    expect(box).toHaveValue('');
  });

  it('shows where to drop files while they are dragged over it, and attaches them when dropped', async () => {
    const { container } = setup();
    const form = container.querySelector('form')!;
    const dataTransfer = { types: ['Files'], files: [markdown()], dropEffect: 'none' };
    fireEvent.dragOver(form, { dataTransfer });
    expect(screen.getByText('Drop files to attach them')).toBeVisible();
    fireEvent.drop(form, { dataTransfer });
    expect(screen.queryByText('Drop files to attach them')).toBeNull();
    expect(await within(await pendingSoon()).findByText('notes.md')).toBeVisible();
  });

  it('keeps waiting files across a reload, and forgets them once sent (their bytes stay with the message)', async () => {
    const first = setup();
    await first.user.type(first.box, 'Look');
    await first.user.upload(first.picker, [png(), markdown()]);
    await shownThumbnail('photo.png');
    first.unmount();
    cleanup();

    const { onSend, user } = setup();
    await shownThumbnail('photo.png');
    expect(within(pending()).getByText('notes.md')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const [text, sent] = onSend.mock.calls[0]! as [string, AttachmentRef[]];
    expect(text).toBe('Look');
    expect(sent.map((a) => a.name)).toEqual(['photo.png', 'notes.md']);
    for (const { id } of sent) expect(await app.session.attachments.get(id)).toBeDefined();
    cleanup();
    setup();
    expect(screen.queryByRole('list', { name: 'Attachments to send' })).toBeNull();
  });

  it('deletes the bytes of a file removed before it was sent', async () => {
    const { user, picker } = setup();
    await user.upload(picker, markdown());
    await within(await pendingSoon()).findByText('notes.md');
    const [kept] = JSON.parse(sessionStorage.getItem('hopbase-chat:draft-files:conv_1')!) as AttachmentRef[];
    expect(await app.session.attachments.get(kept!.id)).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Remove notes.md' }));
    await waitFor(async () => expect(await app.session.attachments.get(kept!.id)).toBeUndefined());
    expect(sessionStorage.getItem('hopbase-chat:draft-files:conv_1')).toBeNull();
  });

  it('refuses a file whose bytes the browser would not store, naming it', async () => {
    vi.spyOn(app.session.attachments, 'put').mockRejectedValue(new Error('QuotaExceededError'));
    const { user, picker } = setup();
    await user.upload(picker, markdown());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'notes.md was not attached: this browser would not store it (QuotaExceededError).',
    );
    expect(screen.queryByRole('list', { name: 'Attachments to send' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('keeps each conversation’s files to itself', async () => {
    const { user, picker, rerender } = setup('conv_1');
    await user.upload(picker, markdown());
    await within(pending()).findByText('notes.md');
    const props = { streaming: false, onSend: vi.fn(), onStop: vi.fn() };
    rerender(<Composer draftKey="conv_2" {...props} />);
    expect(screen.queryByRole('list', { name: 'Attachments to send' })).toBeNull();
    rerender(<Composer draftKey="conv_1" {...props} />);
    expect(within(pending()).getByText('notes.md')).toBeVisible();
  });
});
