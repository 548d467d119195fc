import { expect, type Page, test } from '@playwright/test';
import { artifactsDir, pageOverflow, turns, uniqueText, waitForAnswer } from './helpers.ts';

/**
 * The toolbar in each language, at desktop and phone width, with a conversation total shown: one row at
 * 1280 px, its controls never on top of one another, and nothing past the screen's edge at 390 px; and the
 * inspector in each language, for the screenshots.
 */
const languages = [
  {
    locale: 'en-US',
    lang: 'en',
    message: 'Message',
    model: 'Model',
    inspect: 'Inspect',
    inspector: 'Inspector',
  },
  {
    locale: 'es-ES',
    lang: 'es',
    message: 'Mensaje',
    model: 'Modelo',
    inspect: 'Inspeccionar',
    inspector: 'Inspector',
  },
  { locale: 'zh-CN', lang: 'zh-CN', message: '消息', model: '模型', inspect: '检查', inspector: '检查器' },
  {
    locale: 'ja-JP',
    lang: 'ja',
    message: 'メッセージ',
    model: 'モデル',
    inspect: '検査',
    inspector: 'インスペクター',
  },
] as const;

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The toolbar's visible controls and the total, each with its box. */
function toolbarBoxes(page: Page): Promise<Box[]> {
  return page.locator('header.toolbar').evaluate((toolbar) =>
    [...toolbar.children].flatMap((child) => {
      const { x, y, width, height } = child.getBoundingClientRect();
      if (width === 0 || height === 0 || child.classList.contains('toolbar-spacer')) return [];
      const name = child.getAttribute('aria-label') ?? child.textContent?.trim() ?? child.className;
      return [{ name, x, y, width, height }];
    }),
  );
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

for (const { locale, lang, message, model, inspect, inspector } of languages) {
  for (const width of [1280, 390]) {
    test(`${locale} at ${width} px: the toolbar fits, nothing overlaps`, async ({ browser }) => {
      const context = await browser.newContext({ locale, viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await page.getByRole('combobox', { name: model }).selectOption('sim-echo');
      const box = page.getByRole('textbox', { name: message });
      await box.fill(uniqueText('Hello'));
      await box.press('Enter');
      await waitForAnswer(turns(page).first());
      if (width > 760) await expect(page.getByTestId('conversation-usage')).toBeVisible();
      await page.screenshot({ path: `${artifactsDir}/i18n-layout-${lang}-${width}.png` });

      const boxes = await toolbarBoxes(page);
      const overlapping = boxes.flatMap((a, i) =>
        boxes.slice(i + 1).flatMap((b) => (overlap(a, b) ? [`${a.name} / ${b.name}`] : [])),
      );
      expect(overlapping).toEqual([]);
      expect(await pageOverflow(page)).toBe(0);
      const toolbar = (await page.locator('header.toolbar').boundingBox())!;
      if (width === 1280) {
        // One row: every control level with the others, and the model select left room for long ids.
        const top = Math.min(...boxes.map((b) => b.y));
        const bottom = Math.max(...boxes.map((b) => b.y + b.height));
        expect(bottom - top).toBeLessThan(48);
        expect(toolbar.height).toBeLessThan(64);
        const select = (await page.getByRole('combobox', { name: model }).boundingBox())!;
        expect(select.width).toBeGreaterThanOrEqual(180);
        // The inspector in the language too: its figures, timeline and import zone.
        await turns(page).first().getByRole('button', { name: inspect }).click();
        await expect(page.getByRole('complementary', { name: inspector })).toBeVisible();
        await page.screenshot({ path: `${artifactsDir}/i18n-layout-${lang}-inspector.png` });
      } else {
        expect(toolbar.height).toBeLessThan(100);
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.screenshot({ path: `${artifactsDir}/i18n-layout-${lang}-${width}-dark.png` });
      }
      await context.close();
    });
  }
}
