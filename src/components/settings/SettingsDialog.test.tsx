import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../state/stores/settingsStore.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { SettingsDialog } from './SettingsDialog.tsx';

let app: TestApp;

const settings = () => app.stores.settings.getState().settings;

beforeEach(() => {
  app = createTestApp();
});

function open() {
  const onClose = vi.fn();
  const view = app.render(<SettingsDialog onClose={onClose} />);
  return {
    onClose,
    user: userEvent.setup(),
    dialog: screen.getByRole('dialog', { name: 'Settings' }),
    ...view,
  };
}

/** A Settings button that opens the dialog, as the toolbar does. */
function Harness() {
  const [openNow, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Settings
      </button>
      {openNow ? <SettingsDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

const labels = {
  baseUrl: /^Gateway base URL/,
  apiKey: 'API key',
  rememberKey: /^Remember the API key in this browser/,
  systemPrompt: 'System prompt for new chats',
  maxOutputTokens: 'Max output tokens',
  temperature: 'Temperature',
  offerTools: /^Offer the demo tool/,
  stallSilent: /^Stall warning after/,
  stallDead: /^Dead connection after/,
  autoRetry: /^Retry automatically/,
};

describe('SettingsDialog', () => {
  it('is a modal dialog with every field labelled and showing the current settings', () => {
    const { dialog } = open();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByLabelText(labels.baseUrl)).toHaveValue('');
    expect(screen.getByLabelText(labels.baseUrl)).toHaveFocus();
    expect(screen.getByLabelText(labels.apiKey)).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText(labels.rememberKey)).not.toBeChecked();
    expect(screen.getByLabelText(labels.systemPrompt)).toHaveValue('');
    expect(screen.getByLabelText(labels.maxOutputTokens)).toHaveValue(null);
    expect(screen.getByLabelText(labels.temperature)).toHaveValue(null);
    expect(screen.getByLabelText(labels.offerTools)).toBeChecked();
    expect(screen.getByLabelText(labels.stallSilent)).toHaveValue(defaultSettings.stallSilentSeconds);
    expect(screen.getByLabelText(labels.stallDead)).toHaveValue(defaultSettings.stallDeadSeconds);
    expect(screen.getByLabelText(labels.autoRetry)).toBeChecked();
  });

  it('writes every change to the settings store at once', async () => {
    const { user } = open();
    await user.type(screen.getByLabelText(labels.baseUrl), 'https://gw.example.com/v1');
    await user.type(screen.getByLabelText(labels.apiKey), 'sk-test');
    await user.click(screen.getByLabelText(labels.rememberKey));
    await user.type(screen.getByLabelText(labels.systemPrompt), 'Be brief.');
    await user.type(screen.getByLabelText(labels.maxOutputTokens), '256');
    await user.type(screen.getByLabelText(labels.temperature), '1.5');
    await user.click(screen.getByLabelText(labels.offerTools));
    await user.click(screen.getByLabelText(labels.autoRetry));
    expect(settings()).toEqual({
      ...defaultSettings,
      baseUrl: 'https://gw.example.com/v1',
      apiKey: 'sk-test',
      rememberKey: true,
      systemPrompt: 'Be brief.',
      maxOutputTokens: 256,
      temperature: 1.5,
      offerTools: false,
      autoRetry: false,
    });

    await user.clear(screen.getByLabelText(labels.maxOutputTokens));
    expect(settings().maxOutputTokens).toBeNull();
  });

  it('accepts new stall thresholds', async () => {
    const { user } = open();
    const silent = screen.getByLabelText(labels.stallSilent);
    await user.tripleClick(silent);
    await user.keyboard('45');
    expect(settings().stallSilentSeconds).toBe(45);
    const dead = screen.getByLabelText(labels.stallDead);
    await user.tripleClick(dead);
    await user.keyboard('60');
    expect(settings().stallDeadSeconds).toBe(60);
    expect(dead).toHaveValue(60);
  });

  it('lets a stall threshold be emptied and retyped, keeping the stored value until it is valid', async () => {
    const { user } = open();
    const silent = screen.getByLabelText(labels.stallSilent);
    await user.clear(silent);
    expect(silent).toHaveValue(null);
    expect(settings().stallSilentSeconds).toBe(defaultSettings.stallSilentSeconds);
    await user.type(silent, '45');
    expect(silent).toHaveValue(45);
    expect(settings().stallSilentSeconds).toBe(45);

    // Zero is not a threshold; leaving the field shows what is stored.
    await user.clear(silent);
    await user.type(silent, '0');
    expect(settings().stallSilentSeconds).toBe(45);
    await user.tab();
    expect(silent).toHaveValue(45);
  });

  it('edits the thinking budget of each reasoning level, keeping the stored one until a valid number is typed', async () => {
    const { user, dialog } = open();
    const high = screen.getByRole('spinbutton', { name: 'High budget (tokens)' });
    expect(dialog).toContainElement(high);
    expect(high).toHaveValue(16384);
    expect(screen.getByRole('spinbutton', { name: 'Low budget (tokens)' })).toHaveValue(2048);
    expect(screen.getByRole('spinbutton', { name: 'Medium budget (tokens)' })).toHaveValue(8192);
    await user.clear(high);
    await user.type(high, '900');
    expect(high).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'A whole number of at least 1,024; 16,384 is in use.',
    );
    expect(settings().thinkingBudgets.high).toBe(16384);
    await user.type(high, '0');
    expect(settings().thinkingBudgets).toEqual({ low: 2048, medium: 8192, high: 9000 });
    expect(high).toHaveAttribute('aria-invalid', 'false');
  });

  it('closes on Escape', async () => {
    const { onClose, user } = open();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with the Close button', async () => {
    const { onClose, user } = open();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on a click outside the dialog, not inside it', async () => {
    const { onClose, user, dialog } = open();
    await user.click(dialog);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(dialog.parentElement!);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stops listening for Escape once closed', async () => {
    const { onClose, user, unmount } = open();
    unmount();
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('applies the base URL when the field is left, not on every keystroke', async () => {
    const { user } = open();
    const field = screen.getByLabelText(labels.baseUrl);
    const seen: string[] = [];
    const stop = app.stores.settings.subscribe((s) => seen.push(s.settings.baseUrl));
    await user.type(field, 'https://gateway.example.com/v1');
    expect(settings().baseUrl).toBe('');
    expect(seen).toEqual([]);
    await user.tab();
    expect(settings().baseUrl).toBe('https://gateway.example.com/v1');
    // One write, never a half-typed address such as https://gateway.example.co.
    expect(seen).toEqual(['https://gateway.example.com/v1']);
    stop();
  });

  it('says that a gateway called directly answers only while the page is open', async () => {
    const { user } = open();
    const field = screen.getByLabelText(labels.baseUrl);
    expect(field).not.toHaveAccessibleDescription();
    await user.type(field, 'https://gateway.example.com/v1');
    await user.tab();
    expect(field).toHaveAccessibleDescription(/a reload or a closed tab ends the answer/);
  });

  it('shows a base URL changed elsewhere while open, and never writes the old one back on closing', async () => {
    app.stores.settings.getState().update({ baseUrl: 'https://old.example/v1' });
    const { unmount } = open();
    const field = screen.getByLabelText(labels.baseUrl);
    // A restored backup's gateway, once the person said yes (or another tab's change).
    act(() => app.stores.settings.getState().update({ baseUrl: 'https://new.example/v1' }));
    expect(field).toHaveValue('https://new.example/v1');
    unmount();
    expect(settings().baseUrl).toBe('https://new.example/v1');
  });

  it('keeps what the person is typing when the base URL changes elsewhere', async () => {
    const { user } = open();
    const field = screen.getByLabelText(labels.baseUrl);
    await user.type(field, 'https://mine.example/v1');
    act(() => app.stores.settings.getState().update({ baseUrl: 'https://other.example/v1' }));
    expect(field).toHaveValue('https://mine.example/v1');
    await user.tab();
    expect(settings().baseUrl).toBe('https://mine.example/v1');
  });

  it('applies the base URL on Enter, trimmed', async () => {
    const { user, onClose } = open();
    await user.type(screen.getByLabelText(labels.baseUrl), '  http://localhost:8787/v1 {Enter}');
    expect(settings().baseUrl).toBe('http://localhost:8787/v1');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('refuses an address that is not a complete http(s) URL, saying so next to the field', async () => {
    app.stores.settings.getState().update({ baseUrl: 'https://old.example/v1' });
    const { user } = open();
    const field = screen.getByLabelText(labels.baseUrl);
    for (const bad of ['gateway.example.com/v1', 'ftp://files.example/v1', 'javascript:alert(1)']) {
      await user.clear(field);
      await user.type(field, `${bad}{Enter}`);
      expect(screen.getByRole('alert')).toHaveTextContent('Enter a full http:// or https:// address');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(/Enter a full http:\/\/ or https:\/\/ address/);
      expect(settings().baseUrl).toBe('https://old.example/v1');
    }
    // Emptying it is valid: back to this server's /v1.
    await user.clear(field);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.tab();
    expect(settings().baseUrl).toBe('');
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });

  it('applies the API key when the field is left, not on every keystroke', async () => {
    const { user } = open();
    const field = screen.getByLabelText(labels.apiKey);
    await user.type(field, 'sk-new-key');
    expect(settings().apiKey).toBe('');
    await user.keyboard('{Enter}');
    expect(settings().apiKey).toBe('sk-new-key');
  });

  it('applies what was typed when the dialog closes with Escape, if it is valid', async () => {
    const { user, unmount } = open();
    await user.type(screen.getByLabelText(labels.baseUrl), 'https://gw.example/v1');
    await user.keyboard('{Escape}');
    unmount();
    expect(settings().baseUrl).toBe('https://gw.example/v1');
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user, dialog } = open();
    const controls = [...dialog.querySelectorAll<HTMLElement>('button, input, textarea')];
    const first = controls[0]!;
    const last = controls.at(-1)!;
    expect(first).toHaveAccessibleName('Close');
    last.focus();
    await user.tab();
    expect(first).toHaveFocus();
    await user.tab({ shift: true });
    expect(last).toHaveFocus();
    // Every stop of a full round is inside the dialog.
    for (let i = 0; i < controls.length + 2; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('gives focus back to the Settings button when it closes', async () => {
    app.render(<Harness />);
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Settings' });
    await user.click(button);
    expect(screen.getByLabelText(labels.baseUrl)).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });
});
