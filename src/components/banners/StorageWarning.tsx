import { useStorageStatus } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { UnreadableRecordsBanner } from './UnreadableRecordsBanner.tsx';
import './banners.css';

/** A sentence ends with its stop, whatever the browser's message ended with. */
function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/**
 * What the person must know about this browser's storage: saved data that could not be read at all, or
 * only in part, and saving that fails (quota, private mode), since closing the tab would lose recent work.
 */
export function StorageWarning() {
  const error = useStorageStatus((s) => s.error);
  const loadError = useStorageStatus((s) => s.loadError);
  const { t } = useI18n();
  return (
    <>
      {loadError ? (
        <div role="alert" className="banner banner-danger storage-warning">
          <div className="banner-text">{t('storage.loadError', { error: sentence(loadError) })}</div>
          <div className="banner-actions">
            <button type="button" className="btn btn-small" onClick={() => window.location.reload()}>
              {t('action.reload')}
            </button>
          </div>
        </div>
      ) : null}
      <UnreadableRecordsBanner />
      {error ? (
        <div role="alert" className="banner banner-warn storage-warning">
          <div className="banner-text">{t('storage.saveError', { error })}</div>
        </div>
      ) : null}
    </>
  );
}
