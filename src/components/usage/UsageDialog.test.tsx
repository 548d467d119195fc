import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStores } from '../../state/stores/appStores.ts';
import { createTestApp } from '../../testing/testApp.tsx';
import { UsageDialog } from './UsageDialog.tsx';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const row = (day: string, model: string, protocol: string, input: number, output: number) => ({
  day,
  model,
  protocol,
  attempts: 1,
  interrupted: 0,
  inputTokens: input,
  outputTokens: output,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});

/** The team server: its price table, a person's own usage and everyone's (each request kept). */
function serve() {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const url = String(input);
      if (url === '/api/prices')
        return json({ 'sim-echo': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6 } });
      requests.push(url);
      if (url.startsWith('/api/usage'))
        return json({ totals: [row('2026-03-09', 'sim-echo', 'chat', 1000, 500)] });
      return json({
        totals: [
          { ...row('2026-03-09', 'sim-echo', 'chat', 1000, 500), userId: 'u1', email: 'ana@example.com' },
          { ...row('2026-03-10', 'other', 'responses', 10, 20), userId: 'u2', email: 'bo@example.com' },
        ],
      });
    }),
  );
  return requests;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-10T12:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((r) => Array.from((r as HTMLTableRowElement).cells, (cell) => cell.textContent));

describe('Usage and cost, team mode: the server’s figures', () => {
  it('an administrator sees their own, then everyone’s, priced by the table; no price is never $0', async () => {
    const requests = serve();
    const stores = createAppStores();
    stores.team.getState().signedIn({
      mode: 'team',
      auth: 'header',
      person: { email: 'ana@example.com', name: 'Ana', admin: true },
    });
    createTestApp({ stores }).render(<UsageDialog onClose={() => {}} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'Usage and cost' });
    expect(dialog).toHaveTextContent('What the server counted');

    const own = await within(dialog).findByRole('table', { name: 'Usage per day' });
    expect(requests).toEqual(['/api/usage?from=2026-03-04&to=2026-03-10']);
    await vi.waitFor(() =>
      expect(cells(own)).toContainEqual(['Mar 9, 2026', '1,000', '0', '500', '0', '$0.0030']),
    );

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Whose usage' }), 'everyone');
    await user.click(within(dialog).getByRole('radio', { name: 'Per model' }));
    const everyone = await within(dialog).findByRole('table', { name: 'Usage per model, everyone’s' });
    expect(requests.at(-1)).toBe('/api/admin/usage?from=2026-03-04&to=2026-03-10');
    expect(cells(everyone)).toEqual([
      ['Model', 'Tokens in', 'Cached', 'Tokens out', 'Reasoning', 'Cost'],
      ['other', '10', '0', '20', '0', 'price unknown'],
      ['sim-echo', '1,000', '0', '500', '0', '$0.0030'],
      ['Total', '1,010', '0', '520', '0', 'at least $0.0030'],
    ]);
  });
});
