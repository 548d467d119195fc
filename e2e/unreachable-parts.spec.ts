import { expect, type Page, test } from '@playwright/test';
import { artifactsDir, openApp, violations } from './helpers.ts';

// What the first screen does not show is fetched when first used. When that fetch fails (offline, or a
// newer version was put online and the old chunks are gone), the person is told, and nothing is lost.

/** Makes every request for a chunk whose file name starts with `name` fail, as offline. */
async function unreachable(page: Page, name: string): Promise<void> {
  await page.route(new RegExp(`/assets/${name}-[^/]+\\.js$`), (route) => route.abort('internetdisconnected'));
}

const message = /This part of the app could not be loaded/;

test('Settings that cannot be fetched: a dialog says so, the draft and the page stay', async ({ page }) => {
  await unreachable(page, 'SettingsDialog');
  await openApp(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('A message I am still writing');
  await page.getByRole('button', { name: 'Settings' }).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText(message);
  await expect(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/unreachable-settings.png` });
  await alert.getByRole('button', { name: 'Close' }).click();
  await expect(alert).toHaveCount(0);
  await expect(box).toHaveValue('A message I am still writing');

  // Once the connection is back, Reload brings the part, and the draft comes back with the page.
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('A message I am still writing');
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
});

test('a search that cannot be fetched says so in the sidebar and keeps the list', async ({ page }) => {
  await unreachable(page, 'conversationSearch');
  await openApp(page);
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('anything');
  await expect(page.getByRole('status').filter({ hasText: 'Search could not be loaded' })).toBeVisible();
});
