import { useStorageStatus } from '../../hooks/useStores.ts';
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
  return (
    <>
      {loadError ? (
        <div role="alert" className="banner banner-danger storage-warning">
          <div className="banner-text">
            {sentence(loadError)} Nothing stored has been changed, and this tab will not overwrite it: new
            conversations are saved beside it. Reloading the page may read it again.
          </div>
          <div className="banner-actions">
            <button type="button" className="btn btn-small" onClick={() => window.location.reload()}>
              Reload
            </button>
          </div>
        </div>
      ) : null}
      <UnreadableRecordsBanner />
      {error ? (
        <div role="alert" className="banner banner-warn storage-warning">
          <div className="banner-text">
            {error} It is retried automatically; until it works, a reload would lose the latest messages.
          </div>
        </div>
      ) : null}
    </>
  );
}
