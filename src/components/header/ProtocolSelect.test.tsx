import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSettingsStore } from '../../state/settingsStore.ts';
import { ProtocolSelect } from './ProtocolSelect.tsx';

const initial = useSettingsStore.getState();

beforeEach(() => useSettingsStore.setState(initial, true));

describe('ProtocolSelect', () => {
  it('offers the three protocols and shows the current one', () => {
    render(<ProtocolSelect />);
    const select = screen.getByRole('combobox', { name: 'Protocol' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Chat Completions',
      'Responses',
      'Anthropic Messages',
    ]);
    expect(select).toHaveValue('chat');
    expect(screen.getByRole('option', { name: 'Chat Completions' })).toHaveProperty('selected', true);
  });

  it('writes the choice to the settings store', async () => {
    const user = userEvent.setup();
    render(<ProtocolSelect />);
    const select = screen.getByRole('combobox', { name: 'Protocol' });
    await user.selectOptions(select, 'Anthropic Messages');
    expect(useSettingsStore.getState().settings.protocol).toBe('messages');
    expect(select).toHaveValue('messages');
    await user.selectOptions(select, 'Responses');
    expect(useSettingsStore.getState().settings.protocol).toBe('responses');
  });

  it('follows changes made elsewhere', () => {
    render(<ProtocolSelect />);
    act(() => useSettingsStore.getState().update({ protocol: 'responses' }));
    expect(screen.getByRole('combobox', { name: 'Protocol' })).toHaveValue('responses');
  });
});
