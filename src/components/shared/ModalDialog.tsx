import { type ReactNode, useEffect, useRef } from 'react';
import { isInputMethodKey } from './inputMethod.ts';
import { trapTab } from './trapTab.ts';
import './dialog.css';

interface ModalDialogProps {
  /** `alertdialog` when it tells of a problem the person must see. */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element that names the dialog (its heading). */
  labelledBy: string;
  className: string;
  onClose(): void;
  /** Clicking outside the dialog closes it too (only where nothing typed in it can be lost). */
  closeOnBackdrop?: boolean;
  children: ReactNode;
}

/**
 * A modal dialog over the page: Tab stays inside it, Escape closes it wherever focus is (also after a
 * click on its text, which leaves focus on the page), and focus goes back to its opener when it closes.
 */
export function ModalDialog({
  role = 'dialog',
  labelledBy,
  className,
  onClose,
  closeOnBackdrop = false,
  children,
}: ModalDialogProps) {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // An Escape that cancels an input method's conversion is the input method's.
      if (event.key === 'Escape' && !isInputMethodKey(event)) close.current();
    };
    window.addEventListener('keydown', onKeyDown);
    // Focus goes back where it was (the button that opened the dialog) when it closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop, not a control; Escape is the keyboard's way out
    <div
      className="overlay"
      onMouseDown={(e) => closeOnBackdrop && e.target === e.currentTarget && onClose()}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: role is dialog or alertdialog, which biome cannot see through a variable */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the same: aria-modal belongs to both roles */}
      <div
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        className={`dialog ${className}`}
        onKeyDown={trapTab}
      >
        {children}
      </div>
    </div>
  );
}
