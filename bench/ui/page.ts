import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';

// What the UI benchmark's cases do with a page, as a person would.

/**
 * Installed before any page script: long tasks, frames and the moment the stream starts. Plain JavaScript
 * in a string: a function would be transpiled with helpers the page does not have.
 */
const INSTRUMENT = `
(() => {
  const w = window;
  w.__longTasks = [];
  w.__frames = [];
  w.__sendAt = -1;
  w.__firstAt = -1;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  // The first text is timed by the frame that paints it, whenever in that frame it came: a page that
  // renders in an animation frame paints in that frame; one that renders in a task paints in the next.
  // The resize observers run after every animation-frame callback and the layout, before the paint.
  let frameNow = -1;
  const shown = () => {
    const text = document.querySelector('[data-testid="turn-text"]');
    return text !== null && (text.textContent || '').trim().length > 0 ? text : null;
  };
  // Once the first text is timed, nothing is observed any more: the page is measured, not the bench.
  const painted = new ResizeObserver(() => {
    if (w.__sendAt >= 0 && w.__firstAt < 0 && shown()) w.__firstAt = frameNow;
    if (w.__firstAt >= 0) painted.disconnect();
  });
  // Watched from the first frame after the send until the first text, never before: a page that is not
  // streaming (a reload, a long list) pays nothing for it.
  let watched = null;
  let added = null;
  const watch = () => {
    if (w.__firstAt >= 0) {
      painted.disconnect();
      return added.disconnect();
    }
    const text = document.querySelector('[data-testid="turn-text"]');
    if (text && text !== watched) {
      watched = text;
      painted.observe(text);
    }
  };
  function frame(t) {
    frameNow = performance.now();
    if (w.__sendAt >= 0) {
      w.__frames.push(t);
      if (w.__firstAt < 0 && shown()) w.__firstAt = frameNow;
      else if (w.__firstAt < 0 && added === null) {
        added = new MutationObserver(watch);
        added.observe(document, { childList: true, subtree: true, characterData: true });
        watch();
      }
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target.getAttribute && event.target.getAttribute('aria-label') === 'Message')
      w.__sendAt = performance.now();
  }, true);
})();
`;

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A page in a context of its own (its own IndexedDB: a new device), instrumented; `options` on top. */
export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  await context.addInitScript({ content: INSTRUMENT });
  return { context, page: await context.newPage() };
}

export async function chooseModel(page: Page, model: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption({ label: 'Chat Completions' });
  await page.getByRole('combobox', { name: 'Model' }).selectOption(model);
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/** Waits for the last answer on the page to finish streaming. */
export async function lastAnswerDone(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const turns = document.querySelectorAll('[data-testid="assistant-turn"]');
    return turns.length > 0 && turns[turns.length - 1]!.getAttribute('aria-busy') === 'false';
  });
}
