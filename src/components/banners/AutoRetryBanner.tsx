import { maxAutomaticRetries } from '../../core/index.ts';
import { useNow } from '../../hooks/useNow.ts';
import './banners.css';

/** An automatic retry waiting to start (only ever before any output): visible and cancellable. */
export function AutoRetryBanner({
  retryAt,
  attempt,
  onCancel,
}: {
  retryAt: number;
  attempt: number;
  onCancel(): void;
}) {
  const now = useNow(true, 250);
  const remaining = Math.max(0, Math.ceil((retryAt - now) / 1000));
  return (
    <div role="status" className="banner banner-warn" data-testid="auto-retry-banner">
      <div className="banner-text">
        Retrying automatically in {remaining} s (attempt {attempt + 1} of {maxAutomaticRetries + 1}).
      </div>
      <div className="banner-actions">
        <button type="button" className="btn btn-small" onClick={onCancel}>
          Cancel retry
        </button>
      </div>
    </div>
  );
}
