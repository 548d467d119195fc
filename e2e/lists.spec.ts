import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  newTurn,
  onDarkPhone,
  openApp,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

// The simulator answers a message with the word "steps" with lists (simulator/answer.ts): a numbered list
// with blank lines between its items, a nested list and code in them, then a task list.

async function stepsAnswer(page: Page): Promise<Locator> {
  await choose(page, 'chat', 'sim-echo');
  return waitForAnswer(await send(page, uniqueText('Show me the steps')));
}

/** A numbered list with blank lines between its items is one list of four steps, as a screen reader reads it. */
async function expectOneListOfSteps(turn: Locator): Promise<void> {
  const text = turn.getByTestId('turn-text');
  // The steps, the list nested in the first one, and the task list.
  await expect(text.getByRole('list')).toHaveCount(3);
  const steps = text.getByRole('list').filter({ hasText: 'Install' }).first();
  await expect(steps.locator(':scope > li')).toHaveText([/Install the tools/, /Configure/, /Run/, /Check/]);
  await expect(steps.getByRole('list')).toHaveText(['Node 20\nPostgreSQL']);
  await expect(steps.getByRole('code').or(steps.locator('pre code'))).toContainText('HOPBASE_URL');
  await expect(text.getByRole('checkbox')).toHaveCount(3);
}

test('a loose numbered list is one list, and passes axe in light mode', async ({ page }) => {
  await openApp(page);
  const turn = await stepsAnswer(page);
  await expectOneListOfSteps(turn);
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/lists-light.png` });
});

test('lists in dark mode on a phone: no page overflow, axe passes', async ({ browser }) => {
  await onDarkPhone(
    browser,
    async (page) => expectOneListOfSteps(await stepsAnswer(page)),
    'lists-dark-phone.png',
  );
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test("a task list's boxes are named in the page's language", async ({ page }) => {
    await page.goto('/');
    const box = page.getByRole('textbox', { name: 'メッセージ' });
    await expect(box).toBeVisible();
    await page.getByRole('combobox', { name: 'モデル' }).selectOption('sim-echo');
    const turn = await waitForAnswer(
      await newTurn(page, async () => {
        await box.fill(uniqueText('Show me the steps'));
        await box.press('Enter');
      }),
    );
    await expect(turn.getByTestId('turn-text').getByRole('checkbox', { name: 'タスク' })).toHaveCount(3);
    await page.screenshot({ path: `${artifactsDir}/lists-ja.png` });
  });
});
