import { expect, type Page, test } from '@playwright/test';
import { choose, conversationWith, openApp, uniqueText } from './helpers.ts';

const userMessages = (page: Page) => page.getByTestId('user-message');
const conversationPath = /^\/c\/conv_[0-9a-f]{16}$/;
const path = (page: Page) => new URL(page.url()).pathname;

test('each conversation has its own address: a reload stays on it, a link opens it, Back returns', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const first = uniqueText('First address');
  await conversationWith(page, first);
  await expect.poll(() => path(page)).toMatch(conversationPath);
  const firstPath = path(page);
  const second = uniqueText('Second address');
  await conversationWith(page, second);
  await expect.poll(() => path(page)).not.toBe(firstPath);
  const secondPath = path(page);

  // Back shows the first again, Forward the second.
  await page.goBack();
  await expect(userMessages(page)).toHaveText([first]);
  expect(path(page)).toBe(firstPath);
  await page.goForward();
  await expect(userMessages(page)).toHaveText([second]);

  // A reload stays where it is, even on the one shown before.
  await page.goBack();
  await expect(userMessages(page)).toHaveText([first]);
  await page.reload();
  await expect(userMessages(page)).toHaveText([first]);
  expect(path(page)).toBe(firstPath);

  // A link opens its conversation, in this tab or a new one.
  const other = await page.context().newPage();
  await other.goto(secondPath);
  await expect(userMessages(other)).toHaveText([second]);
  await other.close();
});

test('an address that names no conversation of this person says so, and shows nothing of another', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const mine = uniqueText('Mine only');
  await conversationWith(page, mine);

  await page.goto('/c/conv_00000000deadbeef');
  await expect(
    page.getByRole('status').filter({ hasText: 'No conversation of yours has this address' }),
  ).toBeVisible();
  await expect(userMessages(page)).toHaveCount(0);
  expect(path(page)).toBe('/c/conv_00000000deadbeef');

  // Writing here starts a new conversation, at its own address.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(uniqueText('A new start'));
  await box.press('Enter');
  await expect.poll(() => path(page)).toMatch(conversationPath);
  await expect(page.getByRole('status').filter({ hasText: 'No conversation of yours' })).toHaveCount(0);
});
