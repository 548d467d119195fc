import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useConversations } from '../../hooks/useStores.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { SystemPromptButton } from './SystemPromptButton.tsx';
import { systemPromptNote } from './systemPromptNote.ts';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
  app.stores.settings.getState().update({ systemPrompt: 'Be brief' });
});

/** The button as the toolbar shows it, for the open conversation. */
function ActiveSystemPrompt() {
  const conversation = useConversations((s) => (s.activeId ? s.conversations[s.activeId]! : null));
  return <SystemPromptButton conversation={conversation} />;
}

const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;
const dialog = () => screen.getByRole('dialog', { name: 'System prompt' });
const box = () => screen.getByRole('textbox', { name: 'System prompt for this chat' });

async function open() {
  const user = userEvent.setup();
  app.render(<ActiveSystemPrompt />);
  await user.click(screen.getByRole('button', { name: 'System prompt' }));
  // The dialog's code is fetched on first open; focus moves into it in an effect after it renders.
  await waitFor(() => expect(box()).toHaveFocus());
  return user;
}

describe('SystemPromptButton', () => {
  it('shows the default for a new chat, and Save makes the change that chat’s own', async () => {
    const user = await open();
    expect(dialog()).toBeInTheDocument();
    expect(box()).toHaveFocus();
    expect(box()).toHaveValue('Be brief');
    expect(box()).toHaveAccessibleDescription(/^The default for new chats, as in Settings\./);

    await user.clear(box());
    await user.type(box(), 'Answer in haiku');
    expect(box()).toHaveAccessibleDescription(/^This chat’s own/);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    // There was no chat yet: the new one starts with this prompt; the default stays.
    expect(active().systemPrompt).toBe('Answer in haiku');
    expect(active().messages).toEqual([]);
    expect(app.stores.settings.getState().settings.systemPrompt).toBe('Be brief');
    expect(screen.getByRole('button', { name: 'System prompt' })).toHaveFocus();
  });

  it('shows and changes a started chat’s own prompt, whatever the default is now', async () => {
    const id = conversations().newConversation();
    conversations().addUserMessage(id, 'Hello');
    conversations().setSystemPrompt(id, 'Answer in haiku');
    const user = await open();
    expect(box()).toHaveValue('Answer in haiku');
    expect(box()).toHaveAccessibleDescription(/next messages/);

    await user.click(screen.getByRole('button', { name: 'Use the default' }));
    expect(box()).toHaveValue('Be brief');
    expect(screen.getByRole('button', { name: 'Use the default' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(conversations().conversations[id]?.systemPrompt).toBe('Be brief');
  });

  it('Cancel and Escape close without changing anything, focus back on the button', async () => {
    const id = conversations().newConversation();
    const user = await open();
    await user.type(box(), ' and kind');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'System prompt' }));
    expect(box()).toHaveValue('Be brief');
    await user.type(box(), ' and kind');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'System prompt' })).toHaveFocus();
    expect(conversations().conversations[id]?.systemPrompt).toBeUndefined();
  });

  it('keeps Tab inside the dialog', async () => {
    const user = await open();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.tab();
    expect(box()).toHaveFocus();
  });

  it('follows the chat the person switches to', async () => {
    const first = conversations().newConversation();
    conversations().setSystemPrompt(first, 'First');
    const user = await open();
    expect(box()).toHaveValue('First');
    await user.keyboard('{Escape}');
    act(() => {
      conversations().setSystemPrompt(conversations().newConversation(), 'Second');
    });
    await user.click(screen.getByRole('button', { name: 'System prompt' }));
    expect(box()).toHaveValue('Second');
  });
});

describe('systemPromptNote', () => {
  it.each([
    ['Be brief', false, 'The default for new chats, as in Settings. This chat starts with it.'],
    [
      'Haiku',
      true,
      'This chat’s own: the default for new chats (in Settings) is different. Sent with this chat’s next messages; earlier answers keep what they were sent with.',
    ],
  ])('%j, started %s', (draft, started, note) => {
    expect(systemPromptNote(createI18n('en'), draft, 'Be brief', started)).toBe(note);
  });
});
