import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings, useSettingsStore } from '../../state/settingsStore.ts';
import { SettingsDialog } from './SettingsDialog.tsx';

const initial = useSettingsStore.getState();
const settings = () => useSettingsStore.getState().settings;

beforeEach(() => useSettingsStore.setState(initial, true));

function open() {
  const onClose = vi.fn();
  const view = render(<SettingsDialog onClose={onClose} />);
  return {
    onClose,
    user: userEvent.setup(),
    dialog: screen.getByRole('dialog', { name: 'Settings' }),
    ...view,
  };
}

const labels = {
  baseUrl: /^Gateway base URL/,
  apiKey: 'API key',
  rememberKey: /^Remember the API key in this browser/,
  systemPrompt: 'System prompt',
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
});
