import { useNow } from '../../hooks/useNow.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './banners.css';

/**
 * An automatic retry waiting to start (only ever before any output): visible and cancellable. Screen
 * readers hear one sentence per attempt; the ticking seconds are for the eyes only.
 */
export function AutoRetryBanner({
  retryAt,
  attempt,
  of,
  onCancel,
}: {
  retryAt: number;
  /** The attempt about to start, and how many this series allows (e.g. 2 of 3). */
  attempt: number;
  of: number;
  onCancel(): void;
}) {
  const { t, format } = useI18n();
  const now = useNow(true, 250);
  const remaining = Math.max(0, Math.ceil((retryAt - now) / 1000));
  return (
    <div role="status" className="banner banner-warn" data-testid="auto-retry-banner">
      <div className="banner-text">
        <span className="visually-hidden">{t('autoRetry.announce', { attempt, of })}</span>
        <span aria-hidden="true">
          {t('autoRetry.countdown', { seconds: format.seconds(remaining), attempt, of })}
        </span>
      </div>
      <div className="banner-actions">
        <button type="button" className="btn btn-small" onClick={onCancel}>
          {t('autoRetry.cancel')}
        </button>
      </div>
    </div>
  );
}
