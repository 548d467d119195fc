import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { PresetsButton } from './PresetsButton.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
  app.stores.settings
    .getState()
    .update({ protocol: 'messages', model: 'claude-x', reasoning: 'high', systemPrompt: 'Default' });
});

const conversations = () => app.stores.conversations.getState();
const settings = () => app.stores.settings.getState().settings;
const nameBox = () => screen.getByRole('textbox', { name: 'Preset name' });

async function open() {
  const user = userEvent.setup();
  app.render(<PresetsButton />);
  await user.click(screen.getByRole('button', { name: 'Presets' }));
  await waitFor(() => expect(nameBox()).toBeInTheDocument());
  return user;
}

describe('PresetsButton', () => {
  it('saves the open chat’s setup under a name, and starts a new chat from it', async () => {
    const id = conversations().newConversation();
    conversations().setSystemPrompt(id, 'Think twice.');
    conversations().setParameters(id, { temperature: 1, stop: ['END'] });
    const user = await open();
    expect(screen.getByText('No presets yet: save this chat’s setup below.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save preset' }));
    expect(nameBox()).toBeInvalid();
    expect(nameBox()).toHaveAccessibleDescription(/Give the preset a name\.$/);
    await user.type(nameBox(), 'Careful Claude{Enter}');
    expect(screen.getByRole('status')).toHaveTextContent('Saved “Careful Claude”.');
    expect(settings().presets).toMatchObject([
      {
        name: 'Careful Claude',
        choices: { protocol: 'messages', model: 'claude-x', reasoning: 'high' },
        systemPrompt: 'Think twice.',
        parameters: { temperature: 1, stop: ['END'] },
      },
    ]);
    expect(screen.getByText('Anthropic Messages · claude-x · Reasoning: High')).toBeInTheDocument();

    // Elsewhere now: another protocol, another chat.
    app.stores.settings.getState().update({ protocol: 'chat', model: 'sim-echo', reasoning: 'off' });
    await user.click(screen.getByRole('button', { name: 'Start a chat from Careful Claude' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const started = conversations().conversations[conversations().activeId!]!;
    expect(started.id).not.toBe(id);
    expect(started.systemPrompt).toBe('Think twice.');
    expect(started.parameters).toEqual({ temperature: 1, stop: ['END'] });
    expect(settings()).toMatchObject({ protocol: 'messages', model: 'claude-x', reasoning: 'high' });
  });

  it('replaces a preset saved under the same name, and deletes one', async () => {
    const user = await open();
    await user.type(nameBox(), 'Mine{Enter}');
    app.stores.settings.getState().update({ model: 'claude-y' });
    await user.type(nameBox(), 'mine{Enter}');
    expect(settings().presets.map((p) => [p.name, p.choices.model])).toEqual([['mine', 'claude-y']]);
    await user.click(screen.getByRole('button', { name: 'Delete mine' }));
    expect(settings().presets).toEqual([]);
  });
});
