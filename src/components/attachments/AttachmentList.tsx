import { useEffect, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { AttachmentRef } from '../../state/types.ts';
import { AttachmentItem } from './AttachmentItem.tsx';
import './attachments.css';

/** What was read of each image's bytes: the blob, or null when it is not stored (by attachment id). */
type Loaded = Record<string, Blob | null>;

/**
 * The files sent with a message: images as thumbnails, read from the app's database (a blob at a time, as
 * the message is shown), other files as chips with their name and size.
 */
export function AttachmentList({ attachments }: { attachments: readonly AttachmentRef[] }) {
  const { session } = useServices();
  const [loaded, setLoaded] = useState<Loaded>({});
  const { t } = useI18n();
  useEffect(() => {
    let current = true;
    for (const { id, kind } of attachments) {
      if (kind !== 'image') continue;
      session.attachments.get(id).then(
        (blob) => current && setLoaded((seen) => ({ ...seen, [id]: blob ?? null })),
        () => current && setLoaded((seen) => ({ ...seen, [id]: null })),
      );
    }
    return () => {
      current = false;
    };
  }, [attachments, session]);
  return (
    <ul className="attachment-list" aria-label={t('attachments.label')}>
      {attachments.map((attachment) => (
        <li key={attachment.id}>
          <AttachmentItem
            attachment={attachment}
            blob={loaded[attachment.id] ?? null}
            missing={loaded[attachment.id] === null}
          />
        </li>
      ))}
    </ul>
  );
}
