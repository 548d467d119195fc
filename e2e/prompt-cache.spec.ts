import { expect, type Page, test } from '@playwright/test';
import { breakdownTokens, expectedDollars, shownUsage, usd } from './costs.ts';
import {
  artifactsDir,
  choose,
  inContext,
  newTurn,
  openApp,
  type ProtocolKey,
  protocolKeys,
  requestsContaining,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

// "Cache the conversation" (Parameters): what each protocol sends for it, and the cache reads the simulator
// then reports on the next turn, shown and priced on the usage line.

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Parameters' });
const cacheSwitch = (page: Page) => dialog(page).getByRole('checkbox', { name: /^Cache the conversation/ });

/** Turns the open chat's cache switch on or off through its Parameters, as a person would. */
async function setCache(page: Page, on: boolean): Promise<void> {
  await page.getByRole('button', { name: 'Parameters', exact: true }).click();
  await cacheSwitch(page).setChecked(on);
  await dialog(page).getByRole('button', { name: 'Save' }).click();
  await expect(dialog(page)).toHaveCount(0);
}

/** Sends `text` in the open chat: its answer and the body the simulator received with it. */
async function turn(page: Page, text: string) {
  const answer = await waitForAnswer(await send(page, text));
  const [request] = await requestsContaining(page, text);
  expect(request).toBeDefined();
  return { answer, body: request?.body as Record<string, unknown> };
}

type Block = Record<string, unknown>;
type Body = Record<string, unknown> & { messages?: { role: string; content: Block[] }[] };

/** What the body asks for caching, by protocol: the key, or where the breakpoints are. */
function caching(protocol: ProtocolKey, body: Body): unknown {
  if (protocol !== 'messages') return body.prompt_cache_key;
  return (body.messages ?? []).flatMap((m, i) =>
    m.content.flatMap((b, j) => (b.cache_control ? [[i, j, b.cache_control]] : [])),
  );
}

for (const protocol of protocolKeys) {
  test(`${protocol}: the switch changes the request, the second turn reads the cache and is priced so`, async ({
    page,
  }) => {
    await openApp(page);
    await choose(page, protocol, 'sim-echo');
    await setCache(page, true);
    const one = await turn(page, uniqueText(`cache one ${protocol}`));
    const two = await turn(page, uniqueText(`cache two ${protocol}`));
    const first = await shownUsage(one.answer);
    const second = await shownUsage(two.answer);

    if (protocol === 'messages') {
      const ephemeral = { type: 'ephemeral' };
      expect(caching(protocol, one.body)).toEqual([[0, 0, ephemeral]]);
      // The last user turn, where this turn is written, and the one before, where the first was.
      expect(caching(protocol, two.body)).toEqual([
        [0, 0, ephemeral],
        [2, 0, ephemeral],
      ]);
      // Anthropic: the first turn writes its prompt, the second reads exactly that.
      expect(first.written).toBeGreaterThan(0);
      expect(first.cached).toBe(0);
      expect(second.cached).toBe(first.written);
      expect(second.written).toBeGreaterThan(0);
    } else {
      const key = caching(protocol, one.body);
      expect(key).toMatch(/^hopbase-chat-[0-9a-f]{16}$/);
      expect(caching(protocol, two.body)).toBe(key);
      // OpenAI: reads, part of the input; the second turn reads the first's whole prompt.
      expect(first.cached).toBe(0);
      expect(second.cached).toBe(first.input);
      expect(second.written).toBe(0);
    }
    expect(second.input).toBeGreaterThan(second.cached);
    await expect(two.answer.getByTestId('turn-usage')).toContainText(
      `${second.cached.toLocaleString('en')} cached`,
    );

    // The breakdown splits those reads out at the cache price, and the dollars are the table's.
    const lines = await breakdownTokens(two.answer);
    expect(lines.cached).toBe(second.cached);
    const dollars = expectedDollars('sim-echo', lines);
    await expect(two.answer.getByTestId('turn-cost')).toHaveText(usd(dollars));

    // Kept with the conversation over a reload; off, the next request asks for nothing.
    await page.reload();
    await page.getByRole('button', { name: 'Parameters', exact: true }).click();
    await expect(cacheSwitch(page)).toBeChecked();
    await page.keyboard.press('Escape');
    await setCache(page, false);
    const three = await turn(page, uniqueText(`cache three ${protocol}`));
    expect(JSON.stringify(three.body)).not.toMatch(/cache_control|prompt_cache_key/);
  });
}

/** The words the screenshots' test finds things by, in each of its languages. */
const words = {
  en: {
    protocol: 'Protocol',
    model: 'Model',
    message: 'Message',
    parameters: 'Parameters',
    save: 'Save',
    cache: /^Cache the conversation/,
  },
  ja: {
    protocol: 'プロトコル',
    model: 'モデル',
    message: 'メッセージ',
    parameters: 'パラメーター',
    save: '保存',
    cache: /^会話をキャッシュする/,
  },
};

for (const [name, language, options] of [
  ['desktop', 'en', { colorScheme: 'light', viewport: { width: 1280, height: 800 } }],
  ['phone-dark-ja', 'ja', { colorScheme: 'dark', viewport: { width: 390, height: 844 }, locale: 'ja' }],
] as const) {
  test(`the switch in Parameters, and the breakdown with cache reads: ${name}`, async ({ browser }) => {
    await inContext(browser, options, async (page) => {
      const w = words[language];
      await page.goto('/');
      await page.getByRole('combobox', { name: w.protocol }).selectOption({ label: 'Anthropic Messages' });
      await page.getByRole('combobox', { name: w.model }).selectOption('sim-echo');
      const open = page.getByRole('button', { name: w.parameters, exact: true });
      await open.click();
      const panel = page.getByRole('dialog', { name: w.parameters });
      const toggle = panel.getByRole('checkbox', { name: w.cache });
      await toggle.check();
      await toggle.scrollIntoViewIfNeeded();
      await expect(toggle).toBeInViewport();
      expect(await violations(page)).toEqual([]);
      expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      await page.screenshot({ path: `${artifactsDir}/prompt-cache-dialog-${name}.png` });
      await panel.getByRole('button', { name: w.save }).click();
      await expect(panel).toHaveCount(0);

      const ask = (text: string) =>
        newTurn(page, async () => {
          const box = page.getByRole('textbox', { name: w.message });
          await box.fill(text);
          await box.press('Enter');
        }).then(waitForAnswer);
      await ask(uniqueText('cache shot one'));
      const answer = await ask(uniqueText('cache shot two'));
      await answer.getByTestId('turn-cost').focus();
      const tip = answer.getByRole('tooltip');
      await expect(tip).toBeVisible();
      await expect(tip.locator('tr[data-line="cached"]')).toBeVisible();
      await expect(tip.locator('tr[data-line="cacheWrite"]')).toBeVisible();
      await expect(tip).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: `${artifactsDir}/prompt-cache-breakdown-${name}.png` });
    });
  });
}
