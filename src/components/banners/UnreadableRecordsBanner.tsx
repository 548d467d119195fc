import { useState } from 'react';
import { useStorageStatus } from '../../hooks/useStores.ts';
import { type UnreadableRecord, unreadableRecordsFile } from '../../state/records.ts';
import './banners.css';
import './unreadableRecords.css';

const nouns: Record<UnreadableRecord['what'], [string, string]> = {
  conversation: ['saved conversation', 'saved conversations'],
  recording: ['recording', 'recordings'],
  settings: ['settings record', 'settings records'],
};

/** "2 saved conversations and 1 recording". */
export function countUnreadable(records: readonly UnreadableRecord[]): string {
  const counts = new Map<UnreadableRecord['what'], number>();
  for (const record of records) counts.set(record.what, (counts.get(record.what) ?? 0) + 1);
  const parts = [...counts].map(([what, n]) => `${n} ${nouns[what][n === 1 ? 0 : 1]}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

/** Saves the unreadable records as a JSON file, exactly as the database holds them. */
export function downloadUnreadable(records: readonly UnreadableRecord[]): void {
  const now = new Date();
  const url = URL.createObjectURL(
    new Blob([unreadableRecordsFile(records, now)], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = `hopbase-chat-unreadable-records-${now.toISOString().slice(0, 10)}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Saved records that could not be read are never deleted or overwritten: this says how many there are,
 * what is wrong with them, and offers them as a file. Settings that fell back to their defaults say so too.
 */
export function UnreadableRecordsBanner() {
  const unreadable = useStorageStatus((s) => s.unreadable);
  const resetSettings = useStorageStatus((s) => s.resetSettings);
  // Dismissed for this page; records found later (a settings record copied aside) show it again.
  const [dismissed, setDismissed] = useState<{ records: number; settings: number } | null>(null);
  const shown =
    dismissed === null || unreadable.length > dismissed.records || resetSettings.length > dismissed.settings;
  if (!shown || (unreadable.length === 0 && resetSettings.length === 0)) return null;
  const count = countUnreadable(unreadable);
  return (
    <section className="banner banner-warn storage-warning" aria-label="Saved data that could not be read">
      <div className="banner-text">
        {unreadable.length ? (
          <p className="unreadable-line">
            <strong>{count} could not be read.</strong> {unreadable.length === 1 ? 'It is' : 'They are'} kept
            as {unreadable.length === 1 ? 'it is' : 'they are'} in this browser&rsquo;s storage, never
            overwritten; everything else loaded. Download {unreadable.length === 1 ? 'it' : 'them'} to keep a
            copy or to send to support.
          </p>
        ) : null}
        {resetSettings.length ? (
          <p className="unreadable-line">
            Some saved settings could not be read and are back to their defaults: {resetSettings.join(', ')}.
          </p>
        ) : null}
        {unreadable.length ? (
          <details className="banner-details unreadable-details">
            <summary>What is wrong</summary>
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
            Download unreadable records
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setDismissed({ records: unreadable.length, settings: resetSettings.length })}
        >
          Dismiss
        </button>
      </div>
    </section>
  );
}
