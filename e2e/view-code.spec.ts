import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  inContext,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

const run = promisify(execFile);

/** What a shell would misread if any of it reached it unquoted, in the message sent. */
const tricky = `"double" 'single' $HOME \${PATH} $(id) \`id\` \\ ñ 日本 😀\nsecond line`;

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Code for this request' });

/** The code the open tab shows. */
async function shownCode(dialog: Locator, tab: string): Promise<string> {
  return (await dialog.getByRole('tabpanel', { name: tab }).locator('pre').textContent()) ?? '';
}

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: View code's cURL, copied and run, sends the attempt's own body`, async ({
    browser,
  }) => {
    await inContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] }, async (page) => {
      await openApp(page);
      await choose(page, protocol, 'sim-echo');
      const word = uniqueText('code').split(' ')[1] ?? '';
      const turn = await waitForAnswer(await send(page, `${word} ${tricky}`));
      const [sent] = await requestsContaining(page, word);
      expect(sent).toBeDefined();

      await turn.getByRole('button', { name: 'View code' }).click();
      const dialog = dialogOf(page);
      await expect(dialog.getByRole('tab', { name: 'cURL' })).toHaveAttribute('aria-selected', 'true');
      await expect(dialog.getByRole('tab', { name: 'cURL' })).toBeFocused();
      const curl = await shownCode(dialog, 'cURL');
      // The body the simulator received from the app, as the dialog shows it.
      expect(curl).toContain(JSON.stringify(sent?.body, null, 2));
      expect(curl).toContain(`http://127.0.0.1:${process.env.E2E_PORT ?? 4317}/v1`);

      await dialog.getByRole('button', { name: 'Copy' }).click();
      await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(curl);

      // The copied command, run by bash and curl (standard input not a socket: Debian's bash would then
      // read ~/.bashrc), against the same simulator.
      const { stdout } = await run('bash', ['--norc', '-c', copied], {
        env: { PATH: process.env.PATH, HOPBASE_API_KEY: 'sk-e2e' },
      });
      expect(stdout).toMatch(/\[DONE\]|response\.completed|message_stop/);
      const both = await requestsContaining(page, word);
      expect(both).toHaveLength(2);
      const fromCurl = both[1];
      expect(fromCurl?.path).toBe(sent?.path);
      expect(fromCurl?.body).toEqual(sent?.body);
      expect(fromCurl?.rawSha256).toBe(
        createHash('sha256')
          .update(`${JSON.stringify(sent?.body, null, 2)}\n`)
          .digest('hex'),
      );
      // The protocol's own key header carried the key (the log names it, redacted).
      expect(Object.keys(fromCurl?.headers ?? {})).toContain(
        protocol === 'messages' ? 'x-api-key' : 'authorization',
      );

      // The other tabs, the keyboard's way.
      await dialog.getByRole('tab', { name: 'cURL' }).press('ArrowRight');
      await expect(dialog.getByRole('tab', { name: 'Python' })).toBeFocused();
      expect(await shownCode(dialog, 'Python')).toContain(
        protocol === 'messages' ? 'from anthropic import Anthropic' : 'from openai import OpenAI',
      );
      await page.keyboard.press('ArrowRight');
      expect(await shownCode(dialog, 'TypeScript')).toContain('process.env.HOPBASE_API_KEY');
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(turn.getByRole('button', { name: 'View code' })).toBeFocused();

      // The inspector offers the same code for the attempt it shows.
      await turn.getByRole('button', { name: 'Inspect' }).click();
      await page
        .getByRole('complementary', { name: 'Inspector' })
        .getByRole('button', { name: 'View code' })
        .click();
      expect(await shownCode(dialogOf(page), 'cURL')).toBe(curl);
    });
  });
}

const english = {
  message: 'Message',
  protocol: 'Protocol',
  view: 'View code',
  dialog: 'Code for this request',
};
const spanish = {
  message: 'Mensaje',
  protocol: 'Protocolo',
  view: 'Ver código',
  dialog: 'Código de esta solicitud',
};

test('the dialog on a desktop, at phone width in dark mode, and in Spanish: no axe violation', async ({
  browser,
}) => {
  const cases = [
    { name: 'desktop', options: { viewport: { width: 1280, height: 800 } }, words: english },
    {
      name: 'phone-dark',
      options: { viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const },
      words: english,
    },
    { name: 'es', options: { viewport: { width: 1280, height: 800 }, locale: 'es-ES' }, words: spanish },
  ];
  for (const { name, options, words } of cases) {
    await inContext(browser, options, async (page) => {
      await page.goto('/');
      const box = page.getByRole('textbox', { name: words.message });
      await expect(box).toBeVisible();
      await page
        .getByRole('combobox', { name: words.protocol })
        .selectOption({ label: protocolLabels.messages });
      await box.fill(uniqueText('Screenshot'));
      await box.press('Enter');
      const turn = await waitForAnswer(page.getByTestId('assistant-turn').first());
      await page.screenshot({ path: `${artifactsDir}/view-code-${name}-answer.png` });
      await turn.getByRole('button', { name: words.view }).click();
      const dialog = page.getByRole('dialog', { name: words.dialog });
      await expect(dialog.locator('pre')).toContainText('"model"');
      expect(await violations(page, '[role="dialog"]')).toEqual([]);
      await page.screenshot({ path: `${artifactsDir}/view-code-${name}.png` });
      await dialog.getByRole('tab', { name: 'Python' }).click();
      await expect(dialog.locator('pre')).toContainText('client.messages.create(**body)');
      await page.screenshot({ path: `${artifactsDir}/view-code-${name}-python.png` });
    });
  }
});

test('an earlier attempt has its own View code, with the request it sent', async ({ page }) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-flaky');
  const word = uniqueText('flaky').split(' ')[1] ?? '';
  const turn = await waitForAnswer(await send(page, `${word} first try fails`));
  await turn.getByRole('button', { name: 'Retry' }).click();
  await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(turn.getByRole('alert')).toHaveCount(0);
  const [first] = await requestsContaining(page, word);
  await turn.getByText('Attempt 2 of 2').click();
  await turn.getByRole('button', { name: 'View code of attempt 1' }).click();
  const dialog = dialogOf(page);
  expect(await shownCode(dialog, 'cURL')).toContain(JSON.stringify(first?.body, null, 2));
  await page.keyboard.press('Escape');
  await expect(turn.getByRole('button', { name: 'View code of attempt 1' })).toBeFocused();
  await turn.screenshot({ path: `${artifactsDir}/view-code-earlier-attempt.png` });
});
