import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { AttachmentRef, Conversation } from '../../state/domain/types.ts';
import { AttachmentList } from '../attachments/AttachmentList.tsx';
import { ContextGauge } from '../cost/ContextGauge.tsx';
import { AttachButton, AttachmentProblems, DropHint } from './AttachControls.tsx';
import { readDraft, readDraftFiles, writeDraft, writeDraftFiles } from './drafts.ts';
import { composerKeyDown } from './keys.ts';
import { draftToSend } from './messageDraft.ts';
import { carriesFiles, useAttachFiles } from './useAttachFiles.ts';
import './composer.css';

export interface ComposerProps {
  /** Whose draft this is (the conversation id): each conversation keeps its own unsent text and files. */
  draftKey?: string;
  streaming: boolean;
  /** The files attached (their bytes already stored), when there are any. */
  onSend(text: string, attachments?: readonly AttachmentRef[]): void;
  onStop(): void;
  /** The person is typing a message: what its answer will need can be fetched now. */
  onTyping?(): void;
  /** Show how much of the model's context window the next request fills (the conversation it joins). */
  gauge?: { conversation: Conversation | null };
}

/**
 * Enter sends, Shift+Enter adds a line; while an answer streams the button (or Escape) stops it instead.
 * Files come by the Attach button, by pasting, or by dropping them on the composer; what cannot be
 * attached is said in an alert naming the file, and nothing typed is touched. Text and files wait per
 * conversation, kept for the tab (`drafts.ts`): a reload brings them back.
 */
export function Composer({ draftKey, streaming, onSend, onStop, onTyping, gauge }: ComposerProps) {
  const key = draftKey ?? '';
  // The files waiting per conversation, the latest at once (for files that finish reading after another
  // change); those of a conversation not seen yet in this page come from the tab's storage.
  // A Map: a conversation's id may be any string (`constructor` too).
  const waiting = useRef(new Map<string, readonly AttachmentRef[]>());
  const filesOf = (forKey: string) => {
    let files = waiting.current.get(forKey);
    if (files === undefined) {
      files = forKey === '' ? [] : (readDraftFiles(forKey) ?? []);
      waiting.current.set(forKey, files);
    }
    return files;
  };
  const [text, setTextState] = useState(() => (draftKey === undefined ? '' : readDraft(draftKey)));
  const [attachments, setAttachmentsState] = useState(() => filesOf(key));
  // Another conversation shows its own draft (adjusted during render: the box keeps its focus).
  const [shownKey, setShownKey] = useState(key);
  const files = useAttachFiles({
    current: () => filesOf(key),
    add: (added) => setAttachments(key, [...filesOf(key), ...added]),
    takeBack: (ids) =>
      setAttachments(
        key,
        filesOf(key).filter((a) => !ids.has(a.id)),
      ),
  });
  if (shownKey !== key) {
    setShownKey(key);
    setTextState(draftKey === undefined ? '' : readDraft(draftKey));
    setAttachmentsState(filesOf(key));
    files.setProblems([]);
  }
  const { t } = useI18n();
  const box = useRef<HTMLTextAreaElement>(null);

  const setText = (next: string) => {
    setTextState(next);
    if (draftKey !== undefined) writeDraft(draftKey, next);
  };

  // Typed on the last screen's snapshot, before this box was there: added to the draft, the box focused
  // for what follows. Once, at mount (the snapshot is only ever the first screen).
  const { typedEarly } = useServices();
  const takeEarly = useRef(() => {
    const early = typedEarly();
    if (early === '') return;
    setText(text + early);
    box.current?.focus();
  });
  useEffect(() => takeEarly.current(), []);
  function setAttachments(forKey: string, next: readonly AttachmentRef[]) {
    waiting.current.set(forKey, next);
    if (forKey !== '') writeDraftFiles(forKey, next.length ? next : null);
    if (forKey === key) setAttachmentsState(next);
  }

  const outgoing = streaming || files.reading ? null : draftToSend({ text, attachments });

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!outgoing) return;
    setText('');
    files.setProblems([]);
    if (outgoing.attachments.length === 0) onSend(outgoing.text);
    else {
      // Sent, the files belong to the message: their bytes stay.
      setAttachments(key, []);
      onSend(outgoing.text, outgoing.attachments);
    }
  };

  const remove = ({ id }: AttachmentRef) => {
    setAttachments(
      key,
      attachments.filter((a) => a.id !== id),
    );
    files.discard([id]);
    box.current?.focus();
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
    <form className="composer attach-drop-zone" onSubmit={send} {...files.dropZone}>
      <AttachmentProblems problems={files.problems} onDismiss={() => files.setProblems([])} />
      {attachments.length ? (
        <AttachmentList attachments={attachments} label={t('composer.pending')} onRemove={remove} />
      ) : null}
      <div className="composer-row">
        <AttachButton onFiles={(picked) => void files.attach(picked)} />
        <textarea
          ref={box}
          aria-label={t('composer.label')}
          placeholder={t('composer.placeholder')}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim() !== '') onTyping?.();
          }}
          onPaste={files.onPaste}
          onKeyDown={composerKeyDown(send, streaming ? onStop : undefined)}
        />
        {streaming ? (
          <button type="button" className="btn composer-button" onClick={onStop}>
            {t('action.stop')}
          </button>
        ) : (
          <button type="submit" className="btn btn-primary composer-button" disabled={!outgoing}>
            {t('composer.send')}
          </button>
        )}
      </div>
      {gauge ? <ContextGauge conversation={gauge.conversation} draft={text} /> : null}
      <DropHint shown={files.dragging} />
    </form>
  );
}
