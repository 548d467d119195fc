import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ProtocolSelect } from './ProtocolSelect.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});

describe('ProtocolSelect', () => {
  it('offers the three protocols and shows the current one', () => {
    app.render(<ProtocolSelect />);
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
    app.render(<ProtocolSelect />);
    const select = screen.getByRole('combobox', { name: 'Protocol' });
    await user.selectOptions(select, 'Anthropic Messages');
    expect(app.stores.settings.getState().settings.protocol).toBe('messages');
    expect(select).toHaveValue('messages');
    await user.selectOptions(select, 'Responses');
    expect(app.stores.settings.getState().settings.protocol).toBe('responses');
  });

  it('follows changes made elsewhere', () => {
    app.render(<ProtocolSelect />);
    act(() => app.stores.settings.getState().update({ protocol: 'responses' }));
    expect(screen.getByRole('combobox', { name: 'Protocol' })).toHaveValue('responses');
  });
});
