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

  it('keeps one live region in place, whose announced words change only with the state', () => {
    const { rerender } = renderBanner(watch({ lastOutputAt: t0 }));
    // Present, and empty, while output flows: a stall is then announced as a change of its content.
    const region = screen.getByRole('status');
    expect(region).toBeEmptyDOMElement();
    rerender(watch({ lastOutputAt: t0, lastByteAt: t0 + 18_000, lastKeepaliveAt: t0 + 18_000 }));
    tick(21_000);
    expect(screen.getByRole('status')).toBe(region);
    const silent = announced(region);
    expect(silent).toContain('The model has stopped producing output, but the connection is alive.');
    expect(silent).not.toMatch(/\d+ s/);
    tick(3_000);
    // The counter ticks for the eyes; screen readers are not told again every second.
    expect(region).toHaveTextContent('The model has produced nothing for 24 s.');
    expect(announced(region)).toBe(silent);

    // Nothing at all for 25 s after the last keepalive (at 18 s).
    tick(19_000);
    expect(region).toHaveTextContent('The connection looks dead.');
    const dead = announced(region);
    expect(dead).not.toBe(silent);
    tick(2_000);
    expect(announced(region)).toBe(dead);
  });
});

/** What a screen reader gets from a live region: its text without the `aria-hidden` parts. */
function announced(region: HTMLElement): string {
  const copy = region.cloneNode(true) as HTMLElement;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent ?? '';
}
