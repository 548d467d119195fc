import { useEffect } from 'react';
import { useStorageStatus } from '../../hooks/useStores.ts';
import { countUnreadable, downloadUnreadable } from '../banners/UnreadableRecordsBanner.tsx';
import './storageUse.css';

const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];

/** 1,234,567 → "1.2 MB" (decimal units, as browsers report storage). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** How much this browser stores for the app, whether it may clear it, and what could not be read. */
export function StorageUse() {
  const usage = useStorageStatus((s) => s.usage);
  const persisted = useStorageStatus((s) => s.persisted);
  const unreadable = useStorageStatus((s) => s.unreadable);
  const refreshUsage = useStorageStatus((s) => s.refreshUsage);
  const requestPersistence = useStorageStatus((s) => s.requestPersistence);
  useEffect(() => {
    void refreshUsage();
  }, [refreshUsage]);

  return (
    <fieldset className="storage-use">
      <legend>Storage in this browser</legend>
      <p>
        Conversations, recordings and settings are kept in this browser only.{' '}
        {usage
          ? `In use: ${formatBytes(usage.used)} of the ${formatBytes(usage.quota)} it allows.`
          : 'This browser does not say how much space they take.'}
      </p>
      {persisted === true ? (
        <p>Kept until you clear it: the browser will not remove it to free space.</p>
      ) : persisted === false ? (
        <div className="storage-use-row">
          <p>The browser may remove it when space runs low.</p>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void requestPersistence().then(() => refreshUsage())}
          >
            Ask the browser to keep it
          </button>
        </div>
      ) : null}
      {unreadable.length ? (
        <div className="storage-use-row">
          <p>{countUnreadable(unreadable)} could not be read; kept unchanged.</p>
          <button type="button" className="btn btn-small" onClick={() => downloadUnreadable(unreadable)}>
            Download unreadable records
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}
