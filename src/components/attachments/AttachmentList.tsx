import { useEffect, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { AttachmentItem } from './AttachmentItem.tsx';
import './attachments.css';

/** What was read of each image's bytes: the blob, or null when it is not stored (by attachment id). */
/** By attachment id (any string: a Map). */
type Loaded = ReadonlyMap<string, Blob | null>;

export interface AttachmentListProps {
  attachments: readonly AttachmentRef[];
  /** The list's name; "Attachments" when not given. */
  label?: string;
  /** Given for files still to send (a draft): each gets a "Remove <name>" button. */
  onRemove?(attachment: AttachmentRef): void;
}

/**
 * Files with a message or a draft: images as thumbnails, read from the app's database (a blob at a time,
 * once, as they are shown), other files as chips with their name and size.
 */
export function AttachmentList({ attachments, label, onRemove }: AttachmentListProps) {
  const { session } = useServices();
  const [loaded, setLoaded] = useState<Loaded>(() => new Map());
  // Each image is read once, whatever else joins the list; nothing is set once the list is gone.
  const asked = useRef(new Set<string>());
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const { t } = useI18n();
  useEffect(() => {
    for (const { id, kind } of attachments) {
      if (kind !== 'image' || asked.current.has(id)) continue;
      asked.current.add(id);
      const settle = (blob: Blob | null) => {
        if (shown.current) setLoaded((seen) => new Map(seen).set(id, blob));
      };
      session.attachments.get(id).then(
        (blob) => settle(blob ?? null),
        () => settle(null),
      );
    }
  }, [attachments, session]);
  return (
    <ul
      className={onRemove ? 'attachment-list attachment-list-draft' : 'attachment-list'}
      aria-label={label ?? t('attachments.label')}
    >
      {attachments.map((attachment) => (
        <li key={attachment.id}>
          <AttachmentItem
            attachment={attachment}
            blob={loaded.get(attachment.id) ?? null}
            missing={loaded.get(attachment.id) === null}
          />
          {onRemove ? (
            <button
              type="button"
              className="attachment-remove"
              aria-label={t('composer.remove', { name: attachment.name })}
              title={t('composer.remove', { name: attachment.name })}
              onClick={() => onRemove(attachment)}
            >
              <span aria-hidden="true">×</span>
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
