import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  conversationWith,
  openApp,
  requestsContaining,
  send,
  storedKeys,
  storedRecord,
  storeRecord,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const userMessages = (page: Page) => page.getByTestId('user-message');
/** Every message of the person's in every version of the stored conversation holding `needle`, sorted. */
async function storedUserTexts(page: Page, needle: string): Promise<string[]> {
  for (const key of (await storedKeys(page, 'conversation:')) ?? []) {
    const record = (await storedRecord(page, key)) as { messages: { role: string; text?: string }[] };
    const texts = record.messages.flatMap((m) => (m.role === 'user' ? [m.text ?? ''] : []));
    if (texts.includes(needle)) return texts.sort();
  }
  return [];
}
/** The sidebar entry that opens the conversation titled by `text` (its first message). */
const conversationEntry = (page: Page, text: string) =>
  sidebar(page).getByRole('button', { name: new RegExp(`^${text.slice(0, 40)}`) });
const banner = (page: Page) => page.getByRole('region', { name: 'Saved data that could not be read' });

test('a corrupted record leaves the other conversations visible, with a banner and its download', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const first = uniqueText('Kept first');
  const second = uniqueText('Kept second');
  await conversationWith(page, first);
  await conversationWith(page, second);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('dialog', { name: 'Settings' }).getByLabel('System prompt').fill('Answer in haiku');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => storedRecord(page, 'settings')).toMatchObject({ systemPrompt: 'Answer in haiku' });

  // One record of the wrong shape, as an old version or a bug could leave it.
  const broken = { id: 'conv_broken', title: 'Broken', createdAt: 1, updatedAt: 1, messages: null };
  await storeRecord(page, 'conversation:conv_broken', broken);
  await page.reload();

  await expect(sidebar(page)).toContainText(first.slice(0, 20));
  await expect(sidebar(page)).toContainText(second.slice(0, 20));
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(2);
  await expect(banner(page)).toContainText('1 saved conversation could not be read.');
  await banner(page).getByText('What is wrong').click();
  await expect(banner(page).getByRole('listitem')).toHaveText(
    'conversation:conv_broken: messages: expected a list',
  );
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/storage-unreadable.png` });

  const downloading = page.waitForEvent('download');
  await banner(page).getByRole('button', { name: 'Download unreadable records' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^hopbase-chat-unreadable-records-\d{4}-\d\d-\d\d\.json$/);
  const file = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(file.records).toEqual([
    {
      key: 'conversation:conv_broken',
      what: 'conversation',
      reason: 'messages: expected a list',
      value: broken,
    },
  ]);

  // Working on changes nothing that was stored: the settings and the unreadable record stay.
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog.getByLabel('System prompt')).toHaveValue('Answer in haiku');
  await dialog.getByLabel('Temperature').fill('0.4');
  const storageUse = dialog.getByRole('group', { name: 'Storage in this browser' });
  await expect(storageUse).toContainText(/In use: [\d.]+ (bytes|kB|MB) of the [\d.]+ (MB|GB|TB) it allows/);
  await expect(storageUse).toContainText('1 saved conversation could not be read; kept unchanged.');
  await storageUse.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifactsDir}/storage-settings.png` });
  await page.getByRole('button', { name: 'Close' }).click();
  await expect
    .poll(() => storedRecord(page, 'settings'))
    .toMatchObject({ systemPrompt: 'Answer in haiku', temperature: 0.4 });
  await conversationWith(page, uniqueText('After the load'));
  expect(await storedRecord(page, 'conversation:conv_broken')).toEqual(broken);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(banner(page)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/storage-unreadable-phone.png` });
  await banner(page).getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner(page)).toHaveCount(0);
});

test('two tabs editing and deleting lose nothing and bring nothing back', async ({ page, context }) => {
  const a = page;
  const b = await context.newPage();
  await openApp(a);
  await openApp(b);
  await choose(a, 'chat', 'sim-echo');
  await choose(b, 'messages', 'sim-echo');

  // A starts a conversation; B sees it without a reload and continues it; A sees that.
  const fromA = uniqueText('Shared from A');
  await waitForAnswer(await send(a, fromA));
  const shared = conversationEntry(b, fromA);
  await expect(shared).toBeVisible();
  await shared.click();
  await expect(userMessages(b)).toHaveText([fromA]);
  const fromB = uniqueText('Reply from B');
  await waitForAnswer(await send(b, fromB));
  await expect(userMessages(a)).toHaveText([fromA, fromB]);
  await expect(turns(a)).toHaveCount(2);

  // Both send into it at the same moment: neither message is lost. Depending on which tab hears of the
  // other's first, they follow one another or are two versions of the third message; each tab shows its own.
  const bothA = uniqueText('Same moment A');
  const bothB = uniqueText('Same moment B');
  await Promise.all([
    a.getByRole('textbox', { name: 'Message' }).fill(bothA),
    b.getByRole('textbox', { name: 'Message' }).fill(bothB),
  ]);
  await Promise.all([
    a.getByRole('textbox', { name: 'Message' }).press('Enter'),
    b.getByRole('textbox', { name: 'Message' }).press('Enter'),
  ]);
  const everyMessage = [fromA, fromB, bothA, bothB].sort();
  for (const [tab, own] of [
    [a, bothA],
    [b, bothB],
  ] as const) {
    await expect(userMessages(tab).filter({ hasText: own })).toHaveCount(1);
    for (const turn of await turns(tab).all()) await waitForAnswer(turn);
    await expect.poll(() => storedUserTexts(tab, fromA)).toEqual(everyMessage);
  }

  // B starts another conversation; A deletes it; it is gone from B too.
  await b.getByRole('button', { name: 'New chat' }).click();
  const doomed = uniqueText('Doomed in B');
  await waitForAnswer(await send(b, doomed));
  const doomedInA = sidebar(a).getByRole('listitem').filter({ hasText: doomed });
  await expect(doomedInA).toBeVisible();
  await doomedInA.hover();
  await doomedInA.getByRole('button', { name: `Delete ${doomed}` }).click();
  await expect(sidebar(b)).not.toContainText(doomed);
  await expect(sidebar(a)).not.toContainText(doomed);

  // After reloading both, in either order, everything is there once and the deleted one stays deleted.
  await b.reload();
  await a.reload();
  for (const tab of [a, b]) {
    await expect(sidebar(tab)).not.toContainText(doomed);
    await conversationEntry(tab, fromA).click();
    expect(await storedUserTexts(tab, fromA)).toEqual(everyMessage);
    for (const text of [fromA, fromB])
      await expect(userMessages(tab).filter({ hasText: text })).toHaveCount(1);
    for (const turn of await turns(tab).all()) await expect(turn).toHaveAttribute('aria-busy', 'false');
  }
  await b.close();
});

test('a reload right after Send keeps the message and its new conversation', async ({ page }) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-long');
  const box = page.getByRole('textbox', { name: 'Message' });
  const sent: string[] = [];
  for (let round = 0; round < 3; round++) {
    const text = uniqueText(`Sent then reloaded ${round}`);
    sent.push(text);
    if (round === 0) await page.getByRole('button', { name: 'New chat' }).click();
    await box.fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    // At once: no wait for anything to be stored.
    await page.reload();
    await expect(box).toBeVisible();
    await expect(userMessages(page)).toHaveText(sent);
    await expect(sidebar(page)).toContainText(sent[0]!.slice(0, 20));
  }
  // The answers cut by the reloads are kept, marked interrupted; the conversation goes on.
  await expect(turns(page)).toHaveCount(3);
  await expect(turns(page).first().getByRole('alert')).toContainText('Interrupted by a reload');
});

interface StoredAnswerAttempt {
  id: string;
  request: Record<string, unknown>;
}
/** Every answer's attempts (all versions) in the stored record of the conversation holding `text`. */
async function storedAnswerAttempts(page: Page, text: string): Promise<StoredAnswerAttempt[]> {
  for (const key of (await storedKeys(page, 'conversation:')) ?? []) {
    const record = (await storedRecord(page, key)) as {
      messages: { role: string; text?: string; attempts?: StoredAnswerAttempt[] }[];
    };
    if (record.messages.some((m) => m.text === text))
      return record.messages.flatMap((m) => (m.role === 'assistant' ? (m.attempts ?? []) : []));
  }
  return [];
}

test('a sent request is stored once, apart from its conversation; Retry and Regenerate after a reload send it again', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-flaky');
  const text = uniqueText('Kept apart');
  const turn = await waitForAnswer(await send(page, text));
  await expect(turn.getByRole('alert')).toBeVisible();
  const [sent] = await requestsContaining(page, text);

  // The conversation's record holds the request without its body; the body has a record of its own.
  await expect.poll(async () => (await storedAnswerAttempts(page, text)).length).toBe(1);
  const [first] = await storedAnswerAttempts(page, text);
  expect(first?.request).toMatchObject({ path: '/messages' });
  expect(first?.request).not.toHaveProperty('body');
  expect(await storedRecord(page, `request:${first?.id}`)).toEqual({ body: sent?.body });

  await page.reload();
  const restored = turns(page).last();
  await restored.getByRole('button', { name: 'Retry' }).click();
  await expect(restored).toContainText('Attempt 2 of 2');
  await waitForAnswer(restored);
  await restored.getByRole('button', { name: 'Regenerate' }).click();
  await expect(restored.getByRole('group', { name: 'Versions of this answer' })).toContainText(
    'Version 2 of 2',
  );
  await waitForAnswer(restored);

  // Byte for byte, both: the simulator hashes each body as received.
  const requests = await requestsContaining(page, text);
  expect(requests.map((r) => r.rawSha256)).toEqual([sent?.rawSha256, sent?.rawSha256, sent?.rawSha256]);
  await expect.poll(async () => (await storedAnswerAttempts(page, text)).length).toBe(3);
  for (const attempt of await storedAnswerAttempts(page, text)) {
    expect(attempt.request).not.toHaveProperty('body');
    expect(await storedRecord(page, `request:${attempt.id}`)).toEqual({ body: sent?.body });
  }
});

test('an answer whose stored request cannot be read says so, and Regenerate builds it again from the conversation', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const text = uniqueText('Body damaged');
  await conversationWith(page, text);
  const [attempt] = await storedAnswerAttempts(page, text);
  // Damaged on disk, as another program could leave it.
  await storeRecord(page, `request:${attempt?.id}`, { body: 'damaged' });
  await page.reload();

  // A load reads no request body: the inspector asks for this one, and says it is damaged rather than
  // show an empty one; the record is then listed with those that cannot be read.
  await turns(page).last().getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByText(/^Request: POST/).click();
  await expect(inspector.getByRole('note').filter({ hasText: 'is damaged' })).toBeVisible();
  await inspector.getByRole('button', { name: 'Close inspector' }).click();
  await expect(banner(page)).toContainText('1 sent request could not be read.');
  await banner(page).getByText('What is wrong').click();
  await expect(banner(page).getByRole('listitem')).toHaveText(
    `request:${attempt?.id}: body: expected an object`,
  );
  await banner(page).getByRole('button', { name: 'Dismiss' }).click();

  const version = turns(page).last();
  await version.getByRole('button', { name: 'Regenerate' }).click();
  await expect(version.getByRole('group', { name: 'Versions of this answer' })).toContainText(
    'Version 2 of 2',
  );
  await waitForAnswer(version);
  // Never an empty body: built again from the conversation as it stands, it is the request first sent.
  const [first, again] = await requestsContaining(page, text);
  expect(again?.rawSha256).toBe(first?.rawSha256);
  // The damaged record is left as it is.
  expect(await storedRecord(page, `request:${attempt?.id}`)).toEqual({ body: 'damaged' });
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/storage-request-missing.png` });

  await page.setViewportSize({ width: 390, height: 844 });
  await version.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/storage-request-missing-phone-${colorScheme}.png` });
  }
});
