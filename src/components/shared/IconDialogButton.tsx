import { type ReactNode, useState } from 'react';
import { createPortal } from 'react-dom';
import { LineIcon } from './LineIcon.tsx';
import { LoadBoundary } from './LoadBoundary.tsx';

interface IconDialogButtonProps {
  /** The button's accessible name (an icon shows no words: the bars have no room for them). */
  label: string;
  /** The tooltip: a few more words than the name. */
  title: string;
  /** The icon's path for `LineIcon`. */
  icon: string;
  /** The dialog, given the way to close it; usually lazy, so the first screen needs only the button. */
  dialog(close: () => void): ReactNode;
  /** Over the whole page, for a button inside a part whose stacking would cover its dialog. */
  overPage?: boolean;
  /** The name shown in words beside the icon, where there is room for them. */
  words?: boolean;
}

/** An icon button that opens a dialog, with the dialog's loading and load failure handled once. */
export function IconDialogButton({
  label,
  title,
  icon,
  dialog,
  overPage = false,
  words = false,
}: IconDialogButtonProps) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const shown = open ? <LoadBoundary onClose={close}>{dialog(close)}</LoadBoundary> : null;
  return (
    <>
      <button
        type="button"
        className={words ? 'btn icon-words' : 'btn toolbar-icon'}
        aria-haspopup="dialog"
        aria-label={words ? undefined : label}
        title={title}
        onClick={() => setOpen(true)}
      >
        <LineIcon d={icon} />
        {words ? label : null}
      </button>
      {shown && overPage ? createPortal(shown, document.body) : shown}
    </>
  );
}
