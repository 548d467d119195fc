import { expect, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  fontsNotWarmed,
  openApp,
  send,
  turns,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

// A reload paints the last screen before any of the app's code has run (src/app/firstScreen): a picture
// of the app as it was left, which the app replaces once it is there. Nothing typed on it is lost.

/** Holds back the app's entry script until the returned function is called. */
async function holdAppScript(page: Page): Promise<() => void> {
  const entry = await page.evaluate(
    () => document.querySelector('script[type="module"]')!.getAttribute('src')!,
  );
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${entry}`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('the first screen shows its text only in the fonts made ready while the page waited', async ({
  page,
}) => {
  // A new device: the welcome, an empty sidebar, the composer.
  await openApp(page);
  expect(await fontsNotWarmed(page)).toEqual([]);
  // A new chat beside one conversation: the sidebar's rows too.
  await choose(page, 'chat', 'sim-echo');
  await waitForAnswer(await send(page, uniqueText('A row in the sidebar')));
  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await fontsNotWarmed(page)).toEqual([]);
});

test('a reload shows the last screen at once, takes what is typed on it, and hands over to the app', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const text = uniqueText('Shown before the code');
  await waitForAnswer(await send(page, text));
  await expect(turns(page)).toHaveCount(1);

  const release = await holdAppScript(page);
  await page.reload({ waitUntil: 'commit' });
  // The picture: the conversation as it was, not the app (inert, hidden from assistive technology).
  const picture = page.locator('#root > .first-screen');
  await expect(picture).toBeVisible();
  await expect(picture).toContainText(text);
  await expect(picture).toHaveAttribute('inert', '');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await page.screenshot({ path: `${artifactsDir}/first-screen-snapshot.png` });
  await page.keyboard.type('Typed before the app');

  release();
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toHaveValue('Typed before the app');
  await expect(box).toBeFocused();
  await expect(picture).toHaveCount(0);
  await page.keyboard.type(', and after');
  await expect(box).toHaveValue('Typed before the app, and after');
  await expect(turns(page)).toHaveCount(1);
  await expect(turns(page).first()).toContainText(text);
  expect(await page.evaluate(() => performance.getEntriesByName('hopbase:snapshot-shown').length)).toBe(1);
});

test('the picture is of its own address only, and none is left of a deleted conversation', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const text = uniqueText('Deleted with its picture');
  await waitForAnswer(await send(page, text));
  const address = new URL(page.url()).pathname;
  expect(address).toMatch(/^\/c\//);

  // Left on the way out, shown at the same address...
  await page.reload();
  await expect(turns(page)).toHaveCount(1);
  expect(await page.evaluate(() => performance.getEntriesByName('hopbase:snapshot-shown').length)).toBe(1);
  // ...not at another.
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  expect(await page.evaluate(() => performance.getEntriesByName('hopbase:snapshot-shown').length)).toBe(0);

  // Deleted, the conversation leaves nothing of itself in the browser's localStorage.
  await page.goto(address);
  await expect(turns(page)).toHaveCount(1);
  // Hidden (another tab in front): the picture is left now, not only on the way out.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  expect(await page.evaluate(() => Object.values(localStorage).join('\n'))).toContain(text);
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('button', { name: `Delete ${text}`, exact: true })
    .click();
  await expect(page.getByRole('navigation', { name: 'Conversations' })).not.toContainText(text.slice(0, 20));
  expect(await page.evaluate(() => Object.values(localStorage).join('\n'))).not.toContain(text);
});

test('a screen a reload would not bring back (the inspector open, a message being edited) leaves no picture', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const turn = await waitForAnswer(await send(page, uniqueText('Inspected')));
  const shownOnReload = async () => {
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    return page.evaluate(() => performance.getEntriesByName('hopbase:snapshot-shown').length);
  };

  await turn.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByRole('complementary', { name: 'Inspector' })).toBeVisible();
  expect(await shownOnReload()).toBe(0);
  // At rest again, the next reload has one.
  expect(await shownOnReload()).toBe(1);

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('form', { name: 'Edit message' })).toBeVisible();
  expect(await shownOnReload()).toBe(0);
});

test('a picture with formulas paints them with the stylesheet they were drawn with', async ({ page }) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const turn = await waitForAnswer(await send(page, uniqueText('Show me a formula')));
  await expect(turn.locator('.katex')).toHaveCount(5);

  const release = await holdAppScript(page);
  await page.reload({ waitUntil: 'commit' });
  const picture = page.locator('#root > .first-screen');
  await expect(picture.locator('.katex-display').last()).toBeVisible();
  // KaTeX's stylesheet (fetched with its chunk, long after the first screen's) is there before the
  // picture paints: the MathML for screen readers is clipped away, not shown beside the drawn formula.
  await expect
    .poll(() =>
      picture
        .locator('.katex-mathml')
        .first()
        .evaluate((mathml) => getComputedStyle(mathml).position),
    )
    .toBe('absolute');
  await page.screenshot({ path: `${artifactsDir}/first-screen-formulas.png` });
  release();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(turns(page).last().locator('.katex')).toHaveCount(5);
  // The app's loading of KaTeX found its stylesheet there: one link, not two.
  await expect(page.locator('link[rel="stylesheet"][href*="mathRenderer"]')).toHaveCount(1);
});
