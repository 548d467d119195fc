import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../testing/testApp.tsx';
import { Composer } from './Composer.tsx';

/** The composer in an app of its own (where attached files are stored). */
const render = (ui: ReactElement) => createTestApp().render(ui);

function setup(streaming = false) {
  const onSend = vi.fn();
  const onStop = vi.fn();
  const view = render(<Composer streaming={streaming} onSend={onSend} onStop={onStop} />);
  return {
    onSend,
    onStop,
    user: userEvent.setup(),
    box: screen.getByRole('textbox', { name: 'Message' }),
    ...view,
  };
}

beforeEach(() => sessionStorage.clear());

describe('Composer', () => {
  it('says the person is typing (not for blank space), so what the answer needs can be fetched', async () => {
    const onTyping = vi.fn();
    render(<Composer streaming={false} onSend={vi.fn()} onStop={vi.fn()} onTyping={onTyping} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '  ');
    expect(onTyping).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi');
    expect(onTyping).toHaveBeenCalled();
  });

  it('sends on Enter and clears the box', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, 'Hello there{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith('Hello there');
    expect(box).toHaveValue('');
  });

  it('adds a new line on Shift+Enter without sending', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('line one\nline two');
    expect(box).toHaveAttribute('rows', '2');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('sends with the Send button, which is disabled while the box is empty', async () => {
    const { onSend, user, box } = setup();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(box, 'Hi');
    expect(send).toBeEnabled();
    await user.click(send);
    expect(onSend).toHaveBeenCalledWith('Hi');
    expect(box).toHaveValue('');
  });

  it('does not send an empty or blank message', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, '{Enter}');
    await user.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('shows Stop instead of Send while streaming, calls onStop, and does not send', async () => {
    const { onSend, onStop, user, box, rerender } = setup(true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await user.type(box, 'next question{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    // What was typed is kept for when the answer ends.
    expect(box).toHaveValue('next question');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);

    rerender(<Composer streaming={false} onSend={onSend} onStop={onStop} />);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    await user.type(box, '{Enter}');
    expect(onSend).toHaveBeenCalledWith('next question');
  });

  it('stops the answer on Escape while it streams, and does nothing with Escape otherwise', async () => {
    const { onStop, user, box, rerender, onSend } = setup(true);
    // Escape that cancels an input method's composition is not meant for us.
    fireEvent.keyDown(box, { key: 'Escape', isComposing: true });
    expect(onStop).not.toHaveBeenCalled();
    await user.click(box);
    await user.keyboard('{Escape}');
    expect(onStop).toHaveBeenCalledTimes(1);
    rerender(<Composer streaming={false} onSend={onSend} onStop={onStop} />);
    await user.keyboard('{Escape}');
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('keeps a draft per conversation: switching shows that conversation’s own, and sends only it', async () => {
    const onSend = vi.fn();
    const props = { streaming: false, onSend, onStop: vi.fn() };
    const { rerender } = render(<Composer draftKey="conv_a" {...props} />);
    const user = userEvent.setup();
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'For A');

    rerender(<Composer draftKey="conv_b" {...props} />);
    expect(box).toHaveValue('');
    await user.type(box, 'For B{Enter}');
    expect(onSend).toHaveBeenLastCalledWith('For B');

    rerender(<Composer draftKey="conv_a" {...props} />);
    expect(box).toHaveValue('For A');
    rerender(<Composer draftKey="conv_b" {...props} />);
    expect(box).toHaveValue('');
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('keeps the draft across a reload (this tab’s session), and forgets it once sent', async () => {
    const props = { draftKey: 'conv_a', streaming: false, onSend: vi.fn(), onStop: vi.fn() };
    const first = render(<Composer {...props} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Half written');
    first.unmount();

    render(<Composer {...props} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toHaveValue('Half written');
    await user.type(box, '{Enter}');
    expect(props.onSend).toHaveBeenCalledWith('Half written');
    cleanup();
    render(<Composer {...props} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  });

  it('takes what was typed on the reload’s snapshot into the draft, once, and keeps the focus for the rest', async () => {
    sessionStorage.setItem('hopbase-chat:draft:conv_a', 'Kept draft, ');
    const typed = ['typed early', ''];
    const typedEarly = vi.fn(() => typed.shift() ?? '');
    createTestApp({ typedEarly }).render(
      <Composer draftKey="conv_a" streaming={false} onSend={vi.fn()} onStop={vi.fn()} />,
    );
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toHaveValue('Kept draft, typed early');
    expect(box).toHaveFocus();
    await userEvent.setup().keyboard(' and the rest');
    expect(box).toHaveValue('Kept draft, typed early and the rest');
    // Kept as the draft, as if typed in the box.
    expect(sessionStorage.getItem('hopbase-chat:draft:conv_a')).toBe('Kept draft, typed early and the rest');
  });
});
