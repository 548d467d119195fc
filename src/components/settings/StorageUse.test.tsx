import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../testing/testApp.tsx';
import { SettingsDialog } from './SettingsDialog.tsx';

/** A browser storage manager that has not granted persistence until asked. */
function fakeStorage(grant: boolean) {
  let persisted = false;
  const manager = {
    estimate: vi.fn(async () => ({ usage: 1_460_000, quota: 2_100_000_000 })),
    persisted: vi.fn(async () => persisted),
    persist: vi.fn(async () => {
      persisted = grant;
      return grant;
    }),
  };
  Object.defineProperty(navigator, 'storage', { value: manager, configurable: true });
  return manager;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'storage');
});

describe('Settings: storage in this browser', () => {
  it('shows how much is used, and asks the browser to keep it', async () => {
    const user = userEvent.setup();
    const manager = fakeStorage(true);
    const app = createTestApp();
    app.render(<SettingsDialog onClose={() => {}} />);
    const section = screen.getByRole('group', { name: 'Storage in this browser' });
    expect(await within(section).findByText(/In use: 1\.5 MB of the 2\.1 GB it allows/)).toBeInTheDocument();
    expect(section).toHaveTextContent('The browser may remove it when space runs low.');
    await user.click(within(section).getByRole('button', { name: 'Ask the browser to keep it' }));
    expect(manager.persist).toHaveBeenCalledTimes(1);
    expect(await within(section).findByText(/will not remove it to free space/)).toBeInTheDocument();
  });

  it('says so where the browser gives no estimate', () => {
    const app = createTestApp();
    app.render(<SettingsDialog onClose={() => {}} />);
    expect(screen.getByRole('group', { name: 'Storage in this browser' })).toHaveTextContent(
      'This browser does not say how much space they take.',
    );
  });
});

describe('the startup request for persistent storage', () => {
  it('asks only when the browser does not keep the data already', async () => {
    const manager = fakeStorage(false);
    const app = createTestApp();
    expect(await app.stores.storage.getState().requestPersistence()).toBe(false);
    expect(manager.persist).toHaveBeenCalledTimes(1);
    expect(app.stores.storage.getState().persisted).toBe(false);

    manager.persisted.mockResolvedValue(true);
    expect(await app.stores.storage.getState().requestPersistence()).toBe(true);
    expect(manager.persist).toHaveBeenCalledTimes(1);
  });
});
