import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  conversationWith,
  inContext,
  openApp,
  protocolKeys,
  send,
  storedKeys,
  storedRecord,
  storeRecord,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

/** The conversation pane's scrolling element. */
const pane = (page: Page) => page.locator('.scroller');

/** How far the pane is from its end, in pixels. */
function distanceFromEnd(page: Page): Promise<number> {
  // As the next frame paints it: after the page's own resize observers have kept the end in view (a
  // commit between frames grows the content before they run, and no one sees that moment). Observed
  // last, this observer runs after the page's.
  return pane(page).evaluate(
    (el) =>
      new Promise<number>((resolve) => {
        requestAnimationFrame(() => {
          const painted = new ResizeObserver(() => {
            painted.disconnect();
            resolve(el.scrollHeight - el.scrollTop - el.clientHeight);
          });
          painted.observe(el);
        });
      }),
  );
}

/** The message at the top of the pane, and how far its top is above the pane's top: what the person sees. */
function topMessage(page: Page): Promise<{ id: string; offset: number }> {
  return pane(page).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const messages = [
      ...el.querySelectorAll<HTMLElement>('.messages > [data-message-id], .messages > * > [data-message-id]'),
    ];
    const top = messages.find((m) => m.getBoundingClientRect().bottom > box.top + 1)!;
    return { id: top.dataset.messageId!, offset: Math.round(box.top - top.getBoundingClientRect().top) };
  });
}

/** Whether `locator`'s whole box is inside the viewport (not merely in the DOM). */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return (
    box !== null &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= size.height &&
    box.x + box.width <= size.width
  );
}

/** The shell stays put: the toolbar's protocol picker and the message box are on screen, the page does not scroll. */
async function expectShellInView(page: Page): Promise<void> {
  expect(await inViewport(page, page.getByRole('combobox', { name: 'Protocol' }))).toBe(true);
  expect(await inViewport(page, page.getByRole('textbox', { name: 'Message' }))).toBe(true);
  // Every control at the right-hand edge too: nothing widens the column past the window.
  expect(await inViewport(page, page.getByRole('combobox', { name: 'Reasoning' }))).toBe(true);
  expect(await inViewport(page, page.getByRole('button', { name: 'Send' }))).toBe(true);
  expect(await inViewport(page, page.getByRole('button', { name: 'Settings' }))).toBe(true);
  // The bars themselves, padding included: the column is no wider than the window.
  expect(await inViewport(page, page.locator('.toolbar'))).toBe(true);
  expect(await inViewport(page, page.locator('.composer'))).toBe(true);
  const page_ = await page.evaluate(() => ({
    scrolled: document.scrollingElement!.scrollTop,
    overflow: document.scrollingElement!.scrollHeight - window.innerHeight,
    wide: document.scrollingElement!.scrollWidth - window.innerWidth,
  }));
  expect(page_).toEqual({ scrolled: 0, overflow: 0, wide: 0 });
}

/** How many rows the toolbar's visible items take. */
function toolbarRows(page: Page): Promise<number> {
  return page.locator('header.toolbar').evaluate((toolbar) => {
    const middles = [...toolbar.children]
      .flatMap((child) => {
        const { top, height, width } = child.getBoundingClientRect();
        return width > 0 ? [top + height / 2] : [];
      })
      .sort((a, b) => a - b);
    // Controls of one row share their middle (aligned to the centre), give or take a pixel.
    return middles.filter((middle, i) => i === 0 || middle - middles[i - 1]! > 4).length;
  });
}

async function severalAnswers(page: Page, count: number): Promise<void> {
  await choose(page, 'chat', 'sim-echo');
  for (let i = 0; i < count; i++) {
    await waitForAnswer(await send(page, uniqueText(`Answer number ${i + 1} with a table and some code`)));
    await expectShellInView(page);
  }
  // The pane, and only the pane, has more than a screen of content.
  const overflow = await pane(page).evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(overflow).toBeGreaterThan(200);
}

test('desktop: after several answers the toolbar and the message box stay in the viewport', async ({
  browser,
}) => {
  await inContext(browser, { viewport: { width: 1280, height: 720 } }, async (page) => {
    await openApp(page);
    await severalAnswers(page, 4);
    expect(await distanceFromEnd(page)).toBeLessThan(10);
    await page.screenshot({ path: `${artifactsDir}/layout-desktop.png` });
    // A narrower window beside the sidebar, with the conversation's totals: still one row.
    await page.setViewportSize({ width: 1160, height: 720 });
    expect(await toolbarRows(page)).toBe(1);
    await expectShellInView(page);
  });
});

test('phone, dark: after several answers the toolbar and the message box stay in the viewport', async ({
  browser,
}) => {
  await inContext(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' }, async (page) => {
    await openApp(page);
    await severalAnswers(page, 3);
    await page.screenshot({ path: `${artifactsDir}/layout-phone-dark.png` });
    // The on-screen keyboard: the visible part shrinks; the message box stays in it.
    await page.setViewportSize({ width: 390, height: 500 });
    await expectShellInView(page);
    await page.screenshot({ path: `${artifactsDir}/layout-phone-keyboard.png` });
    // A small phone: a code block's long lines scroll inside it, the column stays the window's width.
    await page.setViewportSize({ width: 360, height: 640 });
    await expectShellInView(page);
    await page.screenshot({ path: `${artifactsDir}/layout-phone-360.png` });
  });
});

/** A long answer streaming, grown past the pane: its turn, its text and the "Jump to latest" button. */
async function longAnswerPastThePane(page: Page, words: string) {
  await openApp(page);
  await choose(page, 'chat', 'sim-long');
  const turn = await send(page, uniqueText(words));
  await expect
    .poll(() => pane(page).evaluate((el) => el.scrollHeight - el.clientHeight))
    .toBeGreaterThan(800);
  return {
    turn,
    text: turn.getByTestId('turn-text'),
    jump: page.getByRole('button', { name: 'Jump to latest' }),
  };
}

test('follows the stream at the bottom, stops on scroll-up, and "Jump to latest" resumes', async ({
  browser,
}) => {
  await inContext(browser, { viewport: { width: 1100, height: 700 } }, async (page) => {
    // Following: the content grows past the pane, and its end stays in view.
    const { turn, text, jump } = await longAnswerPastThePane(page, 'A long answer to follow');
    for (let i = 0; i < 5; i++) {
      expect(await distanceFromEnd(page)).toBeLessThan(60);
      await page.waitForTimeout(150);
    }
    await expect(jump).toBeHidden();
    await page.screenshot({ path: `${artifactsDir}/layout-following.png` });

    // The person scrolls up: the view stays where they put it while output keeps arriving.
    await pane(page).hover();
    await page.mouse.wheel(0, -500);
    await expect(jump).toBeVisible();
    const top = await pane(page).evaluate((el) => el.scrollTop);
    const length = (await text.textContent())!.length;
    await expect.poll(async () => (await text.textContent())!.length).toBeGreaterThan(length + 200);
    expect(Math.abs((await pane(page).evaluate((el) => el.scrollTop)) - top)).toBeLessThan(2);
    expect(await distanceFromEnd(page)).toBeGreaterThan(300);
    await page.screenshot({ path: `${artifactsDir}/layout-scrolled-up.png` });

    // "Jump to latest": back at the end, and following again.
    await jump.click();
    await expect(jump).toBeHidden();
    for (let i = 0; i < 4; i++) {
      await page.waitForTimeout(200);
      expect(await distanceFromEnd(page)).toBeLessThan(60);
    }

    // Not Stop: on a loaded machine the answer may have ended by now, and ending is all this needs.
    await waitForAnswer(turn);
  });
});

// Apart from the journey above: on a loaded machine that one can outlast a whole long answer.
test('scrolling up, then down to the end by hand, resumes following', async ({ browser }) => {
  await inContext(browser, { viewport: { width: 1100, height: 700 } }, async (page) => {
    const { turn, text, jump } = await longAnswerPastThePane(page, 'A long answer to scroll');
    await pane(page).hover();
    await page.mouse.wheel(0, -400);
    await expect(jump).toBeVisible();
    await pane(page).evaluate((el) => el.scrollBy(0, el.scrollHeight));
    await expect(jump).toBeHidden();
    const before = (await text.textContent())!.length;
    await expect.poll(async () => (await text.textContent())!.length).toBeGreaterThan(before + 200);
    expect(await distanceFromEnd(page)).toBeLessThan(60);
    await page.getByRole('button', { name: 'Stop' }).first().click();
    await waitForAnswer(turn);
  });
});

test('each conversation keeps its scroll position when you switch away and back', async ({ browser }) => {
  await inContext(browser, { viewport: { width: 1200, height: 700 } }, async (page) => {
    await openApp(page);
    await severalAnswers(page, 4);
    const firstTitle = await page.locator('.conversation-list li.active .conversation-title').textContent();

    // Somewhere in the middle of the first conversation.
    await pane(page).hover();
    await page.mouse.wheel(0, -700);
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
    await page.waitForTimeout(300);
    const leftAt = await topMessage(page);
    expect(await distanceFromEnd(page)).toBeGreaterThan(300);

    // A second conversation opens at its own end.
    await page.getByRole('button', { name: 'New chat' }).click();
    await waitForAnswer(await send(page, uniqueText('Second conversation')));
    await waitForAnswer(await send(page, uniqueText('Second conversation, more')));
    expect(await distanceFromEnd(page)).toBeLessThan(10);

    // Back to the first: where it was left, not at its end.
    await page.locator('.conversation-open', { hasText: firstTitle! }).click();
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
    await page.waitForTimeout(300);
    const backAt = await topMessage(page);
    expect(backAt.id).toBe(leftAt.id);
    expect(Math.abs(backAt.offset - leftAt.offset)).toBeLessThan(4);

    // And the second again: at its end, as it was left.
    await page.locator('.conversation-list li:not(.active) .conversation-open').first().click();
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeHidden();
    expect(await distanceFromEnd(page)).toBeLessThan(10);
  });
});

interface StoredMessage {
  id: string;
  parentId?: string | null;
  attempts?: { turn: { parts: { kind: string; text?: string }[] } }[];
}

/**
 * Stores the conversation holding `question` again as `count` questions and answers, each a copy of its
 * first, the answer ending in "Marker <n>.": a long conversation, for the reload.
 */
async function lengthen(page: Page, question: string, count: number): Promise<void> {
  for (const key of (await storedKeys(page, 'conversation:')) ?? []) {
    const record = (await storedRecord(page, key)) as { messages: StoredMessage[]; revision?: number };
    if (!JSON.stringify(record).includes(question)) continue;
    const [asked, answered] = record.messages as [StoredMessage, StoredMessage];
    const messages: StoredMessage[] = [];
    let parentId: string | null = null;
    for (let i = 0; i < count; i++) {
      const id = `${asked.id}-${i}`;
      messages.push({ ...asked, id, parentId, text: `Question ${i}` } as StoredMessage);
      // The stored turn holds its text in its parts (where they make it): the marker goes in its text part.
      const marked = (part: { kind: string; text?: string }) =>
        part.kind === 'text' ? { ...part, text: `${part.text}\n\nMarker ${i}.` } : part;
      const attempts = answered.attempts!.map((a) => ({
        ...a,
        turn: { ...a.turn, parts: a.turn.parts.map(marked) },
      }));
      parentId = `${answered.id}-${i}`;
      messages.push({ ...answered, id: parentId, parentId: id, attempts });
    }
    const { selected: _, ...rest } = record as { selected?: unknown };
    await storeRecord(page, key, { ...rest, messages, revision: (record.revision ?? 0) + 1 });
    return;
  }
  throw new Error(`no stored conversation holds ${question}`);
}

test('a long conversation reloads at its end; every answer is there to find, and renders, inspects and copies', async ({
  browser,
}) => {
  await inContext(browser, { viewport: { width: 1200, height: 700 } }, async (page) => {
    await openApp(page);
    await choose(page, 'chat', 'sim-echo');
    const question = uniqueText('A long conversation');
    await conversationWith(page, question);
    await lengthen(page, question, 40);
    await page.reload();

    // At its end, rendered; the answers above it follow, their text there for find-in-page.
    const last = turns(page).last();
    await expect(last).toContainText('Marker 39.');
    await expect(last.locator('.md table')).toBeVisible();
    await expect(turns(page)).toHaveCount(40);
    await expect(turns(page).first()).toContainText('Marker 0.');
    await expect(page.getByTestId('user-message').first()).toHaveText('Question 0');
    await expect.poll(() => distanceFromEnd(page)).toBeLessThan(10);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await expect(jump).toBeHidden();
    await expectShellInView(page);

    // The first answer, far above: rendered once it comes near; its actions work.
    await pane(page).evaluate((el) => el.scrollTo(0, 0));
    const first = turns(page).first();
    await expect(first.locator('.md table')).toBeVisible();
    await expect(jump).toBeVisible();
    await page.screenshot({ path: `${artifactsDir}/layout-long-top.png` });
    await first.getByRole('button', { name: 'Inspect' }).click();
    await expect(page.getByRole('complementary', { name: 'Inspector' })).toBeVisible();
    await page
      .getByRole('complementary', { name: 'Inspector' })
      .getByRole('button', { name: 'Close' })
      .click();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await first.getByRole('button', { name: 'Copy answer' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/Marker 0\.$/);

    await jump.click();
    await expect.poll(() => distanceFromEnd(page)).toBeLessThan(10);
    await expect(jump).toBeHidden();
  });
});

/**
 * How far a select's chosen text falls short of its box (negative: cut off): its text as drawn in its font,
 * its padding, and room for the menu arrow.
 */
function selectSlack(select: Locator): Promise<number> {
  return select.evaluate((el: HTMLSelectElement) => {
    const style = getComputedStyle(el);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = context.measureText(el.selectedOptions[0]!.textContent ?? '').width;
    const arrow = 24;
    return el.clientWidth - text - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
  });
}

for (const { locale, protocol, message } of [
  { locale: 'en-US', protocol: 'Protocol', message: 'Message' },
  { locale: 'es-ES', protocol: 'Protocolo', message: 'Mensaje' },
  { locale: 'zh-CN', protocol: '协议', message: '消息' },
  { locale: 'ja-JP', protocol: 'プロトコル', message: 'メッセージ' },
]) {
  test(`phone, ${locale}: the protocol picker shows each protocol's whole name, the toolbar in two rows`, async ({
    browser,
  }) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await inContext(
        browser,
        { locale, viewport: { width: 390, height: 844 }, colorScheme },
        async (page) => {
          await page.goto('/');
          const picker = page.getByRole('combobox', { name: protocol });
          const box = page.getByRole('textbox', { name: message });
          await expect(box).toBeVisible();
          for (const key of protocolKeys) {
            await picker.selectOption(key);
            expect(await selectSlack(picker), key).toBeGreaterThanOrEqual(0);
          }
          // The drawer's button is an icon with its name: the row it shares with the picker fits any language.
          expect(await toolbarRows(page)).toBe(2);
          expect(await inViewport(page, box)).toBe(true);
          expect(await violations(page, 'header.toolbar')).toEqual([]);
          await page.screenshot({ path: `${artifactsDir}/layout-toolbar-${locale}-390-${colorScheme}.png` });
        },
      );
    }
  });
}
