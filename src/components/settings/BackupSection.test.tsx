import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, entries, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { indexedDbStorage } from '../../state/storage/appStorage.ts';
import { readEverything } from '../../state/storage/backupRecords.ts';
import { captureDownloads } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { BackupSection } from './BackupSection.tsx';

let app: TestApp;
let db: UseStore;
let dbCount = 0;
/** Blobs handed to `URL.createObjectURL` and the names the download links were clicked with. */
let blobs: Blob[];
let downloads: string[];

const stored = {
  id: 'conv_1',
  title: 'Kept',
  createdAt: 1,
  updatedAt: 2,
  revision: 1,
  messages: [{ id: 'msg_1', role: 'user', text: 'Hello', createdAt: 1 }],
};

/** Opens the test's database, when the storage first needs it. */
let open: ReturnType<typeof vi.fn<() => UseStore>>;

beforeEach(async () => {
  db = createStore(`hopbase-backup-ui-${++dbCount}`, 'state');
  open = vi.fn(() => db);
  app = createTestApp({ storage: indexedDbStorage({ open }) });
  await set('conversation:conv_1', stored, db);
  await set('settings', { systemPrompt: 'Be brief', apiKey: 'sk-remembered-key', rememberKey: true }, db);
  ({ blobs, names: downloads } = captureDownloads());
});

afterEach(() => vi.restoreAllMocks());

function renderSection() {
  app.render(<BackupSection />);
  return { database: open, user: userEvent.setup() };
}

const snapshot = async () => Object.fromEntries((await entries(db)).map(([k, v]) => [String(k), v]));

describe('BackupSection', () => {
  it('offers Back up and Restore, with the file input labelled, and opens nothing until asked', async () => {
    const { database, user } = renderSection();
    expect(screen.getByRole('group', { name: 'Back up and restore' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back up' })).toBeInTheDocument();
    const input = screen.getByLabelText('Backup file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('tabindex', '-1');
    expect(database).not.toHaveBeenCalled();
    // Restore opens the file picker.
    const picked = vi.spyOn(input, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(picked).toHaveBeenCalledOnce();
  });

  it('downloads the backup and says what it holds, without the API key', async () => {
    app.stores.settings.getState().update({ apiKey: 'sk-remembered-key' });
    const { user } = renderSection();
    await user.click(screen.getByRole('button', { name: 'Back up' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        /^Backed up 1 conversation, 0 recordings and the settings \(not the API key\) to hopbase-chat-backup-\d{4}-\d\d-\d\d\.json\.$/,
      ),
    );
    expect(downloads).toEqual([expect.stringMatching(/^hopbase-chat-backup-\d{4}-\d\d-\d\d\.json$/)]);
    const text = await blobs[0]!.text();
    expect(text).not.toContain('sk-remembered-key');
    expect(JSON.parse(text)).toMatchObject({
      format: 'hopbase-chat-backup',
      version: 1,
      conversations: [{ id: 'conv_1', title: 'Kept' }],
      settings: { systemPrompt: 'Be brief' },
    });
  });

  it('restores a file and sums it up, listing the entries it could not read', async () => {
    const { user } = renderSection();
    const file = new File(
      [
        JSON.stringify({
          format: 'hopbase-chat-backup',
          version: 1,
          conversations: [
            { ...stored, id: 'conv_2', title: 'From the backup' },
            { id: 'conv_3', title: 'Damaged', createdAt: 1, messages: 'no' },
          ],
          settings: { systemPrompt: 'From the backup', apiKey: 'sk-in-a-file' },
        }),
      ],
      'hopbase-chat-backup-2025-10-02.json',
      { type: 'application/json' },
    );
    await user.upload(screen.getByLabelText('Backup file'), file);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Restored 1 conversation, 0 recordings; 1 entry could not be read. Conversations: 1 new here. Settings applied (the API key stays as it is).',
      ),
    );
    expect(screen.getByRole('list', { name: 'Entries that could not be read' })).toHaveTextContent(
      'conversation 2 (Damaged): messages: expected a list',
    );
    const after = await readEverything(db);
    expect(after.conversations.map((c) => c.title).sort()).toEqual(['From the backup', 'Kept']);
    expect(after.settings).toMatchObject({ systemPrompt: 'From the backup', apiKey: 'sk-remembered-key' });
  });

  it('refuses a file that is not a backup, says why, and writes nothing', async () => {
    const { user } = renderSection();
    const before = await snapshot();
    const file = new File(
      ['{"format":"hopbase-chat-backup","version":7,"conversations":[]}'],
      'future.json',
      {
        type: 'application/json',
      },
    );
    await user.upload(screen.getByLabelText('Backup file'), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This backup was made by a newer version of HopBase Chat (backup version 7); this version reads version 1. Update the app, then restore it. Nothing was changed.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(await snapshot()).toEqual(before);
  });

  it('lists a restored record in place of the unreadable one it replaced', async () => {
    await set('conversation:conv_1', { id: 'conv_1', title: 'Broken', messages: 1 }, db);
    app.stores.storage.setState({
      unreadable: [{ key: 'conversation:conv_1', what: 'conversation', reason: 'broken', value: null }],
    });
    const { user } = renderSection();
    const file = new File(
      [JSON.stringify({ format: 'hopbase-chat-backup', version: 1, conversations: [stored] })],
      'b.json',
    );
    await user.upload(screen.getByLabelText('Backup file'), file);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/^Restored 1 conversation/));
    expect(app.stores.storage.getState().unreadable.map((r) => r.key)).toEqual([
      expect.stringMatching(/^set-aside:conversation:conv_1:\d+$/),
    ]);
  });
});
