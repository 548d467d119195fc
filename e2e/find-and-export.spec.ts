import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  inContext,
  openApp,
  send,
  storedKeys,
  storeRecord,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
const results = (page: Page) => page.getByRole('list', { name: 'Search results' });
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });

/** Two answered conversations (sim-echo): one about a café crème, then one about pineapples (active). */
async function twoConversations(page: Page, openDrawer: () => Promise<void> = async () => {}) {
  await choose(page, 'chat', 'sim-echo');
  const cafe = uniqueText('Un café crème');
  await waitForAnswer(await send(page, cafe));
  await openDrawer();
  await sidebar(page).getByRole('button', { name: 'New chat' }).click();
  const pineapple = uniqueText('Pineapples ripen');
  await waitForAnswer(await send(page, pineapple));
  return { cafe, pineapple };
}

/** Nothing in the sidebar sticks out sideways, and the search box is inside it and on screen. */
async function expectSidebarIntact(page: Page) {
  const nav = await sidebar(page).boundingBox();
  const box = await searchBox(page).boundingBox();
  const viewport = page.viewportSize()!;
  expect(nav && box).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(nav!.x);
  expect(box!.x + box!.width).toBeLessThanOrEqual(nav!.x + nav!.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
  const overflow = await sidebar(page).evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Clicks `name` and returns the downloaded file's name and text. */
async function download(page: Page, name: string): Promise<{ file: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  return { file: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
}

test('search finds a conversation by words of its answer, highlighted; the shortcut focuses the box', async ({
  browser,
}) => {
  await inContext(browser, { viewport: { width: 1280, height: 800 } }, async (page) => {
    await openApp(page);
    const { cafe, pineapple } = await twoConversations(page);

    // Ctrl+K from the message box, where the focus is after sending.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await page.keyboard.press('Control+k');
    await expect(searchBox(page)).toBeFocused();
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Search (Ctrl+K or /)');

    // Words only the answers hold (sim-echo's template): both conversations, the words highlighted.
    await searchBox(page).fill('STRUCTURED reply');
    await expect(results(page).getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('status').filter({ hasText: '2 conversations match.' })).toBeVisible();
    const first = results(page).getByRole('listitem').first();
    await expect(first.locator('.conversation-title')).toHaveText(pineapple);
    await expect(first.locator('.search-snippet')).toContainText('Answer:');
    await expect(first.locator('mark')).toHaveText(['structured reply']);

    // Accent- and case-insensitive: "CAFE CREME" finds "café crème", in the title and the message.
    await searchBox(page).fill('CAFE CREME');
    await expect(results(page).getByRole('listitem')).toHaveCount(1);
    const match = results(page).getByRole('listitem');
    await expect(match.locator('.conversation-title')).toHaveText(cafe);
    await expect(match.locator('.conversation-title mark')).toHaveText(['café crème']);
    await expectSidebarIntact(page);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/find-desktop-light.png` });

    // Opening a result switches to it; Escape clears the box and the normal list comes back.
    await match.getByRole('button').click();
    await expect(page.getByTestId('user-message')).toHaveText([cafe]);
    await searchBox(page).press('Escape');
    await expect(searchBox(page)).toHaveValue('');
    await expect(results(page)).toBeHidden();
    await expect(sidebar(page).getByRole('list').getByRole('listitem')).toHaveCount(2);

    // "/" types a slash in the message box, and focuses the search from anywhere else.
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('a');
    await message.press('/');
    await expect(message).toHaveValue('a/');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await expect(searchBox(page)).toBeFocused();
  });
});

test('export downloads the conversation as Markdown and as JSON, without the API key', async ({
  browser,
}) => {
  await inContext(
    browser,
    { viewport: { width: 1280, height: 800 }, acceptDownloads: true },
    async (page) => {
      await openApp(page);
      const key = 'sk-e2e-find-and-export-0123456789';
      await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByRole('textbox', { name: 'API key' }).fill(key);
      await settings.getByRole('button', { name: 'Close' }).click();
      await choose(page, 'responses', 'sim-echo');
      const question = uniqueText('Export this café chat');
      await waitForAnswer(await send(page, question));

      const toggle = sidebar(page).getByRole('button', { name: `Export ${question}`, exact: true });
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      expect(await violations(page)).toEqual([]);

      const markdown = await download(page, `Export ${question} as Markdown`);
      expect(markdown.file).toMatch(/^hopbase-export-this-café-chat-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.md$/);
      expect(markdown.text).toMatch(new RegExp(`^# ${question}\\n`));
      expect(markdown.text).toMatch(/## You · \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n\nExport this café chat/);
      expect(markdown.text).toMatch(/## Answer · sim-echo · Responses · \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(markdown.text).toContain('Here is a short, structured reply');
      expect(markdown.text).toMatch(/_Usage: \d+ in · \d+ out · \d+ total_/);
      expect(markdown.text).not.toContain(key);

      const json = await download(page, `Export ${question} as JSON`);
      expect(json.file).toMatch(/^hopbase-export-this-café-chat-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.json$/);
      expect(json.text).not.toContain(key);
      const document = JSON.parse(json.text);
      expect(document).toMatchObject({ format: 'hopbase-chat-conversation', version: 1 });
      expect(document.conversation.title).toBe(question);
      expect(document.conversation.messages.map((m: { role: string }) => m.role)).toEqual([
        'user',
        'assistant',
      ]);
      const attempt = document.conversation.messages[1].attempts[0];
      expect(attempt.turn.text).toContain('structured reply');
      expect(attempt.turn.status).toBe('complete');
      await page.screenshot({ path: `${artifactsDir}/export-desktop-light.png` });
    },
  );
});

/** The answer's first attempt in an exported conversation file. */
function exportedAttempt(json: string): { trace: { items: unknown[]; raw: string; bytes: number } } {
  return JSON.parse(json).conversation.messages[1].attempts[0];
}

/** A question answered (sim-echo) and stored with its recording; returns the question. */
async function answeredAndStored(page: Page, prefix: string): Promise<string> {
  await choose(page, 'chat', 'sim-echo');
  const question = uniqueText(prefix);
  await waitForAnswer(await send(page, question));
  await expect.poll(async () => (await storedKeys(page, 'trace:'))?.length).toBe(1);
  return question;
}

/** A reload: the conversation comes back without its recording, which stays in the database only. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(turns(page).last().getByTestId('turn-text')).not.toBeEmpty();
}

test('after a reload, the JSON export reads the recording from storage without the inspector', async ({
  browser,
}) => {
  await inContext(
    browser,
    { viewport: { width: 1280, height: 800 }, acceptDownloads: true },
    async (page) => {
      await openApp(page);
      const question = await answeredAndStored(page, 'Exported after a reload');
      await reload(page);
      await sidebar(page)
        .getByRole('button', { name: `Export ${question}`, exact: true })
        .click();
      const { trace } = exportedAttempt((await download(page, `Export ${question} as JSON`)).text);
      expect(trace.items.length).toBeGreaterThan(0);
      // The whole stream as received, every byte of it.
      expect(Buffer.byteLength(trace.raw)).toBe(trace.bytes);
      await expect(sidebar(page).getByText(/could not be read/)).toHaveCount(0);
    },
  );
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`phone (${colorScheme}): a recording that cannot be read is named, and the JSON file still comes`, async ({
    browser,
  }) => {
    await inContext(
      browser,
      { viewport: { width: 390, height: 844 }, colorScheme, acceptDownloads: true },
      async (page) => {
        await openApp(page);
        const question = await answeredAndStored(page, 'Damaged recording');
        // The stored recording replaced with a record of the wrong shape, as a damaged database could hold.
        const [key] = (await storedKeys(page, 'trace:')) ?? [];
        await storeRecord(page, key!, { items: 'damaged', raw: '' });
        await reload(page);

        await page.getByRole('button', { name: 'Conversations' }).click();
        await sidebar(page)
          .getByRole('button', { name: `Export ${question}`, exact: true })
          .click();
        const { trace } = exportedAttempt((await download(page, `Export ${question} as JSON`)).text);
        expect(trace.items).toEqual([]);
        expect(trace.bytes).toBeGreaterThan(0);
        await expect(sidebar(page).getByRole('status').filter({ hasText: 'recording' })).toHaveText(
          '1 recording could not be read; the file has the rest.',
        );
        await expectSidebarIntact(page);
        expect(await violations(page)).toEqual([]);
        await page.screenshot({
          path: `${artifactsDir}/export-recording-unreadable-phone-${colorScheme}.png`,
        });
      },
    );
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`phone (${colorScheme}): the shortcut opens the drawer on the search; results and export stay usable`, async ({
    browser,
  }) => {
    await inContext(browser, { viewport: { width: 390, height: 844 }, colorScheme }, async (page) => {
      await openApp(page);
      const drawer = page.getByRole('button', { name: 'Conversations' });
      const { cafe } = await twoConversations(page, () => drawer.click());
      // The closed drawer: off screen and inert.
      await expect(sidebar(page)).toHaveAttribute('inert', '');
      await expect(sidebar(page)).not.toBeInViewport();

      await page.keyboard.press('Control+k');
      await expect(searchBox(page)).toBeFocused();
      await expect(sidebar(page)).not.toHaveAttribute('inert');
      await expect(sidebar(page)).toBeInViewport({ ratio: 1 });
      await searchBox(page).fill('structured');
      await expect(results(page).getByRole('listitem')).toHaveCount(2);
      await expect(results(page).locator('mark').first()).toHaveText('structured');
      await expectSidebarIntact(page);
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: `${artifactsDir}/find-phone-${colorScheme}.png` });

      // Choosing a result closes the drawer on it.
      await results(page)
        .getByRole('button', { name: new RegExp(`^${cafe}`) })
        .click();
      await expect(sidebar(page)).toHaveAttribute('inert', '');
      await expect(page.getByTestId('user-message')).toHaveText([cafe]);

      // Export from the active row, in the drawer.
      await drawer.click();
      await searchBox(page).press('Escape');
      const toggle = sidebar(page).getByRole('button', { name: `Export ${cafe}`, exact: true });
      await toggle.click();
      await expect(sidebar(page).getByRole('button', { name: `Export ${cafe} as JSON` })).toBeVisible();
      await expectSidebarIntact(page);
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: `${artifactsDir}/export-phone-${colorScheme}.png` });
    });
  });
}

test('desktop, dark: search results and the export choices pass axe', async ({ browser }) => {
  await inContext(browser, { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' }, async (page) => {
    await openApp(page);
    const { pineapple } = await twoConversations(page);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('structured reply');
    await expect(results(page).getByRole('listitem')).toHaveCount(2);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/find-desktop-dark.png` });

    await searchBox(page).press('Escape');
    await sidebar(page)
      .getByRole('button', { name: `Export ${pineapple}`, exact: true })
      .click();
    await expect(
      sidebar(page).getByRole('button', { name: `Export ${pineapple} as Markdown` }),
    ).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/export-desktop-dark.png` });
  });
});
