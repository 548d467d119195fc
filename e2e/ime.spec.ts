import { type CDPSession, expect, type Locator, type Page, test } from '@playwright/test';
import { requestsContaining, turns, uniqueText, waitForAnswer } from './helpers.ts';

/**
 * Typing through an input method, with Chromium's own composition events (the DevTools protocol drives
 * them as an IME does): Enter that confirms a conversion never sends, Enter after it does, and Escape
 * while composing does not stop a streaming answer.
 */
const languages = [
  {
    locale: 'ja-JP',
    message: 'メッセージ',
    model: 'モデル',
    composing: ['に', 'にほ', 'にほんご'],
    committed: '日本語',
  },
  {
    locale: 'zh-CN',
    message: '消息',
    model: '模型',
    composing: ['n', 'ni', 'nih', 'nihao'],
    committed: '你好',
  },
] as const;

/** The message box, by its name in the page's language. */
const messageBox = (page: Page, name: string) => page.getByRole('textbox', { name });

/** A key as the browser gets it while an IME holds it: no text, the IME's key code 229 (Windows: VK_PROCESSKEY). */
async function keyDown(cdp: CDPSession, key: 'Enter' | 'Escape', keyCode = 229): Promise<void> {
  const event = { key, code: key, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...event });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...event });
}

async function compose(cdp: CDPSession, steps: readonly string[]): Promise<void> {
  for (const text of steps)
    await cdp.send('Input.imeSetComposition', {
      text,
      selectionStart: text.length,
      selectionEnd: text.length,
    });
}

/** Whether the composition is still open: the box's own flag, set between compositionstart and compositionend. */
function composingNow(box: Locator): Promise<boolean> {
  return box.evaluate((box) => box.dataset.composing === 'true');
}

for (const { locale, message, model, composing, committed } of languages) {
  test.describe(locale, () => {
    test.use({ locale });

    test('Enter that confirms a conversion never sends; Enter after the composition does', async ({
      page,
    }) => {
      await page.goto('/');
      const box = messageBox(page, message);
      await expect(box).toBeVisible();
      // Track the composition as the page sees it, to know when Enter arrives inside one.
      await box.evaluate((el) => {
        el.addEventListener('compositionstart', () => {
          el.dataset.composing = 'true';
        });
        el.addEventListener('compositionend', () => {
          el.dataset.composing = 'false';
        });
      });
      const prefix = uniqueText('IME');
      await box.fill(prefix);
      const cdp = await page.context().newCDPSession(page);

      await compose(cdp, composing);
      await expect(box).toHaveValue(`${prefix}${composing.at(-1)}`);
      expect(await composingNow(box)).toBe(true);
      // The Enter that picks the conversion (seen as Enter inside the composition): nothing is sent.
      await keyDown(cdp, 'Enter', 13);
      await expect(box).toHaveValue(`${prefix}${composing.at(-1)}`);
      await cdp.send('Input.insertText', { text: committed });
      expect(await composingNow(box)).toBe(false);
      await expect(box).toHaveValue(`${prefix}${committed}`);
      // Safari's late keydown for that same Enter, after compositionend, still carries key code 229.
      await keyDown(cdp, 'Enter');
      await expect(box).toHaveValue(`${prefix}${committed}`);
      await expect(turns(page)).toHaveCount(0);
      expect(await requestsContaining(page, prefix)).toEqual([]);

      // The next Enter is the person's own: it sends what they typed, converted.
      await box.press('Enter');
      await expect(turns(page)).toHaveCount(1);
      await expect(box).toHaveValue('');
      await waitForAnswer(turns(page).first());
      const sent = await requestsContaining(page, `${prefix}${committed}`);
      expect(sent).toHaveLength(1);
    });

    test('Escape during a composition cancels the composition, not the streaming answer', async ({
      page,
    }) => {
      await page.goto('/');
      const box = messageBox(page, message);
      await expect(box).toBeVisible();
      await page.getByRole('combobox', { name: model }).selectOption('sim-long');
      await box.fill(uniqueText('A long story'));
      await box.press('Enter');
      const answer = turns(page).first();
      const text = answer.getByTestId('turn-text');
      await expect(text).toContainText(/\w{3,}/);
      await expect(answer).toHaveAttribute('aria-busy', 'true');

      const cdp = await page.context().newCDPSession(page);
      await box.focus();
      await compose(cdp, composing);
      await keyDown(cdp, 'Escape', 27);
      // The IME would now drop its composition; the answer goes on streaming.
      await cdp.send('Input.imeSetComposition', { text: '', selectionStart: 0, selectionEnd: 0 });
      const lengthThen = (await text.innerText()).length;
      await expect.poll(async () => (await text.innerText()).length).toBeGreaterThan(lengthThen);
      await expect(answer).toHaveAttribute('aria-busy', 'true');

      // Escape outside a composition stops it, as always.
      await keyDown(cdp, 'Escape', 27);
      await expect(answer).toHaveAttribute('aria-busy', 'false');
    });
  });
}
