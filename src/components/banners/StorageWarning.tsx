import { useStorageStatus } from '../../hooks/useStores.ts';
import './banners.css';

/** Saving to this browser failed (quota, private mode): say so, since a reload would lose recent work. */
export function StorageWarning() {
  const error = useStorageStatus((s) => s.error);
  if (!error) return null;
  return (
    <div role="alert" className="banner banner-warn storage-warning">
      <div className="banner-text">
        {error} It is retried automatically; until it works, a reload would lose the latest messages.
      </div>
    </div>
  );
}
