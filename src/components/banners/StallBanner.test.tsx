import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StallThresholds, WatchState } from '../../core/index.ts';
import { StallBanner } from './StallBanner.tsx';

const thresholds: StallThresholds = { silentModelMs: 20_000, deadConnectionMs: 25_000 };
let t0: number;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
  t0 = performance.now();
});

afterEach(() => vi.useRealTimers());

const watch = (w: Partial<WatchState>): WatchState => ({
  startedAt: t0,
  lastOutputAt: null,
  lastByteAt: null,
  lastKeepaliveAt: null,
  ...w,
});

const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function renderBanner(w: WatchState) {
  const onRetry = vi.fn();
  const onStop = vi.fn();
  const view = render(<StallBanner watch={w} thresholds={thresholds} onRetry={onRetry} onStop={onStop} />);
  const rerender = (next: WatchState) =>
    view.rerender(<StallBanner watch={next} thresholds={thresholds} onRetry={onRetry} onStop={onStop} />);
  return { onRetry, onStop, rerender };
}

describe('StallBanner', () => {
  it('is hidden while output flows, and appears once the model is silent too long', () => {
    renderBanner(watch({ lastOutputAt: t0, lastByteAt: t0 }));
    expect(screen.queryByTestId('stall-banner')).toBeNull();
    tick(19_000);
    expect(screen.queryByTestId('stall-banner')).toBeNull();
    tick(1_000);
    expect(screen.getByTestId('stall-banner')).toHaveTextContent('The model has produced nothing for 20 s.');
  });

  it('says the model is silent while keepalives arrive, with a live counter', () => {
    const { rerender } = renderBanner(watch({ lastOutputAt: t0 }));
    tick(18_000);
    // A keepalive at 18 s: the connection is alive.
    rerender(watch({ lastOutputAt: t0, lastByteAt: t0 + 18_000, lastKeepaliveAt: t0 + 18_000 }));
    tick(3_000);
    const banner = screen.getByRole('status');
    expect(banner).toHaveAttribute('data-testid', 'stall-banner');
    expect(banner).toHaveTextContent('The model has produced nothing for 21 s.');
    expect(banner).toHaveTextContent('The connection is alive (last keepalive 3 s ago).');
    expect(banner).not.toHaveTextContent('connection looks dead');
    tick(1_000);
    expect(banner).toHaveTextContent('The model has produced nothing for 22 s.');
    expect(banner).toHaveTextContent('(last keepalive 4 s ago)');
    tick(2_000);
    expect(banner).toHaveTextContent('The model has produced nothing for 24 s.');
  });

  it('mentions the last bytes when no keepalive was seen', () => {
    renderBanner(watch({ lastOutputAt: t0 + 1_000, lastByteAt: t0 + 15_000 }));
    tick(22_000);
    expect(screen.getByTestId('stall-banner')).toHaveTextContent(
      'The model has produced nothing for 21 s. The connection is alive (last bytes 7 s ago).',
    );
  });

  it('says the connection looks dead when nothing at all arrives', () => {
    renderBanner(watch({}));
    tick(24_000);
    expect(screen.getByTestId('stall-banner')).not.toHaveTextContent('looks dead');
    tick(1_000);
    const banner = screen.getByTestId('stall-banner');
    expect(banner).toHaveTextContent(
      'The connection looks dead. Nothing has arrived for 25 s, not even a keepalive',
    );
    expect(banner).toHaveClass('banner-danger');
    tick(5_000);
    expect(banner).toHaveTextContent('Nothing has arrived for 30 s');
  });

  it('offers Retry and Stop', () => {
    const { onRetry, onStop } = renderBanner(watch({}));
    tick(30_000);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('disappears as soon as output resumes', () => {
    const { rerender } = renderBanner(watch({ lastOutputAt: t0, lastByteAt: t0 }));
    tick(21_000);
    expect(screen.getByTestId('stall-banner')).toBeInTheDocument();
    rerender(watch({ lastOutputAt: t0 + 21_000, lastByteAt: t0 + 21_000 }));
    expect(screen.queryByTestId('stall-banner')).toBeNull();
  });
});
