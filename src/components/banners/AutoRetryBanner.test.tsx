import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AutoRetryBanner } from './AutoRetryBanner.tsx';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
});
afterEach(() => vi.useRealTimers());

/** What a screen reader gets from a live region: its text without the `aria-hidden` parts. */
function announced(region: HTMLElement): string {
  const copy = region.cloneNode(true) as HTMLElement;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent ?? '';
}

describe('AutoRetryBanner', () => {
  it('counts down visibly with the attempt numbers it is given, announcing them once', () => {
    const onCancel = vi.fn();
    render(<AutoRetryBanner retryAt={Date.now() + 3_000} attempt={2} of={3} onCancel={onCancel} />);
    const banner = screen.getByRole('status');
    expect(banner).toHaveAttribute('data-testid', 'auto-retry-banner');
    expect(banner).toHaveTextContent('Retrying automatically in 3 s (attempt 2 of 3).');
    const words = announced(banner);
    expect(words).toContain('attempt 2 of 3');
    expect(words).not.toMatch(/in \d+ s/);

    act(() => vi.advanceTimersByTime(1_000));
    expect(banner).toHaveTextContent('Retrying automatically in 2 s (attempt 2 of 3).');
    expect(announced(banner)).toBe(words);
  });

  it('cancels', async () => {
    vi.useRealTimers();
    const onCancel = vi.fn();
    render(<AutoRetryBanner retryAt={Date.now() + 3_000} attempt={3} of={3} onCancel={onCancel} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel retry' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
