import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { artifactsDir, requestsContaining, turns, uniqueText, waitForAnswer } from './helpers.ts';

/**
 * The app with the browser in Japanese, Simplified Chinese and Spanish: its words, its number format,
 * `<html lang>`, the Settings choice (kept over a reload) and axe, in each. The message box and the
 * answer's own header are still English: they are converted with the conversation pane (second pass).
 */
const languages = [
  {
    locale: 'ja-JP',
    lang: 'ja',
    words: {
      settings: '設定',
      close: '閉じる',
      newChat: '新しいチャット',
      sidebar: '会話',
      protocol: 'プロトコル',
      model: 'モデル',
      reasoning: '推論',
      language: '言語',
      auto: '自動（ブラウザーに合わせる）',
      stallAfter: '停滞の警告までの秒数（出力なし）',
      retry: '再試行',
      stop: '停止',
      details: '詳細',
    },
    usage: /^入力 [\d,]+ · 出力 [\d,]+ · 合計 [\d,]+$/,
    stall: /モデルは \d+ 秒間、何も出力していません。/,
    budget: '16,384 トークンの予算で思考',
  },
  {
    locale: 'zh-CN',
    lang: 'zh-CN',
    words: {
      settings: '设置',
      close: '关闭',
      newChat: '新对话',
      sidebar: '对话',
      protocol: '协议',
      model: '模型',
      reasoning: '推理',
      language: '语言',
      auto: '自动（跟随浏览器）',
      stallAfter: '停滞警告时间（无输出的秒数）',
      retry: '重试',
      stop: '停止',
      details: '详细信息',
    },
    usage: /^输入 [\d,]+ · 输出 [\d,]+ · 合计 [\d,]+$/,
    stall: /模型已有\d+秒没有输出。/,
    budget: '按 16,384 token 的预算思考',
  },
  {
    locale: 'es-ES',
    lang: 'es',
    words: {
      settings: 'Ajustes',
      close: 'Cerrar',
      newChat: 'Nuevo chat',
      sidebar: 'Conversaciones',
      protocol: 'Protocolo',
      model: 'Modelo',
      reasoning: 'Razonamiento',
      language: 'Idioma',
      auto: 'Automático (navegador)',
      stallAfter: 'Aviso de bloqueo tras (segundos sin salida)',
      retry: 'Reintentar',
      stop: 'Detener',
      details: 'Detalles',
    },
    usage: /^[\d.]+ entrada · [\d.]+ salida · [\d.]+ total$/,
    stall: /El modelo no ha producido nada en \d+ s\./,
    budget: 'un presupuesto de 16.384 tokens',
  },
] as const;

type Words = (typeof languages)[number]['words'];

/** WCAG 2.1 A and AA rules, as axe-core checks them, on the page as it is now. */
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** The message box: still named in English until the composer is converted. */
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

async function open(page: Page): Promise<void> {
  await page.goto('/');
  await expect(messageBox(page)).toBeVisible();
}

async function sendMessage(page: Page, text: string) {
  const before = await turns(page).count();
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
  await expect(turns(page)).toHaveCount(before + 1);
  return turns(page).nth(before);
}

async function inSettings(
  page: Page,
  words: Words,
  change: (dialog: ReturnType<Page['getByRole']>) => Promise<void>,
) {
  await page.getByRole('button', { name: words.settings, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: words.settings });
  await change(dialog);
  await dialog.getByRole('button', { name: words.close }).click();
}

for (const { locale, lang, words, usage, stall, budget } of languages) {
  test.describe(locale, () => {
    test.use({ locale });

    test('the app speaks the language: words, numbers, a stall and its retry, axe, and Settings', async ({
      page,
    }) => {
      await open(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      const sidebar = page.getByRole('navigation', { name: words.sidebar });
      await expect(sidebar.getByRole('button', { name: words.newChat })).toBeVisible();
      expect(await violations(page)).toEqual([]);

      // Numbers in the language's format: the thinking budget in the Reasoning select's explanation.
      await page
        .getByRole('combobox', { name: words.protocol })
        .selectOption({ label: 'Anthropic Messages' });
      await page.getByRole('combobox', { name: words.reasoning }).selectOption('high');
      await expect(page.getByRole('combobox', { name: words.reasoning })).toHaveAttribute(
        'title',
        new RegExp(budget),
      );
      await page.getByRole('combobox', { name: words.reasoning }).selectOption('off');

      // An answer, with its usage in the language.
      await page.getByRole('combobox', { name: words.model }).selectOption('sim-echo');
      const answer = await waitForAnswer(await sendMessage(page, uniqueText('Hello')));
      await expect(answer.getByTestId('turn-usage')).toHaveText(usage);
      expect(await violations(page)).toEqual([]);

      // A stall: the banner in the language; Retry starts the request again.
      await inSettings(page, words, (dialog) => dialog.getByLabel(words.stallAfter).fill('2'));
      await page.getByRole('combobox', { name: words.model }).selectOption('sim-stall');
      const text = uniqueText('Think hard');
      const stalled = await sendMessage(page, text);
      const banner = stalled.getByTestId('stall-banner');
      await expect(banner).toContainText(stall);
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-stall.png` });
      await banner.getByRole('button', { name: words.retry }).click();
      await expect.poll(async () => (await requestsContaining(page, text)).length).toBe(2);
      await expect(stalled.getByTestId('stall-banner')).toContainText(stall);
      await stalled.getByTestId('stall-banner').getByRole('button', { name: words.stop }).click();
      await expect(stalled).toHaveAttribute('aria-busy', 'false');
      await expect(stalled.getByRole('alert').getByText(words.details)).toBeVisible();

      // The Settings choice: English, kept over a reload; then back to the browser's language.
      await page.getByRole('button', { name: words.settings, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: words.settings });
      await expect(dialog.getByRole('combobox', { name: words.language })).toHaveValue('auto');
      await expect(dialog.getByRole('option', { name: '日本語' })).toHaveAttribute('lang', 'ja');
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-settings.png` });
      await dialog.getByRole('combobox', { name: words.language }).selectOption('en');
      await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();

      await open(page);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('button', { name: 'New chat' })).toBeVisible();
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Settings' })
        .getByRole('combobox', { name: 'Language' })
        .selectOption('auto');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('dialog', { name: words.settings })).toBeVisible();
    });

    for (const colorScheme of ['light', 'dark'] as const) {
      test(`at phone width (${colorScheme}) the toolbar and the sidebar fit`, async ({ browser }) => {
        const context = await browser.newContext({
          locale,
          colorScheme,
          viewport: { width: 390, height: 844 },
        });
        const page = await context.newPage();
        await open(page);
        await page.getByRole('combobox', { name: words.reasoning }).selectOption('medium');
        await waitForAnswer(await sendMessage(page, uniqueText('Hello from a phone')));
        // Nothing runs past the screen's edge; the toolbar keeps to two rows.
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
        for (const name of [words.protocol, words.model, words.reasoning])
          await expect(page.getByRole('combobox', { name })).toBeInViewport({ ratio: 1 });
        await expect(page.getByRole('button', { name: words.settings, exact: true })).toBeInViewport({
          ratio: 1,
        });
        expect((await page.locator('header.toolbar').boundingBox())?.height ?? 0).toBeLessThan(100);
        expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-phone-${colorScheme}.png` });

        await page.getByRole('button', { name: words.sidebar, exact: true }).click();
        const sidebar = page.getByRole('navigation', { name: words.sidebar });
        await expect(sidebar.getByRole('button', { name: words.newChat })).toBeInViewport({ ratio: 1 });
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-phone-${colorScheme}-sidebar.png` });
        await context.close();
      });
    }
  });
}
