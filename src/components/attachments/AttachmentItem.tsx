import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { useObjectUrl } from './useObjectUrl.ts';

export interface AttachmentItemProps {
  attachment: AttachmentRef;
  /** The image's bytes; null while they load, or when they are not stored (then it shows as a file). */
  blob: Blob | null;
  /** Set when its bytes are known to be gone from this browser. */
  missing?: boolean;
}

/** An attached image as a thumbnail (its name the alternative text), any other file as a chip with its name and size. */
export function AttachmentItem({ attachment, blob, missing = false }: AttachmentItemProps) {
  const url = useObjectUrl(attachment.kind === 'image' ? blob : null);
  const { t, format } = useI18n();
  if (attachment.kind === 'image' && !missing)
    return url ? (
      <img className="attachment-thumb" src={url} alt={attachment.name} title={attachment.name} />
    ) : (
      // Same size as the picture to come, so the message does not jump when it arrives.
      <span className="attachment-thumb attachment-thumb-loading" role="img" aria-label={attachment.name} />
    );
  return (
    <span className="attachment-file">
      {/* Drawn, not an emoji: not every system has an emoji font. */}
      <svg className="attachment-file-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path
          d="M4 1.5h5.5L13 5v9.5H4z M9.5 1.5V5H13"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.2"
          strokeLinejoin="round"
        />
      </svg>
      <span className="attachment-file-name">{attachment.name}</span>
      <span className="attachment-file-size">
        {missing ? t('attachments.notStored') : format.fileSize(attachment.size)}
      </span>
    </span>
  );
}
