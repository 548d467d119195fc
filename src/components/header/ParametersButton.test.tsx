import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useConversations } from '../../hooks/useStores.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ParametersButton } from './ParametersButton.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
  app.stores.settings.getState().update({ temperature: 0.3, protocol: 'chat', reasoning: 'off' });
});

/** The button as the toolbar shows it, for the open conversation. */
function ActiveParameters() {
  const conversation = useConversations((s) => (s.activeId ? s.conversations[s.activeId]! : null));
  return <ParametersButton conversation={conversation} />;
}

const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;
const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const save = () => screen.getByRole('button', { name: 'Save' });

async function open() {
  const user = userEvent.setup();
  app.render(<ActiveParameters />);
  await user.click(screen.getByRole('button', { name: 'Parameters' }));
  // The dialog's code is fetched on first open; focus moves into it in an effect after it renders.
  await waitFor(() => expect(field('Temperature')).toHaveFocus());
  return user;
}

describe('ParametersButton', () => {
  it('shows the defaults for a new chat with Chat Completions’ ranges, and Save makes them that chat’s own', async () => {
    const user = await open();
    expect(screen.getByRole('dialog', { name: 'Parameters' })).toBeInTheDocument();
    expect(field('Temperature')).toHaveValue('0.3');
    expect(field('Temperature')).toHaveAccessibleDescription('A number from 0 to 2.');
    expect(field('Max output tokens')).toHaveAccessibleDescription('A whole number of at least 1.');
    expect(field('Presence penalty')).toHaveAccessibleDescription('A number from -2 to 2.');
    expect(field('Seed')).toHaveAccessibleDescription('Any whole number.');

    await user.clear(field('Temperature'));
    await user.type(field('Top P'), '0.9');
    await user.type(field('Seed'), '42');
    await user.click(screen.getByRole('button', { name: 'Add stop sequence' }));
    await user.type(field('Stop sequence 1'), 'END\\n');
    await user.click(save());

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(active().parameters).toEqual({ topP: 0.9, seed: 42, stop: ['END\n'] });
    expect(active().messages).toEqual([]);
    expect(app.stores.settings.getState().settings.temperature).toBe(0.3);
    expect(screen.getByRole('button', { name: 'Parameters' })).toHaveFocus();
  });

  it('keeps the fields as typed while the tools are open, and focus comes back to Tools… after', async () => {
    const user = await open();
    await user.clear(field('Temperature'));
    await user.type(field('Temperature'), '0.7');
    await user.click(screen.getByRole('button', { name: 'Tools…' }));
    const done = await screen.findByRole('button', { name: 'Done' });
    await user.click(done);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Tools…' })).toHaveFocus());
    expect(field('Temperature')).toHaveValue('0.7');
  });

  it('refuses a value out of the protocol’s range with a clear message, and keeps nothing', async () => {
    const id = conversations().newConversation();
    conversations().setParameters(id, { temperature: 0.5 });
    const user = await open();
    await user.clear(field('Temperature'));
    await user.type(field('Temperature'), '2.5');
    await user.tab();
    expect(field('Temperature')).toBeInvalid();
    expect(field('Temperature')).toHaveAccessibleDescription(
      'A number from 0 to 2. Chat Completions does not accept 2.5 here.',
    );
    await user.type(field('Frequency penalty'), 'lots');
    await user.click(save());
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing was saved: correct the fields marked.');
    expect(field('Frequency penalty')).toHaveAccessibleDescription(/“lots” is not a number\.$/);
    await waitFor(() => expect(field('Temperature')).toHaveFocus());
    expect(active().parameters).toEqual({ temperature: 0.5 });

    await user.clear(field('Temperature'));
    await user.type(field('Temperature'), '2');
    await user.clear(field('Frequency penalty'));
    await user.click(save());
    expect(active().parameters).toEqual({ temperature: 2 });
  });

  it('shows what the protocol lacks as not sent, and Anthropic’s narrower ranges', async () => {
    app.stores.settings.getState().update({ protocol: 'messages' });
    const user = await open();
    expect(field('Seed')).toBeDisabled();
    expect(field('Seed')).toHaveAccessibleDescription('Anthropic Messages has no such parameter: not sent.');
    expect(field('Temperature')).toHaveAccessibleDescription('A number from 0 to 1.');
    expect(screen.getByRole('group', { name: /Stop sequences/ })).toBeEnabled();
    await user.clear(field('Temperature'));
    await user.type(field('Temperature'), '1.5');
    await user.click(save());
    expect(field('Temperature')).toHaveAccessibleDescription(
      /Anthropic Messages does not accept 1\.5 here\.$/,
    );
  });

  it('says at once what a chat kept for another protocol that this one refuses', async () => {
    const id = conversations().newConversation();
    conversations().setParameters(id, { temperature: 1.5, topP: 0.5 });
    app.stores.settings.getState().update({ protocol: 'messages' });
    await open();
    expect(field('Temperature')).toBeInvalid();
    expect(field('Temperature')).toHaveAccessibleDescription(
      /Anthropic Messages does not accept 1\.5 here\.$/,
    );
    expect(field('Top P')).toBeValid();
  });

  it('allows four stop sequences on Chat Completions, none on Responses', async () => {
    const user = await open();
    const add = screen.getByRole('button', { name: 'Add stop sequence' });
    for (let i = 0; i < 4; i++) await user.click(add);
    expect(add).toBeDisabled();
    expect(screen.getByRole('group', { name: /Stop sequences/ })).toHaveAccessibleDescription(
      'The answer ends where the model would write one. Type \\n for a new line, \\t for a tab. Chat Completions takes up to 4.',
    );
    await user.click(screen.getByRole('button', { name: 'Remove stop sequence 2' }));
    expect(screen.getAllByRole('textbox', { name: /^Stop sequence/ })).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    app.stores.settings.getState().update({ protocol: 'responses' });
    await user.click(screen.getByRole('button', { name: 'Parameters' }));
    const stops = await screen.findByRole('group', { name: /Stop sequences/ });
    expect(stops).toBeDisabled();
    expect(within(stops).getByText('Responses has no such parameter: not sent.')).toBeInTheDocument();
  });

  it('names what Anthropic’s thinking refuses', async () => {
    app.stores.settings.getState().update({ protocol: 'messages', reasoning: 'high', temperature: null });
    const user = await open();
    await user.type(field('Temperature'), '0.5');
    await user.type(field('Top P'), '0.5');
    await user.click(save());
    expect(field('Temperature')).toHaveAccessibleDescription(
      /While thinking, Anthropic Messages takes no temperature but 1: clear it, or set Reasoning to Off\.$/,
    );
    await user.clear(field('Temperature'));
    await user.click(save());
    expect(field('Top P')).toHaveAccessibleDescription(/takes a top P of 0\.95 to 1 only\.$/);
  });

  it('Reset brings back the defaults for new chats', async () => {
    const id = conversations().newConversation();
    conversations().setParameters(id, { temperature: 1.2, seed: 3, stop: ['x'] });
    const user = await open();
    expect(field('Seed')).toHaveValue('3');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(field('Seed')).toHaveValue('');
    expect(field('Temperature')).toHaveValue('0.3');
    expect(screen.queryAllByRole('textbox', { name: /^Stop sequence/ })).toHaveLength(0);
    await user.click(save());
    expect(active().parameters).toEqual({ temperature: 0.3 });
  });
});
