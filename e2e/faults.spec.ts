import { expect, test } from '@playwright/test';
import {
  activeRequestsContaining,
  artifactsDir,
  choose,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  setSettings,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

// The simulator runs with fast timings here (playwright.config.ts): keepalive 400 ms, stall 8 s, Retry-After 5 s.
const retryAfterMs = 5000;
const fastThresholds = {
  'Stall warning after (seconds without output)': '2',
  'Dead connection after (seconds without any byte)': '4',
};

for (const protocol of protocolKeys) {
  test.describe(protocolLabels[protocol], () => {
    test('sim-stall: a live stall banner, then the interruption banner', async ({ page }) => {
      await openApp(page);
      await setSettings(page, fastThresholds);
      await choose(page, protocol, 'sim-stall');
      const turn = await send(page, uniqueText('Think hard'));

      const stall = turn.getByRole('status').filter({ hasText: 'produced nothing' });
      await expect(stall).toBeVisible();
      await expect(stall).toContainText('connection is alive');
      await expect(stall).toContainText(/last keepalive \d+ s ago/);
      const first = Number((await stall.innerText()).match(/nothing for (\d+) s/)?.[1]);
      await expect
        .poll(async () => Number((await stall.innerText()).match(/nothing for (\d+) s/)?.[1]), {
          timeout: 5000,
        })
        .toBeGreaterThan(first);
      if (protocol === 'responses') await page.screenshot({ path: `${artifactsDir}/stall.png` });

      const alert = turn.getByRole('alert');
      await expect(alert).toBeVisible({ timeout: 15_000 });
      await expect(stall).toHaveCount(0);
      await expect(turn.getByTestId('turn-text')).not.toBeEmpty();
      await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
    });

    test('sim-interrupt: the interruption banner keeps the partial text', async ({ page }) => {
      await openApp(page);
      await choose(page, protocol, 'sim-interrupt');
      const turn = await waitForAnswer(await send(page, uniqueText('Tell me a story')));
      const alert = turn.getByRole('alert');
      await expect(alert).toBeVisible();
      if (protocol === 'messages')
        await expect(alert).toContainText('Response stream interrupted, please retry');
      await expect(turn.getByTestId('turn-text')).toContainText(/\w+/);
      await expect(turn).toContainText('incomplete');
      if (protocol === 'messages') await page.screenshot({ path: `${artifactsDir}/interrupted.png` });
    });

    test('sim-drop: a cut connection is explained and the partial text kept', async ({ page }) => {
      await openApp(page);
      await choose(page, protocol, 'sim-drop');
      const turn = await waitForAnswer(await send(page, uniqueText('Tell me a story')));
      await expect(turn.getByRole('alert')).toContainText('connection closed early');
      await expect(turn.getByTestId('turn-text')).toContainText(/\w+/);
    });

    test('sim-rate-limit: a countdown, then Retry', async ({ page }) => {
      await openApp(page);
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByLabel(/Retry automatically/).uncheck();
      await page.getByRole('button', { name: 'Close' }).click();
      await choose(page, protocol, 'sim-rate-limit');
      const turn = await waitForAnswer(await send(page, uniqueText('Hello')));
      const alert = turn.getByRole('alert');
      await expect(alert).toContainText('Rate limit');
      // Retry-After is 5 s: the countdown is on screen for seconds, not a moment.
      await expect(alert.getByRole('timer')).toContainText(/retry in [1-5] s/);
      await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible({
        timeout: retryAfterMs + 5000,
      });
    });

    test('sim-flaky: one click on Retry gets the full answer with the identical request', async ({
      page,
    }) => {
      await openApp(page);
      await choose(page, protocol, 'sim-flaky');
      const text = uniqueText('Flaky question');
      const turn = await waitForAnswer(await send(page, text));
      await expect(turn.getByRole('alert')).toBeVisible();
      await turn.getByRole('button', { name: 'Retry' }).click();
      await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
      await expect(turn.getByRole('alert')).toHaveCount(0);
      await expect(turn.getByRole('table')).toBeVisible();
      await expect(turn).toContainText(/attempt 1 of 2: (failed|incomplete) after \d+/);
      await expect(turn.getByTestId('turn-usage')).toHaveText(/[1-9][\d,]* in/);

      const requests = await requestsContaining(page, text);
      expect(requests).toHaveLength(2);
      // Byte for byte: the simulator hashes each body as received.
      expect(requests[0]?.rawSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(requests[1]?.rawSha256).toBe(requests[0]?.rawSha256);
    });
  });
}

test('automatic retries before any output are visible and end in the countdown', async ({ page }) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-rate-limit');
  const text = uniqueText('Auto retry');
  const turn = await send(page, text);
  await expect(turn.getByTestId('auto-retry-banner')).toContainText(
    /Retrying automatically in \d+ s \(attempt 2 of 3\)/,
  );
  // Each automatic retry waits out the 5 s Retry-After.
  await expect(turn.getByTestId('auto-retry-banner')).toContainText('attempt 3 of 3', {
    timeout: retryAfterMs + 5000,
  });
  await waitForAnswer(turn);
  await expect(turn.getByRole('alert')).toContainText('Rate limit');
  expect(await requestsContaining(page, text)).toHaveLength(3);
});

test('Retry in the stall banner starts a second attempt and stops the first', async ({ page }) => {
  await openApp(page);
  await setSettings(page, fastThresholds);
  await choose(page, 'responses', 'sim-stall');
  const text = uniqueText('Stall then retry');
  const turn = await send(page, text);
  const stall = turn.getByRole('status').filter({ hasText: 'produced nothing' });
  await expect(stall).toBeVisible();
  const [first] = await requestsContaining(page, text);
  expect(await activeRequestsContaining(page, text)).toEqual([first?.id]);

  await stall.getByRole('button', { name: 'Retry' }).click();
  await expect(turn).toContainText('Attempt 2 of 2');
  await expect(turn).toContainText(/attempt 1 of 2: stopped/);
  await expect(turn).toHaveAttribute('aria-busy', 'true');
  const requests = await requestsContaining(page, text);
  expect(requests).toHaveLength(2);
  expect(requests[1]?.rawSha256).toBe(requests[0]?.rawSha256);
  // The first stream was closed on the simulator's side too: only the retry is generating. (Left alone,
  // the first would run on until its 8 s stall ends, so a short wait tells the two apart.)
  await expect.poll(() => activeRequestsContaining(page, text), { timeout: 3000 }).toEqual([requests[1]?.id]);

  await page.getByRole('button', { name: 'Stop', exact: true }).first().click();
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => activeRequestsContaining(page, text)).toEqual([]);
});

test('deleting a conversation while it streams stops its generation', async ({ page }) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-long');
  const text = uniqueText('Gone while streaming');
  const turn = await send(page, text);
  await expect(turn.getByTestId('turn-text')).toContainText(/\w{3,}/);
  await expect.poll(() => activeRequestsContaining(page, text)).toHaveLength(1);

  const sidebar = page.getByRole('navigation', { name: 'Conversations' });
  await sidebar.getByRole('button', { name: /^Delete / }).click();
  await expect(turn).toHaveCount(0);
  await expect(sidebar.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  // sim-long streams for about 25 s here: only an abort ends it this soon.
  await expect.poll(() => activeRequestsContaining(page, text), { timeout: 5000 }).toEqual([]);
});
