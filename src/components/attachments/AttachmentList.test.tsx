import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { fakeObjectUrls } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { AttachmentList } from './AttachmentList.tsx';

let app: TestApp;
let made: string[];
let revoked: string[];
beforeEach(() => {
  app = createTestApp();
  ({ made, revoked } = fakeObjectUrls());
});

const photo: AttachmentRef = {
  id: 'file_1',
  name: 'cat.png',
  mimeType: 'image/png',
  size: 1234,
  kind: 'image',
};
const notes: AttachmentRef = {
  id: 'file_2',
  name: 'notes.md',
  mimeType: 'text/markdown',
  size: 2500,
  kind: 'text',
};
const gone: AttachmentRef = {
  id: 'file_3',
  name: 'lost.jpg',
  mimeType: 'image/jpeg',
  size: 10,
  kind: 'image',
};

describe('AttachmentList', () => {
  it('shows stored images as thumbnails and files as their name and size', async () => {
    await app.session.attachments.put([{ ref: photo, blob: new Blob(['png'], { type: 'image/png' }) }]);
    app.render(<AttachmentList attachments={[photo, notes]} />);
    const list = screen.getByRole('list', { name: 'Attachments' });
    await waitFor(() =>
      expect(within(list).getByRole('img', { name: 'cat.png' })).toHaveAttribute('src', made[0]),
    );
    expect(within(list).getByText('notes.md')).toBeVisible();
    expect(within(list).getByText('2.5 kB')).toBeVisible();
  });

  it('names an image whose bytes are no longer stored, instead of a broken picture', async () => {
    app.render(<AttachmentList attachments={[gone]} />);
    expect(await screen.findByText('not stored here')).toBeVisible();
    expect(screen.getByText('lost.jpg')).toBeVisible();
    expect(screen.queryByRole('img', { name: 'lost.jpg' })).toBeNull();
  });

  it('lets go of its object URLs when it is no longer shown', async () => {
    await app.session.attachments.put([{ ref: photo, blob: new Blob(['png'], { type: 'image/png' }) }]);
    const view = app.render(<AttachmentList attachments={[photo]} />);
    await waitFor(() => expect(made).toHaveLength(1));
    view.unmount();
    expect(revoked).toEqual(made);
  });
});
