import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  newTurn,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  setParameters,
  setSettings,
  turns,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

/**
 * Reasoning models end to end on sim-reasoning, which refuses (as the real APIs do) a follow-up that does
 * not carry its reasoning state back unchanged: each protocol asks for reasoning, streams it, calls the
 * tool, and completes the tool loop.
 */

const effortParams = {
  chat: { reasoning_effort: 'high' },
  responses: { reasoning: { effort: 'high', summary: 'auto' }, include: ['reasoning.encrypted_content'] },
  messages: { thinking: { type: 'enabled', budget_tokens: 16384 } },
} as const;

type Body = Record<string, unknown>;

async function chooseReasoning(page: Page, level: 'Off' | 'Low' | 'Medium' | 'High'): Promise<void> {
  await page.getByRole('combobox', { name: 'Reasoning' }).selectOption({ label: level });
}

/** Sends a question, waits for the tool call, sends the result; returns both answers. */
async function toolLoop(page: Page, question: string): Promise<{ first: Locator; final: Locator }> {
  const first = await waitForAnswer(await send(page, question));
  const card = first.getByRole('region', { name: /Tool call get_weather/ });
  await expect(card).toBeVisible();
  await card.getByRole('textbox', { name: 'Result for get_weather' }).fill('{"temperature": 21}');
  const final = await waitForAnswer(
    await newTurn(page, () => card.getByRole('button', { name: 'Send result' }).click()),
  );
  return { first, final };
}

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: Reasoning High streams reasoning, calls the tool and completes the loop with its reasoning state`, async ({
    page,
  }) => {
    await openApp(page);
    await choose(page, protocol, 'sim-reasoning');
    await chooseReasoning(page, 'High');
    const question = uniqueText('Weather in Paris?');
    const { first, final } = await toolLoop(page, question);

    // The first answer streamed its reasoning, then called the tool.
    const reasoning = first.locator('details.reasoning');
    await expect(reasoning.locator('summary')).toHaveText('Reasoning');
    await reasoning.locator('summary').click();
    await expect(reasoning).toContainText('Checking the plan'); // the part only High thinks
    // Reasoning tokens, where the protocol reports them (Anthropic counts them in output tokens).
    if (protocol !== 'messages') await expect(first.getByTestId('turn-usage')).toContainText('reasoning');
    if (protocol === 'messages') await page.screenshot({ path: `${artifactsDir}/reasoning-tool-call.png` });

    // The follow-up completed: no error, the result quoted, reasoning of its own.
    await expect(final.getByTestId('interruption-banner')).toHaveCount(0);
    await expect(final.getByTestId('turn-text')).toContainText('"temperature": 21');
    await expect(final.locator('details.reasoning summary')).toHaveText('Reasoning');

    const requests = await requestsContaining(page, question);
    expect(requests).toHaveLength(2);
    const [ask, followUp] = requests.map((r) => r.body as Body);
    for (const body of [ask, followUp]) expect(body).toMatchObject(effortParams[protocol]);
    const sent = JSON.stringify(followUp);
    if (protocol === 'chat') {
      // Chat has no reasoning state, and its reasoning text never goes back.
      expect(sent).not.toMatch(/reasoning_content|Understanding the request/);
    } else if (protocol === 'messages') {
      const assistant = ((followUp?.messages ?? []) as { role: string; content: Body[] }[])[1];
      expect(assistant?.role).toBe('assistant');
      expect(assistant?.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
      expect(assistant?.content[0]?.thinking).toMatch(/^\*\*Understanding the request\*\*/);
      expect(String(assistant?.content[0]?.signature).length).toBeGreaterThan(100);
    } else {
      const input = (followUp?.input ?? []) as Body[];
      expect(input.map((item) => item.type ?? item.role)).toEqual([
        'user',
        'reasoning',
        'assistant',
        'function_call',
        'function_call_output',
      ]);
      expect(input[1]?.id).toMatch(/^rs_/);
      expect(input[1]?.encrypted_content).toMatch(/^gAAAAAB/);
    }
  });
}

test('switching protocol in the middle of a tool loop: the new protocol starts without the reasoning state, and says so', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-reasoning');
  await chooseReasoning(page, 'Medium');
  const question = uniqueText('Weather in Rome?');
  const first = await waitForAnswer(await send(page, question));
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption({ label: protocolLabels.responses });
  const card = first.getByRole('region', { name: /Tool call get_weather/ });
  await card.getByRole('textbox', { name: 'Result for get_weather' }).fill('{"temperature": 25}');
  const final = await waitForAnswer(
    await newTurn(page, () => card.getByRole('button', { name: 'Send result' }).click()),
  );
  await expect(final.getByTestId('interruption-banner')).toHaveCount(0);
  await expect(final.getByTestId('reasoning-note')).toHaveText(
    'Responses starts without the reasoning state of the earlier Anthropic Messages answers: thinking signatures and encrypted reasoning only work with the protocol that made them. Their reasoning is still shown above.',
  );
  // The earlier answer keeps its reasoning on screen.
  await expect(first.locator('details.reasoning summary')).toHaveText('Reasoning');
  const [, followUp] = await requestsContaining(page, question);
  expect(followUp?.path).toBe('/v1/responses');
  expect(JSON.stringify(followUp?.body)).not.toMatch(/signature|"thinking"/);
  await page.screenshot({ path: `${artifactsDir}/reasoning-protocol-switch.png` });
});

test('a thinking budget the output limit cannot hold is not sent: the answer says what to change, and Retry sends it', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-reasoning');
  await chooseReasoning(page, 'High');
  await setSettings(page, { 'Max output tokens': '4000' });
  const question = uniqueText('Think it through');
  const turn = await waitForAnswer(await send(page, question));
  const banner = turn.getByTestId('interruption-banner');
  await expect(banner).toContainText('Not sent: the API would refuse these settings.');
  await expect(banner).toContainText('Max output tokens is 4,000, the high budget 16,384');
  expect(await requestsContaining(page, question)).toHaveLength(0);

  // What the banner says to change, where it says: the conversation's own parameters.
  await setParameters(page, { 'Max output tokens': '' });
  await banner.getByRole('button', { name: 'Retry' }).click();
  await waitForAnswer(turn);
  await expect(turn.getByTestId('interruption-banner')).toHaveCount(0);
  await expect(turn.getByTestId('turn-text')).toContainText('get_weather');
  const [request] = await requestsContaining(page, question);
  expect(request?.body).toMatchObject({ max_tokens: 16384 + 4096, thinking: { budget_tokens: 16384 } });
});

test('each conversation remembers its reasoning level, protocol and model', async ({ page }) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-reasoning');
  await chooseReasoning(page, 'High');
  const firstTitle = uniqueText('First chat');
  await waitForAnswer(await send(page, firstTitle));

  await page.getByRole('button', { name: 'New chat' }).click();
  await choose(page, 'chat', 'sim-echo');
  await chooseReasoning(page, 'Off');
  await waitForAnswer(await send(page, uniqueText('Second chat')));

  await page.locator('button.conversation-open', { hasText: firstTitle }).click();
  await expect(page.getByRole('combobox', { name: 'Reasoning' })).toHaveValue('high');
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('messages');
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('sim-reasoning');
  await expect(turns(page)).toHaveCount(1);
});

test('the toolbar with the Reasoning select, at desktop, tablet and phone width', async ({ browser }) => {
  // The tallest the toolbar may be: one row on a desktop, two below (buttons, then the three selects).
  for (const [name, viewport, maxHeight] of [
    ['desktop', { width: 1280, height: 800 }, 60],
    ['tablet', { width: 1024, height: 768 }, 110],
    ['phone', { width: 390, height: 844 }, 100],
  ] as const) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await openApp(page);
    await choose(page, 'messages', 'sim-reasoning');
    await chooseReasoning(page, 'High');
    await waitForAnswer(await send(page, uniqueText('Weather?')));
    const select = page.getByRole('combobox', { name: 'Reasoning' });
    await expect(select).toBeInViewport();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await page.screenshot({ path: `${artifactsDir}/reasoning-toolbar-${name}.png` });
    const height = (await page.locator('header.toolbar').boundingBox())?.height ?? 0;
    expect(height).toBeLessThan(maxHeight);
    await context.close();
  }
});
