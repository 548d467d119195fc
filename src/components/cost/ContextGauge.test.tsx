import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/testApp.tsx';
import { ContextGauge } from './ContextGauge.tsx';

function show(ownPrices: string, draft: string) {
  const app = createTestApp();
  app.stores.settings.getState().update({ model: 'sim-echo', ownPrices });
  render(<ContextGauge conversation={null} draft={draft} />, { wrapper: app.wrapper });
}

describe('ContextGauge', () => {
  it('shows how much of the window the next request fills', () => {
    show('{"sim-echo": {"max_input_tokens": 1000}}', 'x'.repeat(400));
    const meter = screen.getByRole('meter', { name: 'Context window' });
    expect(meter).toHaveAttribute('aria-valuetext', '100 of 1,000 tokens (10%)');
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it.each([
    [
      'x'.repeat(3700),
      'The context window is nearly full: the next message may not fit (925 of 1,000 tokens).',
    ],
    [
      'x'.repeat(4004),
      'This message would not fit in the model’s context window (1,001 of 1,000 tokens): shorten it or start a new chat.',
    ],
  ])('warns before the next message would not fit', (draft, warning) => {
    show('{"sim-echo": {"max_input_tokens": 1000}}', draft);
    expect(screen.getByRole('status')).toHaveTextContent(warning);
  });

  it('nothing without a known window', () => {
    show('{"sim-echo": {"input_cost_per_token": 1e-6}}', 'hello');
    expect(screen.queryByRole('meter')).toBeNull();
  });
});
