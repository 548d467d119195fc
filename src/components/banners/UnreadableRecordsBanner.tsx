import { useState } from 'react';
import { useStorageStatus } from '../../hooks/useStores.ts';
import type { MessageKey } from '../../i18n/catalogs/en.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import { type UnreadableRecord, unreadableRecordsFile } from '../../state/formats/records.ts';
import { downloadText } from '../shared/download.ts';
import './banners.css';
import './unreadableRecords.css';

const counted: Record<UnreadableRecord['what'], MessageKey> = {
  conversation: 'unreadable.conversations',
  recording: 'unreadable.recordings',
  request: 'unreadable.requests',
  settings: 'unreadable.settings',
};

/** "2 saved conversations and 1 recording", kinds in the order first met. */
export function countUnreadable({ t, format }: I18n, records: readonly UnreadableRecord[]): string {
  const counts = new Map<UnreadableRecord['what'], number>();
  for (const record of records) counts.set(record.what, (counts.get(record.what) ?? 0) + 1);
  return format.list([...counts].map(([what, n]) => t(counted[what], { n })));
}

/** Saves the unreadable records as a JSON file, exactly as the database holds them. */
export function downloadUnreadable(records: readonly UnreadableRecord[]): void {
  const now = new Date();
  downloadText(
    `hopbase-chat-unreadable-records-${now.toISOString().slice(0, 10)}.json`,
    unreadableRecordsFile(records, now),
    'application/json',
  );
}

/**
 * Saved records that could not be read are never deleted or overwritten: this says how many there are,
 * what is wrong with them, and offers them as a file. Settings that fell back to their defaults say so too.
 */
export function UnreadableRecordsBanner() {
  const unreadable = useStorageStatus((s) => s.unreadable);
  const resetSettings = useStorageStatus((s) => s.resetSettings);
  const i18n = useI18n();
  const { t } = i18n;
  // Dismissed for this page; records found later (a settings record copied aside) show it again.
  const [dismissed, setDismissed] = useState<{ records: number; settings: number } | null>(null);
  const shown =
    dismissed === null || unreadable.length > dismissed.records || resetSettings.length > dismissed.settings;
  if (!shown || (unreadable.length === 0 && resetSettings.length === 0)) return null;
  return (
    <section className="banner banner-warn storage-warning" aria-label={t('unreadable.region')}>
      <div className="banner-text">
        {unreadable.length ? (
          <p className="unreadable-line">
            {i18n.rich('unreadable.summary', {
              count: countUnreadable(i18n, unreadable),
              n: unreadable.length,
            })}
          </p>
        ) : null}
        {resetSettings.length ? (
          <p className="unreadable-line">
            {t('unreadable.resetSettings', { names: resetSettings.join(', ') })}
          </p>
        ) : null}
        {unreadable.length ? (
          <details className="banner-details unreadable-details">
            <summary>{t('unreadable.whatIsWrong')}</summary>
            <ul>
              {unreadable.map((record) => (
                <li key={record.key}>
                  <code>{record.key}</code>: {record.reason}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
      <div className="banner-actions">
        {unreadable.length ? (
          <button type="button" className="btn btn-small" onClick={() => downloadUnreadable(unreadable)}>
            {t('unreadable.download')}
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setDismissed({ records: unreadable.length, settings: resetSettings.length })}
        >
          {t('action.dismiss')}
        </button>
      </div>
    </section>
  );
}
