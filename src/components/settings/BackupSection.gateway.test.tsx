/**
 * A backup names the gateway of the browser it came from. Restored here, that address is never applied on
 * its own: the API key (and the model list request that carries it) would go to it at once. The person is
 * asked, in words that name the address, and only their yes applies it.
 */
import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, get, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { indexedDbStorage } from '../../state/storage/appStorage.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ModelSelect } from '../header/ModelSelect.tsx';
import { BackupSection } from './BackupSection.tsx';

const here = 'https://gw.example/v1';
const theirs = 'https://evil.example/v1';

let app: TestApp;
let db: UseStore;
let dbCount = 0;
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(async () => {
  db = createStore(`hopbase-backup-gateway-${++dbCount}`, 'state');
  await set('settings', { baseUrl: here, apiKey: 'sk-mine', rememberKey: true }, db);
  fetchMock = vi.fn<typeof fetch>(
    async () =>
      new Response(JSON.stringify({ object: 'list', data: [{ id: 'sim-echo', object: 'model' }] }), {
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  app = createTestApp({ storage: indexedDbStorage({ open: () => db }) });
  // As the app runs: loaded, persisting, and hearing what a restore announces.
  const loaded = await app.storage.load(app.stores);
  app.storage.persist(app.stores, loaded);
});

afterEach(async () => {
  await app.storage.stop();
  vi.unstubAllGlobals();
});

const calledUrls = () => fetchMock.mock.calls.map(([url]) => String(url));

async function restore(settings: Record<string, unknown>) {
  const user = userEvent.setup();
  app.render(
    <>
      <ModelSelect />
      <BackupSection />
    </>,
  );
  await waitFor(() => expect(calledUrls()).toContain(`${here}/models`));
  const file = new File(
    [JSON.stringify({ format: 'hopbase-chat-backup', version: 1, conversations: [], settings })],
    'backup.json',
    { type: 'application/json' },
  );
  await user.upload(screen.getByLabelText('Backup file'), file);
  await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/^Restored 0 conversations/));
  return user;
}

const settingsNow = () => app.stores.settings.getState().settings;

describe('restoring a backup with another gateway', () => {
  it('applies the rest of its settings, but sends nothing to its gateway until the person says so', async () => {
    const user = await restore({ baseUrl: theirs, systemPrompt: 'From the backup' });
    // The other settings reached this tab through the change feed, as another tab's would.
    await waitFor(() => expect(settingsNow().systemPrompt).toBe('From the backup'));
    expect(settingsNow().baseUrl).toBe(here);
    expect((await get<{ baseUrl: string }>('settings', db))?.baseUrl).toBe(here);
    expect(calledUrls().filter((url) => url.startsWith('https://evil.example'))).toEqual([]);

    const question = screen.getByRole('group', { name: 'The backup’s gateway' });
    expect(question).toHaveAccessibleDescription(
      `This backup calls its gateway at ${theirs}; this browser calls ${here}. The gateway here is unchanged. Choose the backup’s only if you trust it: your API key will then be sent to ${theirs}.`,
    );
    expect(screen.getByRole('button', { name: `Keep ${here}` })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: `Use ${theirs} and send my API key there` }));
    expect(settingsNow().baseUrl).toBe(theirs);
    expect(screen.queryByRole('group', { name: 'The backup’s gateway' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`The gateway is now ${theirs}.`);
    // Now, and only now, the model list is asked of it.
    await waitFor(() => expect(calledUrls()).toContain(`${theirs}/models`));
    await waitFor(async () => expect((await get<{ baseUrl: string }>('settings', db))?.baseUrl).toBe(theirs));
  });

  it('keeps this browser’s gateway when the person says so', async () => {
    const user = await restore({ baseUrl: theirs });
    await user.click(screen.getByRole('button', { name: `Keep ${here}` }));
    expect(screen.queryByRole('group', { name: 'The backup’s gateway' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`The gateway stays ${here}.`);
    expect(settingsNow().baseUrl).toBe(here);
    expect(calledUrls().filter((url) => url.startsWith('https://evil.example'))).toEqual([]);
  });

  it('names this app’s own server when the backup’s gateway is it', async () => {
    await restore({ baseUrl: '' });
    expect(
      screen.getByRole('button', { name: 'Use this app’s own server and send my API key there' }),
    ).toBeVisible();
    expect(settingsNow().baseUrl).toBe(here);
  });

  it('asks nothing when the backup’s gateway is this browser’s', async () => {
    await restore({ baseUrl: `${here}/`, systemPrompt: 'Same gateway' });
    await waitFor(() => expect(settingsNow().systemPrompt).toBe('Same gateway'));
    expect(screen.queryByRole('group', { name: 'The backup’s gateway' })).not.toBeInTheDocument();
  });
});
