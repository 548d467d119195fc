import { type FormEvent, memo, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Version } from '../../state/domain/branches.ts';
import type { AttachmentRef, UserMessage as UserMessageData } from '../../state/domain/types.ts';
import { AttachmentList } from '../attachments/AttachmentList.tsx';
import { AttachButton, AttachmentProblems, DropHint } from '../composer/AttachControls.tsx';
import { readDraft, readDraftFiles, writeDraft, writeDraftFiles } from '../composer/drafts.ts';
import { composerKeyDown } from '../composer/keys.ts';
import { draftToSend, editStart, type MessageDraft } from '../composer/messageDraft.ts';
import { useAttachFiles } from '../composer/useAttachFiles.ts';
import { VersionSwitch } from './VersionSwitch.tsx';

export interface UserMessageProps {
  message: UserMessageData;
  /** Its place among its versions: null when it has none. */
  version: Version | null;
  /** False while this conversation's answer streams: an edit would start a second answer. */
  canEdit: boolean;
  onEdit(messageId: string, text: string, attachments: readonly AttachmentRef[]): void;
  onSelectVersion(messageId: string): void;
}

/** An unsent edit is kept for the tab like the composer's draft: a reload or another conversation keeps it. */
const draftKey = (messageId: string) => `edit:${messageId}`;

const hasKeptEdit = (messageId: string) =>
  readDraft(draftKey(messageId)) !== '' || readDraftFiles(draftKey(messageId)) !== null;

interface EditBoxProps {
  message: UserMessageData;
  canSend: boolean;
  onSend(edit: MessageDraft): void;
  onClose(): void;
}

/**
 * The message's text and files to change: Enter sends, Shift+Enter adds a line, Escape cancels (as in the
 * composer); files are removed with their buttons and added as in the composer (Attach, paste, drop).
 */
function EditBox({ message, canSend, onSend, onClose }: EditBoxProps) {
  const key = draftKey(message.id);
  const [draft, setDraftState] = useState(() => editStart(message, readDraft(key), readDraftFiles(key)));
  // The latest at once, for files that finish reading after another change.
  const latest = useRef(draft);
  const setDraft = (next: MessageDraft) => {
    latest.current = next;
    setDraftState(next);
    writeDraft(key, next.text);
    writeDraftFiles(key, next.attachments);
  };
  const files = useAttachFiles({
    current: () => latest.current.attachments,
    add: (added) => setDraft({ ...latest.current, attachments: [...latest.current.attachments, ...added] }),
    takeBack: (ids) =>
      setDraft({ ...latest.current, attachments: latest.current.attachments.filter((a) => !ids.has(a.id)) }),
  });
  const box = useRef<HTMLTextAreaElement>(null);
  const { t } = useI18n();
  useEffect(() => {
    const el = box.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const outgoing = canSend && !files.reading ? draftToSend(draft) : null;
  const forget = () => {
    writeDraft(key, '');
    writeDraftFiles(key, null);
  };
  const cancel = () => {
    forget();
    // Files added in this edit go; the message's own stay (it still refers to them).
    files.discard(draft.attachments.map((a) => a.id));
    onClose();
  };
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!outgoing) return;
    forget();
    onSend(outgoing);
  };
  const remove = ({ id }: AttachmentRef) => {
    setDraft({ ...draft, attachments: draft.attachments.filter((a) => a.id !== id) });
    files.discard([id]);
    box.current?.focus();
  };
  return (
    <form
      className="user-edit attach-drop-zone"
      // A reload does not bring it back: its screen is not one to paint first (src/app/firstScreen).
      data-snapshot="none"
      aria-label={t('message.editBox')}
      onSubmit={send}
      {...files.dropZone}
    >
      <AttachmentProblems problems={files.problems} onDismiss={() => files.setProblems([])} />
      {draft.attachments.length ? (
        <AttachmentList attachments={draft.attachments} label={t('composer.pending')} onRemove={remove} />
      ) : null}
      <textarea
        ref={box}
        aria-label={t('message.editBox')}
        rows={Math.min(10, Math.max(2, draft.text.split('\n').length))}
        value={draft.text}
        onChange={(e) => setDraft({ ...draft, text: e.target.value })}
        onPaste={files.onPaste}
        // The composer's keys; Escape here ends the edit.
        onKeyDown={composerKeyDown(send, cancel)}
      />
      <div className="user-edit-actions">
        <AttachButton small onFiles={(picked) => void files.attach(picked)} />
        <button type="button" className="btn btn-small" onClick={cancel}>
          {t('action.cancel')}
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={!outgoing}>
          {t('composer.send')}
        </button>
      </div>
      <DropHint shown={files.dragging} />
    </form>
  );
}

/**
 * One message of the person's: its text, its versions (‹ 2 / 3 ›) and Edit, which sends a changed copy as
 * a new version with an answer of its own. Kept mounted across its versions (keyed by its place), so the
 * keyboard stays on the switch while moving between them.
 */
function UserMessageView({ message, version, canEdit, onEdit, onSelectVersion }: UserMessageProps) {
  // Open at first when an edit was left unsent (a reload, another conversation in between).
  const [editingId, setEditingId] = useState(() => (hasKeptEdit(message.id) ? message.id : null));
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
          onSend={(edit) => {
            setEditingId(null);
            setFocusNext('message');
            onEdit(message.id, edit.text, edit.attachments);
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

/** While an answer streams, the person's messages above it need no new render on each of its frames. */
export const UserMessage = memo(UserMessageView);
