import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type AttemptCost, attemptCost, sumCosts, type Usage } from '../../core/index.ts';
import { createTestApp } from '../../testing/testApp.tsx';
import { CostFigure } from './CostFigure.tsx';

const price = {
  input_cost_per_token: 3e-6,
  output_cost_per_token: 1.5e-5,
  cache_read_input_token_cost: 3e-7,
};
const usage: Usage = { inputTokens: 1000, outputTokens: 200, totalTokens: 1200, cachedTokens: 600 };

function show(costs: AttemptCost[], status = 'complete') {
  const app = createTestApp();
  render(<CostFigure attempts={costs.map((cost) => ({ cost, status }))} sum={sumCosts(costs)} model="m" />, {
    wrapper: app.wrapper,
  });
}

describe('CostFigure', () => {
  it('shows the dollars; focus opens the breakdown, line by line, which is the button’s description', async () => {
    show([attemptCost(usage, price)]);
    // 400 × $3 + 600 × $0.30 + 200 × $15 per million = $0.00438
    const button = screen.getByRole('button', { name: 'Cost: $0.00438' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    await userEvent.tab();
    expect(button).toHaveFocus();
    const tip = screen.getByRole('tooltip');
    expect(button).toHaveAccessibleDescription(/What this answer cost/);
    const rows = screen.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual([
      'TokensCountPer millionCost',
      'Input400$3.00$0.0012',
      'Cache reads600$0.30$0.00018',
      'Output200$15.00$0.0030',
      'Total$0.00438',
    ]);
    await userEvent.keyboard('{Escape}');
    expect(tip).not.toBeVisible();
  });

  it('an unpriced model says price unknown, never $0', () => {
    show([attemptCost(usage, null)]);
    expect(screen.getByRole('button', { name: 'Cost: price unknown' })).toBeInTheDocument();
  });

  it('several attempts: the sum, saying over how many, each attempt in the breakdown', async () => {
    show([attemptCost({ ...usage, cachedTokens: 0 }, price), attemptCost(usage, price)], 'incomplete');
    const button = screen.getByRole('button', { name: 'Cost: $0.0104 over 2 attempts' });
    await userEvent.click(button);
    expect(screen.getByText('Attempt 1 of 2: incomplete')).toBeInTheDocument();
    expect(
      screen.getByText('The answer’s cost is the sum of its 2 attempts: each was billed.'),
    ).toBeInTheDocument();
  });

  it('the gateway’s own figure wins, and says so', () => {
    show([attemptCost({ ...usage, gatewayCost: 0.5 }, price)]);
    expect(screen.getByRole('button', { name: 'Cost: $0.50 (the gateway’s figure)' })).toBeInTheDocument();
  });

  it('nothing billed: no figure', () => {
    show([attemptCost(null, price, true)]);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
