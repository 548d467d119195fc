import { readFile, writeFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { png } from './files.ts';
import {
  artifactsDir,
  choose,
  conversationWith,
  openApp,
  send,
  storedAttempts,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const userMessages = (page: Page) => page.getByTestId('user-message');
/** The sidebar entry that opens the conversation titled by `text` (its first message). */
const conversationEntry = (page: Page, text: string) =>
  sidebar(page).getByRole('button', { name: new RegExp(`^${text.slice(0, 40)}`) });
const inspector = (page: Page) => page.getByRole('complementary', { name: 'Inspector' });

const photo = { name: 'photo.png', mimeType: 'image/png', buffer: png(48, [190, 18, 60], [254, 243, 199]) };
const questionVersions = (page: Page) => page.getByRole('group', { name: 'Versions of your message' });

/** The thumbnail of the photo in the shown message, its picture loaded from the database. */
async function expectPhoto(page: Page): Promise<void> {
  const image = userMessages(page).getByRole('img', { name: photo.name });
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(48);
}

/** Opens Settings and returns its "Back up and restore" section. */
async function backupSection(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const section = page
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('group', { name: 'Back up and restore' });
  await section.scrollIntoViewIfNeeded();
  return section;
}

/** Clicks `control` and returns the path of the file it downloads. */
async function downloaded(page: Page, control: Locator): Promise<{ name: string; path: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), control.click()]);
  return { name: download.suggestedFilename(), path: (await download.path())! };
}

/** Restore, through the file picker the button opens. */
async function restore(page: Page, section: Locator, file: string) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    section.getByRole('button', { name: 'Restore' }).click(),
  ]);
  await chooser.setFiles(file);
}

/** The inspector's Events figure and its `.sse` export of the newest answer on screen. */
async function recording(page: Page): Promise<{ events: string; sse: string }> {
  await turns(page).last().getByRole('button', { name: 'Inspect' }).click();
  await expect(inspector(page)).toBeVisible();
  const events = await inspector(page).getByTestId('figure-events').innerText();
  const file = await downloaded(page, inspector(page).getByRole('button', { name: 'Export', exact: true }));
  const sse = await readFile(file.path, 'utf8');
  await inspector(page).getByRole('button', { name: 'Close inspector' }).click();
  return { events, sse };
}

test('back up, clear the browser, restore: conversations, answers and a recording are back', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  // The first conversation has a photo attached, and a second version of its message.
  const draft = uniqueText('Backed up draft');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles(photo);
  await waitForAnswer(await send(page, draft));
  const first = uniqueText('Backed up first');
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const editBox = page.getByRole('form', { name: 'Edit message' });
  await editBox.getByRole('textbox', { name: 'Edit message' }).fill(first);
  await editBox.getByRole('button', { name: 'Send' }).click();
  await expect(questionVersions(page)).toContainText('Version 2 of 2');
  const firstAnswer =
    (await waitForAnswer(turns(page).first()).then((t) => t.getByTestId('turn-text').textContent())) ?? '';
  await expect
    .poll(async () => (await storedAttempts(page, first))?.map((a) => a.status))
    .toEqual(['complete']);
  await choose(page, 'messages', 'sim-echo');
  const second = uniqueText('Backed up second');
  const secondAnswer = await conversationWith(page, second);
  const recorded = await recording(page);
  expect(Number(recorded.events)).toBeGreaterThan(3);
  expect(recorded.sse).toContain('event: message_stop');

  // A setting, and an API key for this tab (kept in sessionStorage): the key never goes into a backup.
  const key = 'sk-e2e-backup-never-in-the-file';
  const settings = page.getByRole('dialog', { name: 'Settings' });
  let section = await backupSection(page);
  await settings.getByLabel('System prompt').fill('Answer in haiku');
  await settings.getByLabel('API key', { exact: true }).fill(key);
  await settings.getByLabel('API key', { exact: true }).press('Enter');
  const file = await downloaded(page, section.getByRole('button', { name: 'Back up' }));
  expect(file.name).toMatch(/^hopbase-chat-backup-\d{4}-\d\d-\d\d\.json$/);
  await expect(section.getByRole('status')).toHaveText(
    `Backed up 2 conversations, 3 recordings, 1 attachment and the settings (not the API key) to ${file.name}.`,
  );
  const text = await readFile(file.path, 'utf8');
  expect(text).not.toContain(key);
  const backup = JSON.parse(text);
  expect(backup).toMatchObject({
    format: 'hopbase-chat-backup',
    version: 1,
    app: { name: 'hopbase-chat', version: expect.any(String) },
    settings: { systemPrompt: 'Answer in haiku' },
  });
  expect(backup.settings).not.toHaveProperty('apiKey');
  expect(backup.attachments).toMatchObject([{ name: photo.name }]);
  expect(Date.parse(backup.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  await settings.getByRole('button', { name: 'Close' }).click();

  // Clear this browser's storage: away from the app (its connections close), then back to an empty app.
  await page.goto('/favicon.svg');
  await page.evaluate(async () => {
    sessionStorage.clear();
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase('hopbase-chat');
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
  });
  await openApp(page);
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(0);
  expect(await storedAttempts(page, first)).toBeNull();

  section = await backupSection(page);
  await expect(settings.getByLabel('System prompt')).toHaveValue('');
  await restore(page, section, file.path);
  await expect(section.getByRole('status')).toHaveText(
    'Restored 2 conversations, 3 recordings, 1 attachment. Conversations: 2 new here. Attachments: 1 new here. Settings applied (the API key stays as it is).',
  );
  // This tab took it in as it takes another tab's save: the settings show at once, never a key.
  await expect(settings.getByLabel('System prompt')).toHaveValue('Answer in haiku');
  await expect(settings.getByLabel('API key', { exact: true })).toHaveValue('');
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/backup-restored.png` });

  // Twice is once.
  await restore(page, section, file.path);
  await expect(section.getByRole('status')).toHaveText(
    'Restored 2 conversations, 3 recordings, 1 attachment. All of it was here already: nothing changed.',
  );
  await settings.getByRole('button', { name: 'Close' }).click();

  await expect(sidebar(page).getByRole('listitem')).toHaveCount(2);
  for (const [question, answer] of [
    [first, firstAnswer],
    [second, secondAnswer],
  ] as const) {
    await conversationEntry(page, question).click();
    await expect(userMessages(page)).toHaveText([question]);
    await expect(turns(page)).toHaveCount(1);
    await expect(turns(page).first().getByTestId('turn-text')).toHaveText(answer);
  }
  // The recording, event for event and byte for byte.
  expect(await recording(page)).toEqual(recorded);
  // The photo, from its own restored bytes, and the first version of the edited message.
  await conversationEntry(page, first).click();
  await expect(questionVersions(page)).toContainText('Version 2 of 2');
  await expectPhoto(page);
  await questionVersions(page).getByRole('button', { name: 'Previous version' }).click();
  await expect(userMessages(page)).toHaveText([draft]);
  await expectPhoto(page);
  await questionVersions(page).getByRole('button', { name: 'Next version' }).click();

  // And it is stored: a reload shows it all again.
  await page.reload();
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(2);
  await conversationEntry(page, first).click();
  await expect(turns(page).first().getByTestId('turn-text')).toHaveText(firstAnswer);
});

test('in another browser (phone, dark): a wrong file is refused, and the open tabs follow a restore', async ({
  page,
  browser,
}, testInfo) => {
  // Made in this browser…
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const question = uniqueText('Carried to another browser');
  const answer = await conversationWith(page, question);
  const mine = await backupSection(page);
  await page.getByRole('dialog', { name: 'Settings' }).getByLabel('System prompt').fill('Be brief');
  const file = await downloaded(page, mine.getByRole('button', { name: 'Back up' }));

  // … restored in another, with two tabs open: a phone-sized one restores, the other watches.
  const other = await browser.newContext({ colorScheme: 'dark' });
  const phone = await other.newPage();
  const watcher = await other.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await openApp(phone);
  await openApp(watcher);
  const section = await backupSection(phone);

  const wrong = testInfo.outputPath('notes.json');
  await writeFile(wrong, '{"notes": ["not a backup"]}');
  await restore(phone, section, wrong);
  await expect(section.getByRole('alert')).toHaveText(
    'This file is not a HopBase Chat backup. Nothing was changed.',
  );
  expect(await violations(phone)).toEqual([]);
  await phone.screenshot({ path: `${artifactsDir}/backup-refused-phone.png` });
  await expect(sidebar(watcher).getByRole('listitem')).toHaveCount(0);

  await restore(phone, section, file.path);
  await expect(section.getByRole('status')).toHaveText(
    'Restored 1 conversation, 1 recording. Conversations: 1 new here. Settings applied (the API key stays as it is).',
  );
  await expect(section.getByRole('alert')).toHaveCount(0);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  expect(await violations(phone)).toEqual([]);
  await phone.screenshot({ path: `${artifactsDir}/backup-restored-phone.png` });

  // The other tab shows it without a reload.
  await conversationEntry(watcher, question).click();
  await expect(turns(watcher).first().getByTestId('turn-text')).toHaveText(answer);

  // Deleted there, then restored again: it comes back, in both tabs.
  const entry = sidebar(watcher).getByRole('listitem').filter({ hasText: question });
  await entry.hover();
  await entry.getByRole('button', { name: `Delete ${question}` }).click();
  await expect(sidebar(watcher).getByRole('listitem')).toHaveCount(0);
  await restore(phone, section, file.path);
  await expect(section.getByRole('status')).toHaveText(
    'Restored 1 conversation, 1 recording. Conversations: 1 brought back after being deleted. Settings as in the backup already.',
  );
  await expect(sidebar(watcher).getByRole('listitem')).toHaveCount(1);
  await conversationEntry(watcher, question).click();
  await expect(turns(watcher).first().getByTestId('turn-text')).toHaveText(answer);
  await other.close();
});

test('a backup naming another gateway: asked in words that name it, nothing sent there before a yes', async ({
  page,
}, testInfo) => {
  await openApp(page);
  const section = await backupSection(page);
  const file = await downloaded(page, section.getByRole('button', { name: 'Back up' }));
  const document = JSON.parse(await readFile(file.path, 'utf8'));
  const elsewhere = 'https://gateway.invalid/v1';
  const planted = testInfo.outputPath('elsewhere.json');
  await writeFile(
    planted,
    JSON.stringify({ ...document, settings: { ...document.settings, baseUrl: elsewhere } }),
  );
  const sentThere: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('https://gateway.invalid')) sentThere.push(request.url());
  });
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const question = section.getByRole('group', { name: 'The backup’s gateway' });
  const keep = question.getByRole('button', { name: 'Keep this app’s own server' });

  await restore(page, section, planted);
  await expect(question).toBeVisible();
  await expect(keep).toBeFocused();
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/backup-gateway-question.png` });
  await keep.click();
  await expect(section.getByRole('status')).toContainText('The gateway stays this app’s own server.');
  await expect(question).toHaveCount(0);
  await expect(settings.getByLabel('Gateway base URL')).toHaveValue('');

  await restore(page, section, planted);
  await expect(question).toBeVisible();
  // Until the yes, nothing went there (not even the model list).
  expect(sentThere).toEqual([]);
  await question.getByRole('button', { name: `Use ${elsewhere} and send my API key there` }).click();
  await expect(section.getByRole('status')).toContainText(`The gateway is now ${elsewhere}.`);
  await expect(settings.getByLabel('Gateway base URL')).toHaveValue(elsewhere);
});
