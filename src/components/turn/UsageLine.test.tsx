import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageLine } from './UsageLine.tsx';

describe('UsageLine', () => {
  it('shows input, output and total', () => {
    render(<UsageLine status="complete" usage={{ inputTokens: 14, outputTokens: 52, totalTokens: 66 }} />);
    const line = screen.getByTestId('turn-usage');
    expect(line.tagName).toBe('P');
    expect(line.textContent).toBe('14 in · 52 out · 66 total');
    expect(line).toHaveAttribute('title', 'Token usage: 14 input, 52 output, 66 total');
  });

  it('adds reasoning and cached counts when reported, with thousands separators', () => {
    render(
      <UsageLine
        status="complete"
        usage={{
          inputTokens: 12_345,
          outputTokens: 1_052,
          totalTokens: 13_397,
          reasoningTokens: 40,
          cachedTokens: 10_000,
        }}
      />,
    );
    const line = screen.getByTestId('turn-usage');
    expect(line.textContent).toBe('12,345 in · 1,052 out · 13,397 total · 40 reasoning · 10,000 cached');
    expect(line).toHaveAttribute(
      'title',
      'Token usage: 12,345 input, 1,052 output, 13,397 total, 40 reasoning, 10,000 cached',
    );
  });

  it('leaves out zero reasoning and cached counts', () => {
    render(
      <UsageLine
        status="complete"
        usage={{ inputTokens: 1, outputTokens: 2, totalTokens: 3, reasoningTokens: 0, cachedTokens: 0 }}
      />,
    );
    expect(screen.getByTestId('turn-usage').textContent).toBe('1 in · 2 out · 3 total');
  });

  it.each(['complete', 'error', 'interrupted', 'aborted'] as const)(
    'says usage is unknown for a %s turn without usage',
    (status) => {
      render(<UsageLine status={status} usage={null} />);
      expect(screen.getByTestId('turn-usage')).toHaveTextContent('usage unknown');
    },
  );

  it('renders nothing while streaming without usage, but shows usage that arrived early', () => {
    const { rerender } = render(<UsageLine status="streaming" usage={null} />);
    expect(screen.queryByTestId('turn-usage')).toBeNull();
    rerender(<UsageLine status="streaming" usage={{ inputTokens: 5, outputTokens: 0, totalTokens: 5 }} />);
    expect(screen.getByTestId('turn-usage').textContent).toBe('5 in · 0 out · 5 total');
  });
});
