import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, keys, set } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsDialog } from '../components/settings/SettingsDialog.tsx';
import { loadState } from '../state/storage/load.ts';
import { startPersisting } from '../state/storage/persistence.ts';
import { createAppStores } from '../state/stores/appStores.ts';
import { createTestApp } from '../testing/testApp.tsx';
import { Localized } from './Localized.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  document.documentElement.removeAttribute('lang');
});

describe('the language chosen in Settings', () => {
  it('is saved with the settings and back after a reload', async () => {
    const db = createStore('hopbase-language-test', 'state');
    const stores = createAppStores();
    const stop = startPersisting(db, stores, 5);
    stores.settings.getState().update({ language: 'ja' });
    await stop();
    await keys(db);

    const reloaded = createAppStores();
    await loadState(db, reloaded);
    expect(reloaded.settings.getState().settings.language).toBe('ja');
  });

  it('falls back to automatic when what is stored is not a language tag', async () => {
    const db = createStore('hopbase-language-test-bad', 'state');
    await set('settings', { language: 42, model: 'sim-tools' }, db);
    const stores = createAppStores();
    await loadState(db, stores);
    expect(stores.settings.getState().settings).toMatchObject({ language: 'auto', model: 'sim-tools' });
  });

  it('switches the words and <html lang> at once, and Automatic follows the browser', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['zh-CN', 'en']);
    const app = createTestApp();
    const user = userEvent.setup();
    app.render(
      <Localized>
        <SettingsDialog onClose={() => {}} />
      </Localized>,
    );
    // Automatic: the browser's Chinese.
    const chinese = await screen.findByRole('dialog', { name: '设置' });
    expect(document.documentElement.lang).toBe('zh-CN');

    await user.selectOptions(within(chinese).getByRole('combobox', { name: '语言' }), 'es');
    const spanish = await screen.findByRole('dialog', { name: 'Ajustes' });
    expect(app.stores.settings.getState().settings.language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    const options = within(spanish).getAllByRole('option').slice(0, 5);
    expect(options.map((o) => [o.textContent, o.getAttribute('lang')])).toEqual([
      ['Automático (navegador)', null],
      ['English', 'en'],
      ['Español', 'es'],
      ['简体中文', 'zh-CN'],
      ['日本語', 'ja'],
    ]);

    await user.selectOptions(within(spanish).getByRole('combobox', { name: 'Idioma' }), 'auto');
    expect(await screen.findByRole('dialog', { name: '设置' })).toBeInTheDocument();
    expect(app.stores.settings.getState().settings.language).toBe('auto');
  });
});
