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

  it('shows the open conversation’s own protocol, and keeps a choice made there with it', async () => {
    const user = userEvent.setup();
    const conversations = app.stores.conversations.getState();
    const first = conversations.newConversation();
    conversations.addUserMessage(first, 'Hi');
    conversations.setChoices(first, { protocol: 'messages', model: 'sim-echo', reasoning: 'off' });
    const second = conversations.newConversation();
    conversations.addUserMessage(second, 'Hello');
    app.render(<ProtocolSelect />);
    const select = screen.getByRole('combobox', { name: 'Protocol' });
    // The second has no choice of its own yet: the default.
    expect(select).toHaveValue('chat');
    await user.selectOptions(select, 'Responses');
    expect(app.stores.conversations.getState().conversations[second]!.choices?.protocol).toBe('responses');

    act(() => app.stores.conversations.getState().selectConversation(first));
    expect(select).toHaveValue('messages');
    // Switching is not a choice: the default stays the last one made.
    expect(app.stores.settings.getState().settings.protocol).toBe('responses');
    act(() => app.stores.conversations.getState().selectConversation(second));
    expect(select).toHaveValue('responses');
  });

  it('follows changes made elsewhere', () => {
    app.render(<ProtocolSelect />);
    act(() => app.stores.settings.getState().update({ protocol: 'responses' }));
    expect(screen.getByRole('combobox', { name: 'Protocol' })).toHaveValue('responses');
  });
});
