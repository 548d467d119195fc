import { useEffect } from 'react';
import { useStorageStatus } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { countUnreadable, downloadUnreadable } from '../banners/UnreadableRecordsBanner.tsx';
import './storageUse.css';

/** How much this browser stores for the app, whether it may clear it, and what could not be read. */
export function StorageUse() {
  const usage = useStorageStatus((s) => s.usage);
  const persisted = useStorageStatus((s) => s.persisted);
  const unreadable = useStorageStatus((s) => s.unreadable);
  const refreshUsage = useStorageStatus((s) => s.refreshUsage);
  const requestPersistence = useStorageStatus((s) => s.requestPersistence);
  const i18n = useI18n();
  const { t, format } = i18n;
  useEffect(() => {
    void refreshUsage();
  }, [refreshUsage]);

  return (
    <fieldset className="storage-use">
      <legend>{t('storage.legend')}</legend>
      <p>
        {t('storage.usage', {
          known: usage ? 'yes' : 'no',
          used: usage ? format.bytes(usage.used) : '',
          quota: usage ? format.bytes(usage.quota) : '',
        })}
      </p>
      {persisted === true ? (
        <p>{t('storage.persisted')}</p>
      ) : persisted === false ? (
        <div className="storage-use-row">
          <p>{t('storage.mayRemove')}</p>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void requestPersistence().then(() => refreshUsage())}
          >
            {t('storage.askKeep')}
          </button>
        </div>
      ) : null}
      {unreadable.length ? (
        <div className="storage-use-row">
          <p>{t('storage.unreadable', { count: countUnreadable(i18n, unreadable) })}</p>
          <button type="button" className="btn btn-small" onClick={() => downloadUnreadable(unreadable)}>
            {t('unreadable.download')}
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}
