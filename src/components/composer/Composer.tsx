import { type ClipboardEvent, type DragEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { NewAttachment } from '../../state/attachmentBlobs.ts';
import type { AttachmentProblem } from '../../state/attachmentFiles.ts';
import { AttachmentItem } from '../attachments/AttachmentItem.tsx';
import { describeAttachmentProblem } from '../attachments/attachmentProblem.ts';
import { readDraft, writeDraft } from './drafts.ts';
import { composerKeyAction } from './keys.ts';
import { readAttachments } from './readAttachments.ts';
import '../attachments/attachments.css';
import './composer.css';

export interface ComposerProps {
  /** Whose draft this is (the conversation id): each conversation keeps its own unsent text and files. */
  draftKey?: string;
  streaming: boolean;
  /** The files attached, when there are any. */
  onSend(text: string, attachments?: NewAttachment[]): void;
  onStop(): void;
}

/** Whether a drag carries files (not text or a link being dragged about the page). */
const carriesFiles = (event: DragEvent | globalThis.DragEvent) =>
  event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Enter sends, Shift+Enter adds a line; while an answer streams the button (or Escape) stops it instead.
 * Files come by the Attach button, by pasting, or by dropping them on the composer; what cannot be
 * attached is said in an alert naming the file, and nothing typed is touched.
 */
export function Composer({ draftKey, streaming, onSend, onStop }: ComposerProps) {
  const [text, setTextState] = useState(() => (draftKey === undefined ? '' : readDraft(draftKey)));
  // Another conversation shows its own draft (adjusted during render: the box keeps its focus).
  const [shownKey, setShownKey] = useState(draftKey);
  const [problems, setProblems] = useState<AttachmentProblem[]>([]);
  const i18n = useI18n();
  const { t } = i18n;
  if (shownKey !== draftKey) {
    setShownKey(draftKey);
    setTextState(draftKey === undefined ? '' : readDraft(draftKey));
    setProblems([]);
  }
  const setText = (next: string) => {
    setTextState(next);
    if (draftKey !== undefined) writeDraft(draftKey, next);
  };

  // Files waiting to be sent, per conversation (for this page only: a reload does not keep them). The ref
  // is the latest list at once, for files that finish reading after another change.
  const [pendingByKey, setPendingByKey] = useState<Record<string, NewAttachment[]>>({});
  const pendingRef = useRef(pendingByKey);
  const key = draftKey ?? '';
  const attachments = pendingByKey[key] ?? [];
  const setAttachments = (forKey: string, next: NewAttachment[]) => {
    pendingRef.current = { ...pendingRef.current, [forKey]: next };
    setPendingByKey(pendingRef.current);
  };
  const [reading, setReading] = useState(0);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  const canSend = (text.trim() !== '' || attachments.length > 0) && !streaming && reading === 0;

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setText('');
    setProblems([]);
    if (attachments.length === 0) onSend(text);
    else {
      setAttachments(key, []);
      onSend(text, attachments);
    }
  };

  async function attach(files: File[]) {
    if (files.length === 0) return;
    const forKey = key;
    setReading((n) => n + 1);
    try {
      const { added, problems: refused } = await readAttachments(
        files,
        () => pendingRef.current[forKey] ?? [],
      );
      if (added.length) setAttachments(forKey, [...(pendingRef.current[forKey] ?? []), ...added]);
      setProblems(refused);
    } finally {
      setReading((n) => n - 1);
    }
  }

  const remove = (id: string) => {
    setAttachments(
      key,
      attachments.filter((a) => a.ref.id !== id),
    );
    box.current?.focus();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    // Text copied along with the files (a spreadsheet's cells) is pasted too; a bare file is not text.
    if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
    void attach(files);
  };

  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    void attach([...event.dataTransfer.files]);
  };

  // A file dropped beside the composer would make the browser leave the page for it.
  useEffect(() => {
    const keepPage = (event: globalThis.DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    window.addEventListener('dragover', keepPage);
    window.addEventListener('drop', keepPage);
    return () => {
      window.removeEventListener('dragover', keepPage);
      window.removeEventListener('drop', keepPage);
    };
  }, []);

  return (
    <form
      className="composer"
      data-dragging={dragging || undefined}
      onSubmit={send}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {problems.length ? (
        <div className="composer-problems" role="alert">
          <ul>
            {problems.map((problem) => {
              const said = describeAttachmentProblem(i18n, problem);
              return <li key={said}>{said}</li>;
            })}
          </ul>
          <button type="button" className="btn btn-small" onClick={() => setProblems([])}>
            {t('action.dismiss')}
          </button>
        </div>
      ) : null}
      {attachments.length ? (
        <ul className="attachment-list composer-attachments" aria-label={t('composer.pending')}>
          {attachments.map(({ ref, blob }) => (
            <li key={ref.id}>
              <AttachmentItem attachment={ref} blob={blob} />
              <button
                type="button"
                className="attachment-remove"
                aria-label={t('composer.remove', { name: ref.name })}
                title={t('composer.remove', { name: ref.name })}
                onClick={() => remove(ref.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="composer-row">
        {/* Opened by the Attach button, which is what the keyboard and assistive technology reach. */}
        <input
          ref={picker}
          type="file"
          multiple
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          aria-label={t('composer.picker')}
          onChange={(e) => {
            void attach([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <button
          type="button"
          className="btn composer-attach"
          aria-label={t('composer.attach')}
          title={t('composer.attach.title')}
          onClick={() => picker.current?.click()}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path
              d="M16.5 6.5 8.6 14.4a2 2 0 0 0 2.8 2.8l8-8a4 4 0 0 0-5.6-5.6l-8 8a6 6 0 0 0 8.5 8.5l7.2-7.2"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
        <textarea
          ref={box}
          aria-label={t('composer.label')}
          placeholder={t('composer.placeholder')}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPaste={onPaste}
          onKeyDown={(e) => {
            const action = composerKeyAction(
              {
                key: e.key,
                shiftKey: e.shiftKey,
                isComposing: e.nativeEvent.isComposing,
                keyCode: e.keyCode,
              },
              streaming,
            );
            if (action === 'none') return;
            e.preventDefault();
            if (action === 'send') send();
            else onStop();
          }}
        />
        {streaming ? (
          <button type="button" className="btn composer-button" onClick={onStop}>
            {t('action.stop')}
          </button>
        ) : (
          <button type="submit" className="btn btn-primary composer-button" disabled={!canSend}>
            {t('composer.send')}
          </button>
        )}
      </div>
      {dragging ? (
        <div className="composer-drop-hint" aria-hidden="true">
          {t('composer.dropHint')}
        </div>
      ) : null}
    </form>
  );
}
