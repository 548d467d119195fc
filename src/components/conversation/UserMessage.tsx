import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Version } from '../../state/branches.ts';
import type { UserMessage as UserMessageData } from '../../state/types.ts';
import { AttachmentList } from '../attachments/AttachmentList.tsx';
import { readDraft, writeDraft } from '../composer/drafts.ts';
import { composerKeyAction } from '../composer/keys.ts';
import { VersionSwitch } from './VersionSwitch.tsx';

export interface UserMessageProps {
  message: UserMessageData;
  /** Its place among its versions: null when it has none. */
  version: Version | null;
  /** False while this conversation's answer streams: an edit would start a second answer. */
  canEdit: boolean;
  onEdit(messageId: string, text: string): void;
  onSelectVersion(messageId: string): void;
}

/** An unsent edit is kept for the tab like the composer's draft: a reload or another conversation keeps it. */
const draftKey = (messageId: string) => `edit:${messageId}`;

interface EditBoxProps {
  message: UserMessageData;
  canSend: boolean;
  onSend(text: string): void;
  onClose(): void;
}

/** The message's text to change: Enter sends, Shift+Enter adds a line, Escape cancels (as in the composer). */
function EditBox({ message, canSend, onSend, onClose }: EditBoxProps) {
  const key = draftKey(message.id);
  const [text, setText] = useState(() => readDraft(key) || message.text);
  const box = useRef<HTMLTextAreaElement>(null);
  const { t } = useI18n();
  useEffect(() => {
    const el = box.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  // A message of files alone may lose its words: its attachments go with the edit.
  const sendable = canSend && (text.trim() !== '' || (message.attachments?.length ?? 0) > 0);
  const cancel = () => {
    writeDraft(key, '');
    onClose();
  };
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!sendable) return;
    writeDraft(key, '');
    onSend(text);
  };
  return (
    <form className="user-edit" aria-label={t('message.editBox')} onSubmit={send}>
      <textarea
        ref={box}
        aria-label={t('message.editBox')}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          writeDraft(key, e.target.value);
        }}
        onKeyDown={(e) => {
          // The composer's rule, keys an input method is using left to it; Escape here ends the edit.
          const action = composerKeyAction(
            {
              key: e.key,
              shiftKey: e.shiftKey,
              isComposing: e.nativeEvent.isComposing,
              keyCode: e.keyCode,
            },
            true,
          );
          if (action === 'none') return;
          e.preventDefault();
          if (action === 'send') send();
          else cancel();
        }}
      />
      <div className="user-edit-actions">
        <button type="button" className="btn btn-small" onClick={cancel}>
          {t('action.cancel')}
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={!sendable}>
          {t('composer.send')}
        </button>
      </div>
    </form>
  );
}

/**
 * One message of the person's: its text, its versions (‹ 2 / 3 ›) and Edit, which sends a changed copy as
 * a new version with an answer of its own. Kept mounted across its versions (keyed by its place), so the
 * keyboard stays on the switch while moving between them.
 */
export function UserMessage({ message, version, canEdit, onEdit, onSelectVersion }: UserMessageProps) {
  // Open at first when an edit was left unsent (a reload, another conversation in between).
  const [editingId, setEditingId] = useState(() =>
    readDraft(draftKey(message.id)) === '' ? null : message.id,
  );
  const editing = editingId === message.id;
  const { t } = useI18n();
  const editButton = useRef<HTMLButtonElement>(null);
  const bubble = useRef<HTMLDivElement>(null);
  // Where the keyboard goes once the box closes: back to Edit, or to the version just sent.
  const [focusNext, setFocusNext] = useState<'edit' | 'message' | null>(null);
  useEffect(() => {
    if (editing || focusNext === null) return;
    (focusNext === 'edit' ? editButton.current : bubble.current)?.focus({ preventScroll: true });
    setFocusNext(null);
  }, [editing, focusNext]);

  if (editing) {
    return (
      <div className="user-turn user-turn-editing" data-message-id={message.id}>
        <EditBox
          message={message}
          canSend={canEdit}
          onSend={(text) => {
            setEditingId(null);
            setFocusNext('message');
            onEdit(message.id, text);
          }}
          onClose={() => {
            setEditingId(null);
            setFocusNext('edit');
          }}
        />
      </div>
    );
  }
  return (
    <div className="user-turn" data-message-id={message.id}>
      <div ref={bubble} className="user-message" data-testid="user-message" tabIndex={-1}>
        {message.attachments?.length ? <AttachmentList attachments={message.attachments} /> : null}
        {message.text ? <p>{message.text}</p> : null}
      </div>
      <div className="user-message-tools">
        {version ? (
          <VersionSwitch version={version} label={t('message.versions')} onSelect={onSelectVersion} />
        ) : null}
        <button
          ref={editButton}
          type="button"
          className="btn btn-small"
          disabled={!canEdit}
          onClick={() => setEditingId(message.id)}
        >
          {t('message.edit')}
        </button>
      </div>
    </div>
  );
}
