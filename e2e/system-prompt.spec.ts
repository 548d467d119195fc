import { expect, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  inContext,
  openApp,
  type ProtocolKey,
  protocolKeys,
  requestsContaining,
  send,
  setSettings,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

/** The system prompt a request carried, in its protocol's own place; null when it had none. */
function systemOf(body: unknown): string | null {
  const b = body as {
    messages?: { role: string; content: unknown }[];
    instructions?: string;
    system?: string;
  };
  if (typeof b.system === 'string') return b.system;
  if (typeof b.instructions === 'string') return b.instructions;
  const first = b.messages?.[0];
  return first?.role === 'system' && typeof first.content === 'string' ? first.content : null;
}

/** Sends `text` in the open chat and returns the system prompt the simulator received with it. */
async function sentSystem(page: Page, text: string): Promise<string | null> {
  await waitForAnswer(await send(page, text));
  const [request] = await requestsContaining(page, text);
  expect(request).toBeDefined();
  return systemOf(request?.body);
}

const button = (page: Page) => page.getByRole('button', { name: 'System prompt', exact: true });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'System prompt' });
const box = (page: Page) => dialog(page).getByRole('textbox', { name: 'System prompt for this chat' });

/** Sets the open chat's prompt through the toolbar's dialog, as a person would. */
async function setChatPrompt(page: Page, prompt: string): Promise<void> {
  await button(page).click();
  await box(page).fill(prompt);
  await dialog(page).getByRole('button', { name: 'Save' }).click();
  await expect(dialog(page)).toHaveCount(0);
}

test('each chat sends its own system prompt; a new chat takes the default from Settings', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  await setSettings(page, { 'System prompt for new chats': 'Answer in haiku' });

  // The first chat starts with the default, then gets a prompt of its own.
  const first = uniqueText('First chat');
  expect(await sentSystem(page, first)).toBe('Answer in haiku');
  await setChatPrompt(page, 'Answer like a pirate');
  expect(await sentSystem(page, uniqueText('Ahoy'))).toBe('Answer like a pirate');

  // A new chat: the default again, and the dialog says so.
  await page.getByRole('button', { name: 'New chat' }).click();
  await button(page).click();
  await expect(box(page)).toHaveValue('Answer in haiku');
  await expect(box(page)).toHaveAccessibleDescription(/The default for new chats/);
  await page.keyboard.press('Escape');
  await expect(button(page)).toBeFocused();
  expect(await sentSystem(page, uniqueText('Second chat'))).toBe('Answer in haiku');

  // A new default changes neither chat already started.
  await setSettings(page, { 'System prompt for new chats': 'Answer in limericks' });
  expect(await sentSystem(page, uniqueText('Still haiku'))).toBe('Answer in haiku');
  await page.locator('button.conversation-open', { hasText: first }).click();
  expect(await sentSystem(page, uniqueText('Still a pirate'))).toBe('Answer like a pirate');

  // Kept over a reload.
  await page.reload();
  await expect(button(page)).toBeVisible();
  await button(page).click();
  await expect(box(page)).toHaveValue('Answer like a pirate');
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  expect(await sentSystem(page, uniqueText('After the reload'))).toBe('Answer like a pirate');
});

test('a prompt set before a new chat’s first message is what it sends, on every protocol', async ({
  page,
}) => {
  await openApp(page);
  for (const protocol of protocolKeys) {
    await page.getByRole('button', { name: 'New chat' }).click();
    await choose(page, protocol as ProtocolKey, 'sim-echo');
    await setChatPrompt(page, `Only for this ${protocol} chat`);
    expect(await sentSystem(page, uniqueText(`Hello over ${protocol}`))).toBe(
      `Only for this ${protocol} chat`,
    );
  }
});

for (const [name, options] of [
  ['light', { colorScheme: 'light', viewport: { width: 1280, height: 720 } }],
  ['dark-phone', { colorScheme: 'dark', viewport: { width: 390, height: 780 } }],
] as const) {
  test(`the dialog passes axe and fits: ${name}`, async ({ browser }) => {
    await inContext(browser, options, async (page) => {
      await openApp(page);
      await choose(page, 'chat', 'sim-echo');
      await waitForAnswer(await send(page, uniqueText('Make the toolbar full')));
      // The toolbar keeps its rows: one on a desktop, two on a phone (buttons, then the selects).
      const toolbar = page.locator('header.toolbar');
      await expect(button(page)).toBeInViewport();
      expect((await toolbar.boundingBox())?.height).toBeLessThan(name === 'light' ? 60 : 100);
      expect(await toolbar.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      expect(await violations(page)).toEqual([]);

      await button(page).click();
      await box(page).fill('Answer in haiku.\nKeep it short.');
      expect(await violations(page)).toEqual([]);
      await expect(dialog(page).getByRole('button', { name: 'Save' })).toBeInViewport();
      await page.screenshot({ path: `${artifactsDir}/system-prompt-${name}.png` });
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toHaveCount(0);
      await expect(button(page)).toBeFocused();
    });
  });
}
