import { expect, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  setSettings,
  turns,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

// The simulator runs with fast timings here (playwright.config.ts): keepalive 400 ms, stall 8 s.
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
      await send(page, uniqueText('Think hard'));
      const turn = turns(page).last();

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
      await send(page, uniqueText('Tell me a story'));
      const turn = await waitForAnswer(page);
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
      await send(page, uniqueText('Tell me a story'));
      const turn = await waitForAnswer(page);
      await expect(turn.getByRole('alert')).toContainText('connection closed early');
      await expect(turn.getByTestId('turn-text')).toContainText(/\w+/);
    });

    test('sim-rate-limit: a countdown, then Retry', async ({ page }) => {
      await openApp(page);
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByLabel(/Retry automatically/).uncheck();
      await page.getByRole('button', { name: 'Close' }).click();
      await choose(page, protocol, 'sim-rate-limit');
      await send(page, uniqueText('Hello'));
      const turn = await waitForAnswer(page);
      const alert = turn.getByRole('alert');
      await expect(alert).toContainText('Rate limit');
      await expect(alert.getByRole('timer')).toContainText(/retry in \d+ s/);
      await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible({ timeout: 8000 });
    });

    test('sim-flaky: one click on Retry gets the full answer with the identical request', async ({
      page,
    }) => {
      await openApp(page);
      await choose(page, protocol, 'sim-flaky');
      const text = uniqueText('Flaky question');
      await send(page, text);
      const turn = await waitForAnswer(page);
      await expect(turn.getByRole('alert')).toBeVisible();
      await turn.getByRole('button', { name: 'Retry' }).click();
      await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
      await expect(turn.getByRole('alert')).toHaveCount(0);
      await expect(turn.getByRole('table')).toBeVisible();
      await expect(turn).toContainText(/attempt 1 of 2: (failed|incomplete) after \d+/);
      await expect(turn.getByTestId('turn-usage')).toHaveText(/[1-9][\d,]* in/);

      const requests = await requestsContaining(page, text);
      expect(requests).toHaveLength(2);
      expect(JSON.stringify(requests[1]?.body)).toBe(JSON.stringify(requests[0]?.body));
    });
  });
}

test('automatic retries before any output are visible and end in the countdown', async ({ page }) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-rate-limit');
  const text = uniqueText('Auto retry');
  await send(page, text);
  const turn = turns(page).last();
  await expect(turn.getByTestId('auto-retry-banner')).toContainText(
    /Retrying automatically in \d+ s \(attempt 2 of 3\)/,
  );
  await expect(turn.getByTestId('auto-retry-banner')).toContainText('attempt 3 of 3', { timeout: 10_000 });
  await waitForAnswer(page);
  await expect(turn.getByRole('alert')).toContainText('Rate limit');
  expect(await requestsContaining(page, text)).toHaveLength(3);
});
