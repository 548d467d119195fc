import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ModelSelect } from './ModelSelect.tsx';
import { ProtocolSelect } from './ProtocolSelect.tsx';
import { ReasoningSelect } from './ReasoningSelect.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});

const select = () => screen.getByRole('combobox', { name: 'Reasoning' });

describe('ReasoningSelect', () => {
  it('is a labelled select offering Off, Low, Medium and High, Off by default', () => {
    app.render(<ReasoningSelect />);
    expect(select().tagName).toBe('SELECT');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Off', 'Low', 'Medium', 'High']);
    expect(select()).toHaveValue('off');
  });

  it('writes the level to the settings, and says what it sends on the protocol in use', async () => {
    const user = userEvent.setup();
    app.render(<ReasoningSelect />);
    expect(select()).toHaveAttribute(
      'title',
      "Chat Completions: no reasoning parameter (the model's own default)",
    );
    await user.selectOptions(select(), 'High');
    expect(app.stores.settings.getState().settings.reasoning).toBe('high');
    expect(select()).toHaveAttribute('title', 'Chat Completions: reasoning_effort "high"');
    act(() => app.stores.settings.getState().update({ protocol: 'messages' }));
    expect(select()).toHaveAttribute(
      'title',
      'Anthropic Messages: thinking with a budget of 16,384 tokens (Settings)',
    );
    act(() => app.stores.settings.getState().update({ protocol: 'responses', reasoning: 'low' }));
    expect(select()).toHaveValue('low');
    expect(select()).toHaveAttribute('title', 'Responses: reasoning effort "low" with its summary streamed');
  });

  it('is remembered by the open conversation, like protocol and model', async () => {
    const user = userEvent.setup();
    const conversations = app.stores.conversations;
    const id = conversations.getState().newConversation();
    conversations.getState().addUserMessage(id, 'Hi');
    app.render(
      <>
        <ProtocolSelect />
        <ModelSelect />
        <ReasoningSelect />
      </>,
    );
    await user.selectOptions(select(), 'Medium');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Protocol' }), 'Anthropic Messages');
    expect(conversations.getState().conversations[id]?.choices).toEqual({
      protocol: 'messages',
      model: 'sim-echo',
      reasoning: 'medium',
    });
    // Another conversation, then back: the toolbar shows this one's choices again.
    const other = conversations.getState().newConversation();
    conversations.getState().addUserMessage(other, 'Hello');
    await user.selectOptions(select(), 'Off');
    act(() => conversations.getState().selectConversation(id));
    expect(select()).toHaveValue('medium');
    expect(screen.getByRole('combobox', { name: 'Protocol' })).toHaveValue('messages');
    act(() => conversations.getState().selectConversation(other));
    expect(select()).toHaveValue('off');
  });
});
