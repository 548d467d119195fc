import { formatSize } from '../../state/attachmentFiles.ts';
import type { AttachmentRef } from '../../state/types.ts';
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
  if (attachment.kind === 'image' && !missing)
    return url ? (
      <img className="attachment-thumb" src={url} alt={attachment.name} title={attachment.name} />
    ) : (
      // Same size as the picture to come, so the message does not jump when it arrives.
      <span className="attachment-thumb attachment-thumb-loading" role="img" aria-label={attachment.name} />
    );
  return (
    <span className="attachment-file">
      <span className="attachment-file-icon" aria-hidden="true">
        {attachment.kind === 'image' ? '🖼' : '📄'}
      </span>
      <span className="attachment-file-name">{attachment.name}</span>
      <span className="attachment-file-size">
        {missing ? 'not stored here' : formatSize(attachment.size)}
      </span>
    </span>
  );
}
