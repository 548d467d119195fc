import { expect, test } from '@playwright/test';
import {
  choose,
  openApp,
  send,
  setParameters,
  setSettings,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

test('the empty app, an answer, the inspector, the settings and a tool call pass axe (WCAG 2.1 AA)', async ({
  page,
}) => {
  await openApp(page);
  expect(await violations(page)).toEqual([]);

  await choose(page, 'chat', 'sim-reasoning');
  const turn = await waitForAnswer(await send(page, uniqueText('Check my contrast')));
  await turn.getByRole('group').first().locator('summary').click(); // open the reasoning
  expect(await violations(page)).toEqual([]);

  await turn.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByRole('complementary', { name: 'Inspector' })).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await settings.getByRole('button', { name: 'Close' }).click();

  // A tool call waiting for its result, with the form to send it.
  await choose(page, 'responses', 'sim-tools');
  const call = await waitForAnswer(await send(page, uniqueText('Weather in Oslo?')));
  await expect(call.getByRole('button', { name: 'Send result' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('dark mode and a phone-sized screen pass axe too, with a note under a cut answer', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 780 } });
  const page = await context.newPage();
  await openApp(page);
  await choose(page, 'messages', 'sim-echo');
  await waitForAnswer(await send(page, uniqueText('Dark and small')));
  expect(await violations(page)).toEqual([]);

  await setParameters(page, { 'Max output tokens': '12' });
  const cut = await waitForAnswer(await send(page, uniqueText('Cut me short')));
  await expect(cut.getByRole('note')).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await context.close();
});

test('the stall and interruption banners pass axe, in light and dark', async ({ browser }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await openApp(page);
    await setSettings(page, { 'Stall warning after (seconds without output)': '2' });
    await choose(page, 'responses', 'sim-stall');
    const turn = await send(page, uniqueText('Wait for it'));
    await expect(turn.getByRole('status').filter({ hasText: 'produced nothing' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await expect(turn.getByRole('alert')).toBeVisible({ timeout: 15_000 });
    expect(await violations(page)).toEqual([]);
    await context.close();
  }
});
