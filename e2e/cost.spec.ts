import { expect, type Locator, type Page, test } from '@playwright/test';
import { breakdownTokens, expectedDollars, prices, shownUsage, usd } from './costs.ts';
import {
  choose,
  openApp,
  type ProtocolKey,
  protocolKeys,
  send,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

// What answers cost, on the simulator's own price table (read in costs.ts):
// the dollars are the tokens the answer shows times the table's prices, on every protocol.

async function answer(page: Page, protocol: ProtocolKey, model: string): Promise<Locator> {
  await choose(page, protocol, model);
  return waitForAnswer(await send(page, uniqueText(`cost ${protocol} ${model}`)));
}

for (const protocol of protocolKeys) {
  test(`${protocol}: dollars are the tokens shown times the table's prices, the conversation's total their sum`, async ({
    page,
  }) => {
    await openApp(page);
    let total = 0;
    for (const model of ['sim-cached', 'sim-reasoning']) {
      const turn = await answer(page, protocol, model);
      const shown = await shownUsage(turn);
      const lines = await breakdownTokens(turn);
      // The breakdown splits exactly the tokens the usage line shows, counted the protocol's way.
      expect(
        (lines.input ?? 0) + (lines.cached ?? 0) + (lines.cacheWrite ?? 0) + (lines.cacheWrite1h ?? 0),
      ).toBe(shown.input);
      expect((lines.output ?? 0) + (lines.reasoning ?? 0)).toBe(shown.output);
      expect(lines.cached ?? 0).toBe(shown.cached);
      expect((lines.cacheWrite ?? 0) + (lines.cacheWrite1h ?? 0)).toBe(shown.written);
      if (model === 'sim-cached') {
        expect(shown.cached).toBeGreaterThan(0);
        // Only Anthropic reports cache writes, split by how long they are kept.
        if (protocol === 'messages') expect(lines.cacheWrite1h ?? 0).toBeGreaterThan(0);
        else expect(shown.written).toBe(0);
      }
      const dollars = expectedDollars(model, lines);
      expect(dollars).toBeGreaterThan(0);
      await expect(turn.getByTestId('turn-cost')).toHaveText(usd(dollars));
      await expect(turn.getByRole('button', { name: `Cost: ${usd(dollars)}` })).toBeVisible();
      total += dollars;
      await expect(page.getByTestId('conversation-cost')).toHaveText(usd(total));
    }

    // The inspector shows the attempt's cost too.
    const last = page.getByTestId('assistant-turn').last();
    await last.getByRole('button', { name: 'Inspect' }).click();
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    await expect(inspector.getByTestId('figure-cost')).toHaveText(
      await last.getByTestId('turn-cost').innerText(),
    );
  });
}

test('an unpriced model says "price unknown", never $0, and the total says it is a floor', async ({
  page,
}) => {
  await openApp(page);
  const priced = await answer(page, 'chat', 'sim-echo');
  const figure = await priced.getByTestId('turn-cost').innerText();
  const unpriced = await answer(page, 'responses', 'sim-unpriced');
  await expect(unpriced.getByTestId('turn-cost')).toHaveText('price unknown');
  await unpriced.getByTestId('turn-cost').hover();
  await expect(unpriced.getByRole('tooltip')).toContainText('No price for sim-unpriced');
  await expect(page.getByTestId('conversation-cost')).toHaveText(`at least ${figure}`);
});

test('the context gauge by the message box: the window from the table, and a warning before it is full', async ({
  page,
}) => {
  await openApp(page);
  const turn = await answer(page, 'chat', 'sim-echo');
  const { input, output } = await shownUsage(turn);
  const meter = page.getByRole('meter', { name: 'Context window' });
  const window = prices['sim-echo']?.max_input_tokens ?? 0;
  const fill = (n: number) => `${n.toLocaleString('en')} of ${window.toLocaleString('en')} tokens`;
  await expect(meter).toHaveAttribute('aria-valuetext', new RegExp(`^${fill(input + output)} `));
  // A draft of about 95% of the window: the warning, before anything is sent.
  const draft = 'x'.repeat(Math.ceil(window * 0.95) * 4 - (input + output) * 4);
  await page.getByRole('textbox', { name: 'Message' }).fill(draft);
  await expect(page.getByRole('status').filter({ hasText: 'nearly full' })).toBeVisible();
});

test('a person’s own price in Settings reprices the answers at once', async ({ page }) => {
  await openApp(page);
  const turn = await answer(page, 'messages', 'sim-unpriced');
  await expect(turn.getByTestId('turn-cost')).toHaveText('price unknown');
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog
    .getByLabel('Your prices')
    .fill('{"sim-unpriced": {"input_cost_per_token": 1e-5, "output_cost_per_token": 2e-5}, "bad": 3}');
  await expect(
    dialog.getByText('1 model priced here. 1 entry was left out: bad is not an object.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  const shown = await shownUsage(turn);
  await expect(turn.getByTestId('turn-cost')).toHaveText(usd(shown.input * 1e-5 + shown.output * 2e-5));
});
