import { useI18n } from '../../i18n/I18nProvider.tsx';
import './banners.css';

/**
 * Shown inside a streaming turn while the page reconnects to the server that runs the answer: nothing is
 * lost and nothing is to be retried (a retry would bill the answer twice); Stop still stops it there.
 */
export function ReconnectingBanner({ onStop }: { onStop(): void }) {
  const { t, rich } = useI18n();
  return (
    <div role="status" className="banner banner-info" data-testid="reconnecting-banner">
      <div className="banner-text">
        <span className="visually-hidden">{t('relay.reconnecting.announce')}</span>
        <span aria-hidden="true">{rich('relay.reconnecting')}</span>
      </div>
      <div className="banner-actions">
        <button type="button" className="btn btn-small" onClick={onStop}>
          {t('action.stop')}
        </button>
      </div>
    </div>
  );
}
