import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  onDarkPhone,
  openApp,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';
import { serveUrl } from './serve.ts';

// The simulator answers a message with the word "formula" with formulas in all four notations
// (simulator/answer.ts): $…$ and \(…\) inline, $$…$$ and \[…\] displayed, prices, and unreadable TeX.

/** The answer's text outside the rendered formulas. */
function prose(turn: Locator): Promise<string> {
  return turn.getByTestId('turn-text').evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const formula of copy.querySelectorAll('.katex')) formula.remove();
    return copy.textContent ?? '';
  });
}

async function formulaAnswer(page: Page): Promise<Locator> {
  await choose(page, 'chat', 'sim-echo');
  const turn = await waitForAnswer(await send(page, uniqueText('Show me a formula')));
  // Inline: E = mc², sin θ ≈ θ, ax² + bx + c = 0; displayed: the Gaussian integral and the quadratic formula.
  await expect(turn.locator('.katex')).toHaveCount(5);
  await expect(turn.locator('.katex-display')).toHaveCount(2);
  return turn;
}

async function expectFormulasRendered(turn: Locator): Promise<void> {
  // Screen readers get MathML, with the TeX as its annotation.
  await expect(turn.locator('math annotation')).toHaveText([
    'E = mc^2',
    '\\sin\\theta \\approx \\theta',
    '\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}',
    'ax^2 + bx + c = 0',
    'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  ]);
  // TeX KaTeX cannot read is shown as written, marked as an error.
  await expect(turn.locator('.katex-error')).toHaveText('\\frac{1}{2');
  const text = await prose(turn);
  expect(text).toContain('the book costs $5 and the course $10, between $3 and $4 million in all.');
  // No delimiter is left over: every formula was rendered.
  expect(text.replace('$5 and the course $10, between $3 and $4', '')).not.toMatch(/\$|\\\(|\\\[/);
}

test('formulas render with KaTeX, prices stay text, and it passes axe in light mode', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
  });
  await openApp(page);
  // An answer without formulas does not fetch KaTeX.
  await choose(page, 'chat', 'sim-echo');
  await waitForAnswer(await send(page, uniqueText('No maths here, it costs $5 and $10')));
  expect(scripts.filter((s) => s.includes('mathRenderer'))).toEqual([]);

  const turn = await formulaAnswer(page);
  await expectFormulasRendered(turn);
  expect(scripts.filter((s) => s.includes('mathRenderer'))).toHaveLength(1);
  expect(await violations(page)).toEqual([]);
  await turn.locator('.katex-display').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifactsDir}/math-light.png` });
});

test('formulas in dark mode on a phone: no page overflow, axe passes', async ({ browser }) => {
  // A displayed formula wider than the column scrolls on its own; the page does not.
  await onDarkPhone(
    browser,
    async (page) => {
      const turn = await formulaAnswer(page);
      await expectFormulasRendered(turn);
      await turn.locator('.katex-display').last().scrollIntoViewIfNeeded();
    },
    'math-dark-phone.png',
  );
});

test('formulas under the production server: KaTeX, its styles and fonts load with no CSP violation', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text()))
      refused.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy: ${e.effectiveDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(serveUrl);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const turn = await formulaAnswer(page);
  await expectFormulasRendered(turn);
  // KaTeX's own fonts, not a fallback: they loaded from the server.
  expect(await page.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);
  await page.evaluate(() => document.fonts.ready);
  expect(refused).toEqual([]);
});
