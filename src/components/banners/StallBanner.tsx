import { assessStall, type StallThresholds, type WatchState } from '../../core/index.ts';
import { useNow } from '../../hooks/useNow.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './banners.css';

const monotonic = () => performance.now();

export interface StallBannerProps {
  watch: WatchState;
  thresholds: StallThresholds;
  onRetry(): void;
  onStop(): void;
}

/**
 * Shown inside a streaming turn while the model is silent. It tells apart a slow model (keepalives
 * still arrive) from a dead connection (nothing at all), and disappears as soon as output resumes.
 *
 * The live region stays in place (empty while output flows) so its content is announced when a stall
 * begins, once per state: the ticking counters are hidden from screen readers, which get one stable
 * sentence instead.
 */
export function StallBanner({ watch, thresholds, onRetry, onStop }: StallBannerProps) {
  const { t, rich, format } = useI18n();
  const seconds = (ms: number) => format.seconds(Math.floor(ms / 1000));
  const now = useNow(true, 1000, monotonic);
  const stall = assessStall(watch, Math.max(now, watch.lastByteAt ?? 0), thresholds);
  if (stall.kind === 'flowing') return <div role="status" className="stall-live" />;
  const dead = stall.kind === 'connection-dead';
  return (
    <div
      role="status"
      className={`stall-live banner ${dead ? 'banner-danger' : 'banner-warn'}`}
      data-testid="stall-banner"
    >
      <div className="banner-text">
        <span className="visually-hidden">{t(dead ? 'stall.dead.announce' : 'stall.silent.announce')}</span>
        <span aria-hidden="true">
          {dead
            ? rich('stall.dead', { ago: seconds(stall.lastByteAgoMs) })
            : stall.lastKeepaliveAgoMs === null
              ? rich('stall.silent.bytes', {
                  silent: seconds(stall.silentForMs),
                  ago: seconds(stall.lastByteAgoMs),
                })
              : rich('stall.silent.keepalive', {
                  silent: seconds(stall.silentForMs),
                  ago: seconds(stall.lastKeepaliveAgoMs),
                })}
        </span>
      </div>
      <div className="banner-actions">
        <button type="button" className="btn btn-small btn-primary" onClick={onRetry}>
          {t('action.retry')}
        </button>
        <button type="button" className="btn btn-small" onClick={onStop}>
          {t('action.stop')}
        </button>
      </div>
    </div>
  );
}
