import { type FormEvent, useState } from 'react';
import './composer.css';

export interface ComposerProps {
  streaming: boolean;
  onSend(text: string): void;
  onStop(): void;
}

/** Enter sends, Shift+Enter adds a line; while an answer streams the button stops it instead. */
export function Composer({ streaming, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const canSend = text.trim() !== '' && !streaming;

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    onSend(text);
    setText('');
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
