import { useRef } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { AttachmentProblem } from '../../state/domain/attachmentFiles.ts';
import { describeAttachmentProblem } from '../attachments/attachmentProblem.ts';
import { LineIcon } from '../shared/LineIcon.tsx';
import '../attachments/attachments.css';

/** A paperclip. */
const paperclipIcon =
  'M16.5 6.5 8.6 14.4a2 2 0 0 0 2.8 2.8l8-8a4 4 0 0 0-5.6-5.6l-8 8a6 6 0 0 0 8.5 8.5l7.2-7.2';

/** The paperclip that opens the file picker (a hidden input the keyboard never reaches: the button is the way in). */
export function AttachButton({ onFiles, small = false }: { onFiles(files: File[]): void; small?: boolean }) {
  const picker = useRef<HTMLInputElement>(null);
  const { t } = useI18n();
  return (
    <>
      <input
        ref={picker}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        aria-label={t('composer.picker')}
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <button
        type="button"
        className={small ? 'btn attach-button attach-button-small' : 'btn attach-button'}
        aria-label={t('composer.attach')}
        title={t('composer.attach.title')}
        onClick={() => picker.current?.click()}
      >
        <LineIcon d={paperclipIcon} />
      </button>
    </>
  );
}

/** What could not be attached, each file named, in an alert with Dismiss. */
export function AttachmentProblems({
  problems,
  onDismiss,
}: {
  problems: readonly AttachmentProblem[];
  onDismiss(): void;
}) {
  const i18n = useI18n();
  if (problems.length === 0) return null;
  return (
    <div className="attach-problems" role="alert">
      <ul>
        {problems.map((problem) => {
          const said = describeAttachmentProblem(i18n, problem);
          return <li key={said}>{said}</li>;
        })}
      </ul>
      <button type="button" className="btn btn-small" onClick={onDismiss}>
        {i18n.t('action.dismiss')}
      </button>
    </div>
  );
}

/** Shown while files are dragged over a drop zone: where to let go. */
export function DropHint({ shown }: { shown: boolean }) {
  const { t } = useI18n();
  return shown ? (
    <div className="attach-drop-hint" aria-hidden="true">
      {t('composer.dropHint')}
    </div>
  ) : null;
}
