import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/i18n.tsx';
import type { UnreadableRecord } from '../../state/formats/records.ts';
import { captureDownloads } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { StorageWarning } from './StorageWarning.tsx';
import { countUnreadable } from './UnreadableRecordsBanner.tsx';

let app: TestApp;
/** Blobs handed to `URL.createObjectURL` and the names the download links were clicked with. */
let blobs: Blob[];
let downloads: string[];

const bad: UnreadableRecord = {
  key: 'conversation:conv_bad',
  what: 'conversation',
  reason: 'messages: expected a list',
  value: { id: 'conv_bad', title: 'Broken', messages: null },
};

beforeEach(() => {
  app = createTestApp();
  ({ blobs, names: downloads } = captureDownloads());
});

afterEach(() => vi.restoreAllMocks());

describe('unreadable saved records', () => {
  it('are counted, explained, offered as a file, and can be dismissed', async () => {
    const user = userEvent.setup();
    app.stores.storage.setState({ unreadable: [bad] });
    app.render(<StorageWarning />);
    const banner = screen.getByRole('region', { name: 'Saved data that could not be read' });
    expect(banner).toHaveTextContent('1 saved conversation could not be read.');
    expect(banner).toHaveTextContent(/kept as it is in this browser’s storage, never overwritten/);
    await user.click(within(banner).getByText('What is wrong'));
    expect(within(banner).getByRole('listitem')).toHaveTextContent(
      'conversation:conv_bad: messages: expected a list',
    );

    await user.click(within(banner).getByRole('button', { name: 'Download unreadable records' }));
    expect(downloads).toEqual([
      expect.stringMatching(/^hopbase-chat-unreadable-records-\d{4}-\d\d-\d\d\.json$/),
    ]);
    const file = JSON.parse(await blobs[0]!.text());
    expect(file.records).toEqual([{ ...bad }]);

    await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Saved data that could not be read' })).toBeNull();
    // A record set aside later shows it again.
    act(() =>
      app.stores.storage.setState({
        unreadable: [bad, { ...bad, key: 'set-aside:settings:1', what: 'settings' }],
      }),
    );
    expect(screen.getByRole('region', { name: 'Saved data that could not be read' })).toHaveTextContent(
      '1 saved conversation and 1 settings record could not be read.',
    );
  });

  it('says which settings fell back to their defaults', () => {
    app.stores.storage.setState({ resetSettings: ['model', 'temperature'] });
    app.render(<StorageWarning />);
    const banner = screen.getByRole('region', { name: 'Saved data that could not be read' });
    expect(banner).toHaveTextContent(
      'Some saved settings could not be read and are back to their defaults: model, temperature.',
    );
    expect(within(banner).queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it('are counted in plain words', () => {
    const of = (what: UnreadableRecord['what']) => ({ ...bad, what });
    expect(countUnreadable(createI18n('en'), [of('conversation'), of('conversation'), of('recording')])).toBe(
      '2 saved conversations and 1 recording',
    );
    expect(countUnreadable(createI18n('en'), [of('recording'), of('conversation'), of('settings')])).toBe(
      '1 recording, 1 saved conversation and 1 settings record',
    );
    expect(countUnreadable(createI18n('en'), [of('request'), of('request')])).toBe('2 sent requests');
  });
});

describe('a database that cannot be read', () => {
  it('is an alert that says nothing was changed, with a way to reload', () => {
    app.stores.storage.setState({
      loadError: 'The database is blocked',
    });
    app.render(<StorageWarning />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'Saved conversations could not be read: The database is blocked. Nothing stored has been changed',
    );
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
