import { expect, type Page, test } from '@playwright/test';
import { photo } from './files.ts';
import {
  artifactsDir,
  pageOverflow,
  requestsContaining,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

/**
 * The app with the browser in Japanese, Simplified Chinese and Spanish: its words, its number format,
 * `<html lang>`, the Settings choice (kept over a reload) and axe, in each; the main journey (send, usage,
 * an image attached, Edit and its versions, a stall and its retry, a request not sent) found by the
 * language's accessible names; screenshots at desktop and phone width, light and dark.
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
      message: 'メッセージ',
      send: '送信',
      attach: '添付',
      toSend: '送信する添付ファイル',
      attachments: '添付ファイル',
      edit: '編集',
      editBox: 'メッセージを編集',
      versions: 'あなたのメッセージのバージョン',
      previous: '前のバージョン',
      next: '次のバージョン',
      maxOutput: '最大出力トークン数',
      jumpLatest: '最新へ移動',
    },
    answerFrom: /^sim-echo の回答（Anthropic Messages）$/,
    versionOf: (position: number, count: number) => `バージョン ${position}（全 ${count} 件）`,
    notSent: '最大出力トークン数は 4,000、高の予算は 16,384 です。',
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
      message: '消息',
      send: '发送',
      attach: '添加附件',
      toSend: '待发送的附件',
      attachments: '附件',
      edit: '编辑',
      editBox: '编辑消息',
      versions: '你的消息的版本',
      previous: '上一个版本',
      next: '下一个版本',
      maxOutput: '最大输出 token 数',
      jumpLatest: '跳到最新',
    },
    answerFrom: /^sim-echo 的回答（Anthropic Messages）$/,
    versionOf: (position: number, count: number) => `第 ${position} 个版本，共 ${count} 个`,
    notSent: '最大输出 token 数为 4,000，高级预算为 16,384。',
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
      message: 'Mensaje',
      send: 'Enviar',
      attach: 'Adjuntar',
      toSend: 'Adjuntos por enviar',
      attachments: 'Adjuntos',
      edit: 'Editar',
      editBox: 'Editar mensaje',
      versions: 'Versiones de tu mensaje',
      previous: 'Versión anterior',
      next: 'Versión siguiente',
      maxOutput: 'Máx. de tokens de salida',
      jumpLatest: 'Ir al final',
    },
    answerFrom: /^Respuesta de sim-echo vía Anthropic Messages$/,
    versionOf: (position: number, count: number) => `Versión ${position} de ${count}`,
    // Spanish groups thousands from five digits on (CLDR's minimum grouping): 4000, 16.384.
    notSent: '«Máx. de tokens de salida» es 4000 y el presupuesto alto, 16.384.',
    usage: /^[\d.]+ entrada · [\d.]+ salida · [\d.]+ total$/,
    stall: /El modelo no ha producido nada en \d+ s\./,
    budget: 'un presupuesto de 16.384 tokens',
  },
] as const;

type Words = (typeof languages)[number]['words'];

const messageBox = (page: Page, words: Words) => page.getByRole('textbox', { name: words.message });

/** Opens the app; `message`: the message box's name in the language it opens in. */
async function open(page: Page, message: string): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: message })).toBeVisible();
}

async function sendMessage(page: Page, words: Words, text: string) {
  const before = await turns(page).count();
  await messageBox(page, words).fill(text);
  await messageBox(page, words).press('Enter');
  await expect(turns(page)).toHaveCount(before + 1);
  return turns(page).nth(before);
}

/** Attaches the photo with the Attach button and sends it with `text` by the Send button. */
async function sendPhoto(page: Page, words: Words, text: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: words.attach, exact: true }).click();
  await (await chooser).setFiles(photo);
  await expect(
    page.getByRole('list', { name: words.toSend }).getByRole('img', { name: 'photo.png' }),
  ).toBeVisible();
  const before = await turns(page).count();
  await messageBox(page, words).fill(text);
  await page.getByRole('button', { name: words.send, exact: true }).click();
  await expect(turns(page)).toHaveCount(before + 1);
  const sent = page.getByTestId('user-message').last();
  await expect(
    sent.getByRole('list', { name: words.attachments }).getByRole('img', { name: 'photo.png' }),
  ).toBeVisible();
  return waitForAnswer(turns(page).nth(before));
}

/** Edits the last message (its photo goes with it): a second version, with an answer of its own. */
async function editLast(page: Page, words: Words, addition: string) {
  await page.getByRole('button', { name: words.edit, exact: true }).last().click();
  const form = page.getByRole('form', { name: words.editBox });
  await form.getByRole('textbox', { name: words.editBox }).press('End');
  await form.getByRole('textbox', { name: words.editBox }).pressSequentially(addition);
  await form.getByRole('button', { name: words.send, exact: true }).click();
  await expect(page.getByRole('form', { name: words.editBox })).toHaveCount(0);
  return waitForAnswer(turns(page).last());
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

for (const { locale, lang, words, usage, stall, budget, answerFrom, versionOf, notSent } of languages) {
  test.describe(locale, () => {
    test.use({ locale });

    test('the app speaks the language: words, numbers, attachments, versions, a stall and its retry, axe, and Settings', async ({
      page,
    }) => {
      // A long journey through the whole app: room for a loaded machine.
      test.setTimeout(180_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      await open(page, words.message);
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
      const answer = await waitForAnswer(await sendMessage(page, words, uniqueText('Hello')));
      await expect(answer.getByTestId('turn-usage')).toHaveText(usage);
      await expect(page.getByRole('article', { name: answerFrom })).toHaveCount(1);
      expect(await violations(page)).toEqual([]);

      // An image attached and sent; the message edited: two versions, moved between by the switch.
      await sendPhoto(page, words, uniqueText('Look'));
      await editLast(page, words, ' 2');
      const versions = page.getByRole('group', { name: words.versions });
      await expect(versions).toContainText(versionOf(2, 2));
      await versions.getByRole('button', { name: words.previous }).click();
      await expect(versions).toContainText(versionOf(1, 2));
      await versions.getByRole('button', { name: words.next }).click();
      await expect(versions).toContainText(versionOf(2, 2));
      await expect(
        page.getByTestId('user-message').last().getByRole('img', { name: 'photo.png' }),
      ).toBeVisible();
      // The edited message with its photo and versions at the top of the view.
      await page
        .getByTestId('user-message')
        .last()
        .evaluate((message) => message.scrollIntoView({ block: 'start' }));
      expect(await violations(page)).toEqual([]);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        if (colorScheme === 'dark') expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-desktop-${colorScheme}.png` });
      }
      await page.emulateMedia({ colorScheme: 'light' });

      // A stall: the banner in the language; Retry starts the request again.
      await inSettings(page, words, (dialog) => dialog.getByLabel(words.stallAfter).fill('2'));
      await page.getByRole('combobox', { name: words.model }).selectOption('sim-stall');
      const text = uniqueText('Think hard');
      const stalled = await sendMessage(page, words, text);
      const banner = stalled.getByTestId('stall-banner');
      await expect(banner).toContainText(stall);
      // The simulator gives up on the stall after 8 s: nothing slow between seeing the banner and its buttons
      // (the banner's own axe check is accessibility.spec.ts's; this page's is after Stop).
      await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-stall.png` });
      await banner.getByRole('button', { name: words.retry }).click();
      await expect.poll(async () => (await requestsContaining(page, text)).length).toBe(2);
      await expect(stalled.getByTestId('stall-banner')).toContainText(stall);
      await stalled.getByTestId('stall-banner').getByRole('button', { name: words.stop }).click();
      await expect(stalled).toHaveAttribute('aria-busy', 'false');
      await expect(stalled.getByRole('alert').getByText(words.details)).toBeVisible();
      expect(await violations(page)).toEqual([]);

      // A request the API would refuse is not sent: what to change, in the language, its figures in its format.
      // In a new chat, which takes Settings' output limit as its own.
      await page.getByRole('button', { name: words.newChat }).click();
      await inSettings(page, words, (dialog) => dialog.getByLabel(words.maxOutput).fill('4000'));
      await page.getByRole('combobox', { name: words.reasoning }).selectOption('high');
      const refused = await sendMessage(page, words, uniqueText('Think'));
      await expect(refused.getByTestId('interruption-banner')).toContainText(notSent);
      await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-not-sent.png` });
      await inSettings(page, words, (dialog) => dialog.getByLabel(words.maxOutput).fill(''));
      await page.getByRole('combobox', { name: words.reasoning }).selectOption('off');

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

      await open(page, 'Message');
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
        await open(page, words.message);
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-phone-${colorScheme}-empty.png` });
        await page.getByRole('combobox', { name: words.reasoning }).selectOption('medium');
        await waitForAnswer(await sendMessage(page, words, uniqueText('Hello from a phone')));
        await sendPhoto(page, words, uniqueText('A photo'));
        await editLast(page, words, ' 2');
        await expect(page.getByRole('group', { name: words.versions })).toBeVisible();
        // Nothing runs past the screen's edge; the toolbar keeps to two rows.
        expect(await pageOverflow(page)).toBe(0);
        for (const name of [words.protocol, words.model, words.reasoning])
          await expect(page.getByRole('combobox', { name })).toBeInViewport({ ratio: 1 });
        await expect(page.getByRole('button', { name: words.settings, exact: true })).toBeInViewport({
          ratio: 1,
        });
        expect((await page.locator('header.toolbar').boundingBox())?.height ?? 0).toBeLessThan(100);
        expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-phone-${colorScheme}.png` });
        // The edited message, its versions and its answer's header, with "Jump to latest" below.
        await page
          .getByTestId('user-message')
          .last()
          .evaluate((message) => message.scrollIntoView({ block: 'start' }));
        await expect(page.getByRole('button', { name: words.jumpLatest })).toBeVisible();
        expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-phone-${colorScheme}-versions.png` });

        await page.getByRole('button', { name: words.sidebar, exact: true }).click();
        const sidebar = page.getByRole('navigation', { name: words.sidebar });
        await expect(sidebar.getByRole('button', { name: words.newChat })).toBeInViewport({ ratio: 1 });
        await page.screenshot({ path: `${artifactsDir}/i18n-${lang}-phone-${colorScheme}-sidebar.png` });
        await context.close();
      });
    }
  });
}
