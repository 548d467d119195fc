import { type FormEvent, useState } from 'react';
import { readDraft, writeDraft } from './drafts.ts';
import './composer.css';

export interface ComposerProps {
  /** Whose draft this is (the conversation id): each conversation keeps its own unsent text. */
  draftKey?: string;
  streaming: boolean;
  onSend(text: string): void;
  onStop(): void;
}

/** Enter sends, Shift+Enter adds a line; while an answer streams the button (or Escape) stops it instead. */
export function Composer({ draftKey, streaming, onSend, onStop }: ComposerProps) {
  const [text, setTextState] = useState(() => (draftKey === undefined ? '' : readDraft(draftKey)));
  // Another conversation shows its own draft (adjusted during render: the box keeps its focus).
  const [shownKey, setShownKey] = useState(draftKey);
  if (shownKey !== draftKey) {
    setShownKey(draftKey);
    setTextState(draftKey === undefined ? '' : readDraft(draftKey));
  }
  const setText = (next: string) => {
    setTextState(next);
    if (draftKey !== undefined) writeDraft(draftKey, next);
  };
  const canSend = text.trim() !== '' && !streaming;

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setText('');
    onSend(text);
  };

  return (
    <form className="composer" onSubmit={send}>
      <textarea
        aria-label="Message"
        placeholder="Message HopBase… (Enter to send, Shift+Enter for a new line)"
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          } else if (e.key === 'Escape' && streaming && !e.nativeEvent.isComposing) {
            e.preventDefault();
            onStop();
          }
        }}
      />
      {streaming ? (
        <button type="button" className="btn composer-button" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="btn btn-primary composer-button" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
