import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  inContext,
  openApp,
  type ProtocolKey,
  protocolLabels,
  requestsContaining,
  turns,
  uniqueText,
  violations,
} from './helpers.ts';

const region = (page: Page) => page.getByRole('region', { name: 'Compare' });
const column = (page: Page, n: number) => region(page).getByRole('group', { name: `Column ${n}` });
/** A column's answer once it ended (its own banners, figures and buttons are inside the column). */
const answerIn = (col: Locator) => col.getByTestId('assistant-turn');

/** Opens Compare with `models` as its columns, one per column, as a person sets them. */
async function compare(page: Page, models: [ProtocolKey, string][]): Promise<void> {
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(region(page)).toBeVisible();
  for (const [i, [protocol, model]] of models.entries()) {
    if (i >= 2) await region(page).getByRole('button', { name: 'Add column' }).click();
    const col = column(page, i + 1);
    await col.getByRole('combobox', { name: 'Protocol' }).selectOption({ label: protocolLabels[protocol] });
    await col.getByRole('combobox', { name: 'Model' }).selectOption(model);
  }
}

async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

const ended = (col: Locator, timeout = 30_000) =>
  expect(answerIn(col)).toHaveAttribute('aria-busy', 'false', { timeout });

test('three protocols side by side: one request each, each answer streams with its figures; one kept as the answer', async ({
  page,
}) => {
  // sim-long streams a few thousand tokens: on a loaded machine that takes a minute or more.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  await compare(page, [
    ['chat', 'sim-echo'],
    ['responses', 'sim-echo'],
    ['messages', 'sim-long'],
  ]);
  await expect(region(page).getByRole('group')).toHaveCount(3);
  const text = uniqueText('Compare these');
  await ask(page, text);

  // The long one is still streaming beside the others.
  const third = column(page, 3);
  await expect(answerIn(third)).toHaveAttribute('aria-busy', 'true');
  await expect(answerIn(third).getByTestId('turn-text')).toContainText(/\w+/);
  await page.screenshot({ path: `${artifactsDir}/compare-streaming.png` });

  for (const n of [1, 2, 3]) {
    const col = column(page, n);
    await ended(col, 150_000);
    await expect(answerIn(col).getByTestId('turn-text')).toContainText(/\w+/);
    await expect(col.getByTestId('figure-time-to-first-token')).toHaveText(/^\d+ ms$|s$/);
    await expect(col.getByTestId('figure-output-rate')).toHaveText(/tok\/s/);
    await expect(col.getByTestId('figure-longest-silence')).toBeVisible();
    await expect(col.getByTestId('figure-cost')).toHaveText(/\$0\.\d+/);
    await expect(answerIn(col).getByTestId('turn-usage')).toHaveText(/[1-9][\d,]* in/);
    await expect(answerIn(col).getByTestId('turn-cost')).toBeVisible();
  }
  // Exactly one request per column, each in its own protocol and model.
  const sent = await requestsContaining(page, text);
  expect(sent.map((r) => r.path).sort()).toEqual(['/v1/chat/completions', '/v1/messages', '/v1/responses']);
  expect(await violations(page, '.compare')).toEqual([]);

  // Until another is kept, the first column's answer is the conversation's.
  await expect(column(page, 1)).toContainText("The conversation's answer");
  await column(page, 2).getByRole('button', { name: 'Keep this answer' }).click();
  await expect(region(page)).toHaveCount(0);
  await expect(turns(page)).toHaveCount(1);
  const kept = turns(page).first();
  await expect(kept).toHaveAccessibleName('Answer from sim-echo via Responses');
  await expect(kept.getByText('Version 2 of 3')).toBeAttached();
  // The conversation goes on with the kept column's protocol.
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('responses');

  // Every column's answer stays: in Compare, each in its column, and in the conversation, as versions.
  const compareButton = page.getByRole('button', { name: 'Compare', exact: true });
  await compareButton.click();
  await expect(column(page, 2)).toContainText("The conversation's answer");
  for (const n of [1, 3]) {
    await expect(answerIn(column(page, n)).getByTestId('turn-text')).toContainText(/\w+/);
    await expect(column(page, n).getByRole('button', { name: 'Keep this answer' })).toBeEnabled();
  }
  await compareButton.click();
  await turns(page).first().getByRole('button', { name: 'Previous version' }).click();
  await expect(turns(page).first()).toHaveAccessibleName('Answer from sim-echo via Chat Completions');
  await turns(page).first().getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('figure-time-to-first-token').first()).toBeVisible();
});

test('a fault in one column shows only there, and its own Retry works', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel(/Retry automatically/).uncheck();
  await page.getByRole('button', { name: 'Close' }).click();
  await compare(page, [
    ['chat', 'sim-echo'],
    ['responses', 'sim-flaky'],
    ['messages', 'sim-rate-limit'],
  ]);
  const text = uniqueText('Faults apart');
  await ask(page, text);
  for (const n of [1, 2, 3]) await ended(column(page, n));

  await expect(answerIn(column(page, 1)).getByRole('alert')).toHaveCount(0);
  await expect(answerIn(column(page, 3)).getByRole('alert')).toContainText('Rate limit');
  const flaky = answerIn(column(page, 2));
  await expect(flaky.getByRole('alert')).toBeVisible();
  await flaky.getByRole('button', { name: 'Retry' }).click();
  await expect(flaky).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(flaky.getByRole('alert')).toHaveCount(0);
  await expect(flaky).toContainText(/attempt 1 of 2: (failed|incomplete) after \d+/);
  // The retry went to that column's model alone.
  const sent = await requestsContaining(page, text);
  const byModel = (model: string) => sent.filter((r) => (r.body as { model: string }).model === model);
  expect(byModel('sim-flaky')).toHaveLength(2);
  expect(byModel('sim-echo')).toHaveLength(1);
  expect(byModel('sim-rate-limit')).toHaveLength(1);
  await expect(answerIn(column(page, 3)).getByRole('alert')).toContainText('Rate limit');
});

test('at phone width the columns scroll sideways and the message box stays in view (dark)', async ({
  browser,
}) => {
  await inContext(browser, { colorScheme: 'dark', viewport: { width: 390, height: 780 } }, async (page) => {
    await openApp(page);
    await compare(page, [
      ['chat', 'sim-echo'],
      ['messages', 'sim-echo'],
    ]);
    await ask(page, uniqueText('On a phone'));
    await ended(column(page, 1));
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect(box).toBeInViewport();
    // Column 2 is beside column 1, reached by scrolling the row sideways.
    const row = region(page).locator('.compare-columns');
    expect(await row.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await column(page, 2).scrollIntoViewIfNeeded();
    await expect(column(page, 2)).toBeInViewport({ ratio: 0.8 });
    await ended(column(page, 2));
    await expect(box).toBeInViewport();
    // Nothing wider than the screen but the row that scrolls.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${artifactsDir}/compare-phone-dark.png` });
    expect(await violations(page, '.compare')).toEqual([]);
  });
});

test('in Spanish: Comparar, Columna 1, Añadir columna', async ({ browser }) => {
  await inContext(browser, { locale: 'es-ES', viewport: { width: 1280, height: 800 } }, async (page) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Comparar', exact: true }).click();
    const es = page.getByRole('region', { name: 'Comparar' });
    await expect(es.getByRole('group', { name: 'Columna 1' })).toBeVisible();
    await es.getByRole('button', { name: 'Añadir columna' }).click();
    await expect(es.getByRole('group', { name: 'Columna 3' })).toBeVisible();
    const box = page.getByRole('textbox', { name: 'Mensaje' });
    await box.fill(uniqueText('Hola'));
    await box.press('Enter');
    for (const n of [1, 2, 3])
      await expect(
        es.getByRole('group', { name: `Columna ${n}` }).getByTestId('assistant-turn'),
      ).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    await page.screenshot({ path: `${artifactsDir}/compare-es.png` });
  });
});
