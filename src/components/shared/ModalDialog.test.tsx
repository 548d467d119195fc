import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ModalDialog } from './ModalDialog.tsx';

function open(closeOnBackdrop = false) {
  const onClose = vi.fn();
  render(
    <ModalDialog labelledBy="title" className="test" onClose={onClose} closeOnBackdrop={closeOnBackdrop}>
      <h2 id="title">Dialog</h2>
      <p>Some text</p>
      <textarea aria-label="Note" />
    </ModalDialog>,
  );
  return onClose;
}

describe('ModalDialog', () => {
  it('is a modal dialog named by its heading', () => {
    open();
    expect(screen.getByRole('dialog', { name: 'Dialog' })).toHaveAttribute('aria-modal', 'true');
  });

  it('closes on Escape wherever focus is, but not on the Escape of an input method', () => {
    const onClose = open();
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Note' }), { key: 'Escape', isComposing: true });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Note' }), { key: 'Escape', keyCode: 229 });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on a click outside only when asked to', () => {
    const outside = () => screen.getByRole('dialog').parentElement!;
    const kept = open();
    fireEvent.mouseDown(outside());
    fireEvent.mouseDown(screen.getByText('Some text'));
    expect(kept).not.toHaveBeenCalled();
    cleanup();
    const closed = open(true);
    fireEvent.mouseDown(screen.getByText('Some text'));
    expect(closed).not.toHaveBeenCalled();
    fireEvent.mouseDown(outside());
    expect(closed).toHaveBeenCalledTimes(1);
  });
});
