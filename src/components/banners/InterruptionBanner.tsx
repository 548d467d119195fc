import { adviseFailure, type HttpError, type Turn } from '../../core/index.ts';
import { useNow } from '../../hooks/useNow.ts';
import { explainFailure } from '../../i18n/explain.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './banners.css';

export interface InterruptionBannerProps {
  turn: Turn;
  httpError: HttpError | null;
  /** When the failure happened (epoch ms): the Retry-After countdown starts there. */
  failedAt: number;
  /** Absent for a replayed recording, which cannot be sent again. */
  onRetry?(): void;
  /**
   * How long the model had been silent (keepalives only) when the stream ended, when that reached the
   * stall warning: the gateway's own error does not say it gave up on a silent model, the recording does.
   */
  silentBeforeMs?: number;
}

/** Why an answer ended badly, what to do, and the protocol's own words; Retry re-sends the whole request. */
export function InterruptionBanner({
  turn,
  httpError,
  failedAt,
  onRetry,
  silentBeforeMs,
}: InterruptionBannerProps) {
  const i18n = useI18n();
  const { t, format } = i18n;
  const advice = adviseFailure(turn, httpError);
  const waitUntil = httpError?.retryAfterSeconds ? failedAt + httpError.retryAfterSeconds * 1000 : 0;
  const now = useNow(waitUntil > Date.now());
  if (!advice) return null;
  const remaining = Math.ceil((waitUntil - now) / 1000);
  const hasOutput = turn.parts.length > 0;
  const code = httpError ? `HTTP ${httpError.status} · ${httpError.code}` : turn.error?.code;
  const message = httpError?.message ?? turn.error?.message;
  const { title, advice: whatToDo } = explainFailure(i18n, advice);
  return (
    <div role="alert" className="banner banner-danger" data-testid="interruption-banner">
      <div className="banner-text">
        {i18n.rich('interruption.text', {
          title,
          advice: whatToDo,
          silence: silentBeforeMs ? format.seconds(Math.round(silentBeforeMs / 1000)) : 'none',
          partial: hasOutput ? 'yes' : 'no',
        })}
        {message ? (
          <details className="banner-details">
            <summary>{t('interruption.details')}</summary>
            <code>{code}</code>: {message}
            {httpError?.requestId ? (
              <div>{t('interruption.requestId', { id: httpError.requestId })}</div>
            ) : null}
          </details>
        ) : null}
      </div>
      <div className="banner-actions">
        {!onRetry ? null : remaining > 0 ? (
          <span className="countdown" role="timer">
            {t('interruption.retryIn', { seconds: format.seconds(remaining) })}
          </span>
        ) : (
          <button type="button" className="btn btn-small btn-primary" onClick={onRetry}>
            {t('action.retry')}
          </button>
        )}
      </div>
    </div>
  );
}
