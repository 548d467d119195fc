import { assessStall, type StallThresholds, type WatchState } from '../../core/index.ts';
import { useNow } from '../../hooks/useNow.ts';
import './banners.css';

const monotonic = () => performance.now();
const seconds = (ms: number) => `${Math.floor(ms / 1000)} s`;

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
        <span className="visually-hidden">
          {dead
            ? 'The connection looks dead: nothing has arrived for a while, not even a keepalive. Retrying is probably the quickest way to an answer.'
            : 'The model has stopped producing output, but the connection is alive. You can wait, retry or stop.'}
        </span>
        <span aria-hidden="true">
          {dead ? (
            <>
              <strong>The connection looks dead.</strong> Nothing has arrived for{' '}
              {seconds(stall.lastByteAgoMs)}, not even a keepalive (the gateway sends one about every 10 s).
              Retrying is probably the quickest way to an answer.
            </>
          ) : (
            <>
              <strong>The model has produced nothing for {seconds(stall.silentForMs)}.</strong> The connection
              is alive
              {stall.lastKeepaliveAgoMs === null
                ? ` (last bytes ${seconds(stall.lastByteAgoMs)} ago)`
                : ` (last keepalive ${seconds(stall.lastKeepaliveAgoMs)} ago)`}
              . The gateway gives up on a silent model after about 90–150 s.
            </>
          )}
        </span>
      </div>
      <div className="banner-actions">
        <button type="button" className="btn btn-small btn-primary" onClick={onRetry}>
          Retry
        </button>
        <button type="button" className="btn btn-small" onClick={onStop}>
          Stop
        </button>
      </div>
    </div>
  );
}
