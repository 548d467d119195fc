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
 */
export function StallBanner({ watch, thresholds, onRetry, onStop }: StallBannerProps) {
  const now = useNow(true, 1000, monotonic);
  const stall = assessStall(watch, Math.max(now, watch.lastByteAt ?? 0), thresholds);
  if (stall.kind === 'flowing') return null;
  const dead = stall.kind === 'connection-dead';
  return (
    <div
      role="status"
      className={`banner ${dead ? 'banner-danger' : 'banner-warn'}`}
      data-testid="stall-banner"
    >
      <div className="banner-text">
        {dead ? (
          <>
            <strong>The connection looks dead.</strong> Nothing has arrived for {seconds(stall.lastByteAgoMs)}
            , not even a keepalive (the gateway sends one about every 10 s). Retrying is probably the quickest
            way to an answer.
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
