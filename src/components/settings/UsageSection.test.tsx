import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStores } from '../../state/stores/appStores.ts';
import type { UsageRow } from '../../state/team/usageApi.ts';
import { createTestApp } from '../../testing/testApp.tsx';
import { SettingsDialog } from './SettingsDialog.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A row as the server sends it (`server/db/usage.ts`). */
const totals = (row: Omit<UsageRow, 'person' | 'cacheWriteTokens' | 'reasoningTokens'>): UsageRow => ({
  cacheWriteTokens: 0,
  reasoningTokens: 7,
  ...row,
});

const ownTotals = [
  totals({
    day: '2026-03-04',
    model: 'sim-echo',
    protocol: 'chat',
    attempts: 3,
    interrupted: 1,
    inputTokens: 12_345,
    outputTokens: 678,
    cachedTokens: 0,
  }),
  totals({
    day: '2026-03-09',
    model: 'sim-long',
    protocol: 'messages',
    attempts: 1,
    interrupted: 0,
    inputTokens: 1_000,
    outputTokens: 3_000,
    cachedTokens: 512,
  }),
];

/** In the server's order: by day, then email (a person it knows no email of last). */
const everyonesTotals = [
  {
    ...totals({
      day: '2026-03-08',
      model: 'sim-echo',
      protocol: 'responses',
      attempts: 5,
      interrupted: 2,
      inputTokens: 2_000_000,
      outputTokens: 100,
      cachedTokens: 9,
    }),
    userId: 'u-2',
    email: 'bo@example.com',
  },
  {
    ...totals({
      day: '2026-03-09',
      model: 'sim-echo',
      protocol: 'responses',
      attempts: 2,
      interrupted: 0,
      inputTokens: 40,
      outputTokens: 60,
      cachedTokens: 0,
    }),
    userId: 'u-1',
    email: 'ana@example.com',
  },
  {
    ...totals({
      day: '2026-03-10',
      model: 'sim-long',
      protocol: 'messages',
      attempts: 1,
      interrupted: 0,
      inputTokens: 300,
      outputTokens: 700,
      cachedTokens: 0,
    }),
    userId: 'u-2',
    email: 'bo@example.com',
  },
  {
    ...totals({
      day: '2026-03-10',
      model: 'gpt-x',
      protocol: 'a-newer-protocol',
      attempts: 1,
      interrupted: 0,
      inputTokens: 1,
      outputTokens: 2,
      cachedTokens: 0,
    }),
    userId: 'u-3',
    email: null,
  },
];

type Answer = Response | Promise<Response>;

/**
 * The team server's two usage routes; every request to them is kept, path and query as sent (the price
 * table Settings also reads is served empty and not kept).
 */
function serveUsage(answers: { own?: (url: URL) => Answer; everyone?: (url: URL) => Answer }) {
  const requests: string[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const url = String(input);
    if (url === '/api/prices') return json({}, 200);
    requests.push(url);
    const parsed = new URL(url, 'http://app.test');
    if (parsed.pathname === '/api/usage' && answers.own) return answers.own(parsed);
    if (parsed.pathname === '/api/admin/usage' && answers.everyone) return answers.everyone(parsed);
    return json({ error: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return requests;
}

/** The Settings dialog as a signed-in person of a team server sees it. */
function openSettings(admin: boolean) {
  const stores = createAppStores();
  stores.team
    .getState()
    .signedIn({ mode: 'team', auth: 'header', person: { email: 'ana@example.com', name: 'Ana', admin } });
  const app = createTestApp({ stores });
  const dialog = app.render(<SettingsDialog onClose={() => {}} />);
  return {
    user: userEvent.setup(),
    section: screen.getByRole('group', { name: 'Usage' }),
    /** Closes the dialog and opens it again, in the same app. */
    reopen() {
      dialog.unmount();
      app.render(<SettingsDialog onClose={() => {}} />);
      return screen.getByRole('group', { name: 'Usage' });
    },
  };
}

/** The table's column headings, whoever's usage it shows. */
const headingRow = [
  'Day',
  'Model',
  'Protocol',
  'Input tokens',
  'Output tokens',
  'Cached tokens',
  'Attempts',
  'Interrupted',
];

/** A table's rows as the text of their cells, header and total rows included. */
const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent));

beforeEach(() => {
  // Only the clock: "the last 7 days" end on 2026-03-10 (UTC), while timers and promises run as ever.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-10T23:30:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Settings: usage (team mode)', () => {
  it('shows the person’s own usage of the last 7 days, per day with a total, then of the last 30', async () => {
    let answer!: (response: Response) => void;
    const requests = serveUsage({
      own: (url) =>
        url.searchParams.get('from') === '2026-03-04'
          ? new Promise((resolve) => (answer = resolve))
          : json({ from: '2026-02-09', to: '2026-03-10', totals: ownTotals.slice(1) }),
    });
    const { user, section } = openSettings(false);
    const period = within(section).getByRole('combobox', { name: 'Period' });
    expect(period).toHaveDisplayValue('Last 7 days');
    expect(within(section).getByRole('status')).toHaveTextContent('Loading usage…');
    expect(requests).toEqual(['/api/usage?from=2026-03-04&to=2026-03-10']);

    answer(json({ from: '2026-03-04', to: '2026-03-10', totals: ownTotals }));
    const table = await within(section).findByRole('table', {
      name: /^Your usage, Mar 4\s–\s10, 2026 \(UTC\)$/,
    });
    expect(within(section).queryByRole('status')).toBeNull();
    expect(cells(table)).toEqual([
      headingRow,
      ['Mar 4, 2026', 'sim-echo', 'Chat Completions', '12,345', '678', '0', '3', '1'],
      ['Mar 9, 2026', 'sim-long', 'Anthropic Messages', '1,000', '3,000', '512', '1', '0'],
      ['Total', '13,345', '3,678', '512', '4', '1'],
    ]);
    expect(within(table).getByRole('rowheader', { name: 'Total' })).toBeInTheDocument();
    // The table scrolls sideways in a frame named as it is, which the keyboard can reach.
    const scroller = within(section).getByRole('region', { name: /^Your usage/ });
    expect(scroller).toContainElement(table);
    expect(scroller).toHaveAttribute('tabindex', '0');
    // Not an administrator: no choice of whose usage, and everyone's never asked for.
    expect(within(section).queryByRole('combobox', { name: 'Whose usage' })).toBeNull();

    await user.selectOptions(period, 'Last 30 days');
    const month = await within(section).findByRole('table', { name: /^Your usage, Feb 9\s–\sMar 10, 2026/ });
    expect(cells(month).at(-1)).toEqual(['Total', '1,000', '3,000', '512', '1', '0']);
    expect(requests.at(-1)).toBe('/api/usage?from=2026-02-09&to=2026-03-10');
    expect(requests.some((url) => url.startsWith('/api/admin/'))).toBe(false);
  });

  it('shows an administrator everyone’s usage, each person’s rows under their email', async () => {
    const requests = serveUsage({
      own: () => json({ from: '2026-03-04', to: '2026-03-10', totals: ownTotals }),
      everyone: () => json({ from: '2026-03-04', to: '2026-03-10', totals: everyonesTotals }),
    });
    const { user, section } = openSettings(true);
    const whose = within(section).getByRole('combobox', { name: 'Whose usage' });
    expect(whose).toHaveDisplayValue('Yours');
    await within(section).findByRole('table', { name: /^Your usage/ });

    await user.selectOptions(whose, 'Everyone');
    const table = await within(section).findByRole('table', {
      name: /^Everyone’s usage, Mar 4\s–\s10, 2026/,
    });
    expect(requests.at(-1)).toBe('/api/admin/usage?from=2026-03-04&to=2026-03-10');
    // Each person's rows under their name, people in alphabetical order.
    expect(cells(table)).toEqual([
      headingRow,
      ['ana@example.com'],
      ['Mar 9, 2026', 'sim-echo', 'Responses', '40', '60', '0', '2', '0'],
      ['bo@example.com'],
      ['Mar 8, 2026', 'sim-echo', 'Responses', '2,000,000', '100', '9', '5', '2'],
      ['Mar 10, 2026', 'sim-long', 'Anthropic Messages', '300', '700', '0', '1', '0'],
      // A person the server knows no email of is named by their id; a protocol this app does not know, as sent.
      ['u-3'],
      ['Mar 10, 2026', 'gpt-x', 'a-newer-protocol', '1', '2', '0', '1', '0'],
      ['Total', '2,000,341', '862', '9', '9', '2'],
    ]);
    // A name heads the group of its rows, for a screen reader too.
    const bo = within(table).getByRole('rowheader', { name: 'bo@example.com' });
    expect(bo).toHaveAttribute('scope', 'rowgroup');
    expect(within(bo.closest('tbody')!).getAllByRole('row')).toHaveLength(3);

    await user.selectOptions(whose, 'Yours');
    expect(await within(section).findByRole('table', { name: /^Your usage/ })).toBeInTheDocument();
  });

  it('asks again each time Settings opens: an answer since the last look is counted', async () => {
    let counted = ownTotals.slice(0, 1);
    const requests = serveUsage({
      own: () => json({ from: '2026-03-04', to: '2026-03-10', totals: counted }),
    });
    const { section, reopen } = openSettings(false);
    const table = await within(section).findByRole('table', { name: /^Your usage/ });
    expect(cells(table).at(-1)).toEqual(['Total', '12,345', '678', '0', '3', '1']);

    counted = ownTotals;
    const again = reopen();
    await waitFor(() =>
      expect(cells(within(again).getByRole('table')).at(-1)).toEqual([
        'Total',
        '13,345',
        '3,678',
        '512',
        '4',
        '1',
      ]),
    );
    expect(requests).toHaveLength(2);
  });

  it('says so when there is no usage in the days chosen', async () => {
    serveUsage({ own: () => json({ from: '2026-03-04', to: '2026-03-10', totals: [] }) });
    const { section } = openSettings(false);
    expect(await within(section).findByText('No usage in these days.')).toBeInTheDocument();
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it.each([
    [
      'the server’s own words',
      () => json({ error: 'At most 366 days at once: 2025-01-01 to 2026-03-10 is 434.' }, 400),
      'Usage could not be loaded: At most 366 days at once: 2025-01-01 to 2026-03-10 is 434.',
      1,
    ],
    [
      'that the session ended',
      () => json({ error: 'Sign in first.' }, 401),
      'You are signed out: sign in again to see usage.',
      1,
    ],
    [
      'that the answer was not usage',
      () => json({ totals: [{ day: 'yesterday', model: 'sim-echo' }] }),
      'Usage could not be loaded: the server’s answer was not what it should be.',
      1,
    ],
    [
      'the status of a page that is not JSON',
      () => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
      'Usage could not be loaded: HTTP 502',
      // A server that could not answer is asked again twice before the page says so.
      3,
    ],
  ])(
    'says %s when usage could not be had, and tries again on Retry',
    async (_what, failure, words, asked) => {
      let failing = true;
      const requests = serveUsage({
        own: () => (failing ? failure() : json({ from: '2026-03-04', to: '2026-03-10', totals: ownTotals })),
      });
      const { user, section } = openSettings(false);
      expect(await within(section).findByRole('alert')).toHaveTextContent(words);
      expect(requests).toHaveLength(asked);
      expect(within(section).queryByRole('table')).toBeNull();

      failing = false;
      await user.click(within(section).getByRole('button', { name: 'Retry' }));
      expect(await within(section).findByRole('table', { name: /^Your usage/ })).toBeInTheDocument();
      expect(within(section).queryByRole('alert')).toBeNull();
    },
  );

  it('is not there in single-person mode, and asks the server nothing', () => {
    const requests = serveUsage({
      own: () => json({ from: '2026-03-04', to: '2026-03-10', totals: ownTotals }),
    });
    createTestApp().render(<SettingsDialog onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Usage' })).toBeNull();
    expect(requests).toEqual([]);
  });
});
