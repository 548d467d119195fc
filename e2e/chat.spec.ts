import { expect, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  newTurn,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  setSettings,
  storedAttempts,
  turns,
  uniqueText,
  waitForAnswer,
  watchStreaming,
} from './helpers.ts';

const usagePattern = /^[1-9][\d,]* in · [1-9][\d,]* out · [1-9][\d,]* total/;

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: a message streams into an answer with its usage`, async ({ page }) => {
    await openApp(page);
    if (protocol === 'chat') await page.screenshot({ path: `${artifactsDir}/empty.png` });
    await choose(page, protocol, 'sim-echo');
    const text = uniqueText('Tell me about streaming');
    const sawStreaming = await watchStreaming(page);
    const turn = await send(page, text);
    if (protocol === 'chat') await page.screenshot({ path: `${artifactsDir}/streaming.png` });
    await waitForAnswer(turn);
    expect(await sawStreaming()).toBe(true);
    await expect(turn.getByRole('table')).toBeVisible();
    await expect(turn.getByRole('heading').first()).toBeVisible();
    await expect(turn.getByTestId('turn-usage')).toHaveText(usagePattern);
    await expect(turn).toContainText(protocolLabels[protocol]);
    await page.screenshot({ path: `${artifactsDir}/finished-${protocol}.png` });

    // What the app sent is the protocol's own request shape.
    const [request] = await requestsContaining(page, text);
    expect(request?.path).toBe(
      { chat: '/v1/chat/completions', responses: '/v1/responses', messages: '/v1/messages' }[protocol],
    );
    const body = request?.body as Record<string, unknown>;
    expect(body.stream).toBe(true);
    if (protocol === 'chat') expect(body.stream_options).toEqual({ include_usage: true });
    if (protocol === 'messages') expect(body.max_tokens).toBeGreaterThan(0);
  });
}

test('switching protocol mid-conversation converts the history and continues', async ({ page }) => {
  await openApp(page);
  const first = uniqueText('First question');
  await choose(page, 'chat', 'sim-echo');
  await waitForAnswer(await send(page, first));

  for (const protocol of ['responses', 'messages'] as const) {
    await choose(page, protocol, 'sim-echo');
    const next = uniqueText(`Follow-up via ${protocol}`);
    const turn = await waitForAnswer(await send(page, next));
    await expect(turn).toContainText(protocolLabels[protocol]);
    await expect(turn.getByTestId('turn-usage')).toHaveText(usagePattern);
    const [request] = await requestsContaining(page, next);
    const history = JSON.stringify(request?.body);
    expect(history).toContain(first);
  }
  await expect(turns(page)).toHaveCount(3);
  await expect(turns(page).nth(0)).toContainText('Chat Completions');
  await expect(turns(page).nth(2)).toContainText('Anthropic Messages');
});

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: a full tool loop on sim-tools`, async ({ page }) => {
    await openApp(page);
    await choose(page, protocol, 'sim-tools');
    const turn = await waitForAnswer(await send(page, uniqueText("What's the weather in Paris?")));
    const card = turn.getByRole('region', { name: /Tool call get_weather/ });
    await expect(card).toBeVisible();
    await expect(card).toContainText('"city"');
    if (protocol === 'chat') await page.screenshot({ path: `${artifactsDir}/tool-call.png` });

    await card
      .getByRole('textbox', { name: 'Result for get_weather' })
      .fill('{"temperature": 21, "sky": "clear"}');
    const final = await waitForAnswer(
      await newTurn(page, () => card.getByRole('button', { name: 'Send result' }).click()),
    );
    await expect(turns(page)).toHaveCount(2);
    await expect(final).toContainText('21');
    await expect(final.getByTestId('turn-usage')).toHaveText(usagePattern);
  });
}

test('a reload keeps the conversation intact', async ({ page }) => {
  await openApp(page);
  await choose(page, 'responses', 'sim-echo');
  const text = uniqueText('Remember this');
  const turn = await waitForAnswer(await send(page, text));
  const answer = (await turn.getByTestId('turn-text').textContent()) ?? '';
  const usage = await turn.getByTestId('turn-usage').innerText();
  // Persistence is debounced: wait until IndexedDB holds the finished answer.
  await expect
    .poll(async () => (await storedAttempts(page, text))?.map((a) => a.status))
    .toEqual(['complete']);

  // The markdown renderer is a chunk of its own: slow it down, and the first paint must still wait for it
  // (the answer's table, not a flash of plain text).
  let slowed = 0;
  await page.route(/\/assets\/Markdown-[^/]*\.js$/, async (route) => {
    slowed++;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.reload();
  // The app itself, not the picture of the last screen painted before it (e2e/firstScreen.spec.ts).
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(page.getByTestId('user-message')).toContainText(text);
  const restored = turns(page).last();
  expect(await restored.getByRole('table').count()).toBe(1);
  expect(slowed).toBe(1);
  await expect(restored.getByTestId('turn-text')).toHaveText(answer);
  await expect(restored.getByTestId('turn-usage')).toHaveText(usage);
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toContainText(text.slice(0, 20));
});

test('regenerate sends the same request again into a new version of the answer; both kept, both billed', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'responses', 'sim-echo');
  const text = uniqueText('Once more');
  const turn = await waitForAnswer(await send(page, text));
  const usage = await turn.getByTestId('turn-usage').innerText();
  await turn.getByRole('button', { name: 'Regenerate' }).click();
  const versions = turn.getByRole('group', { name: 'Versions of this answer' });
  await expect(versions).toContainText('Version 2 of 2');
  await waitForAnswer(turn);
  await expect(turn.getByTestId('turn-text')).toContainText(text);

  const requests = await requestsContaining(page, text);
  expect(requests).toHaveLength(2);
  expect(requests[1]?.rawSha256).toBe(requests[0]?.rawSha256);
  // The same answer again costs the same again: the conversation is billed twice the tokens of one.
  const [input, output] = [...usage.matchAll(/([\d,]+) (in|out)/g)].map((m) =>
    Number(m[1]!.replace(/,/g, '')),
  );
  await expect(page.getByTestId('conversation-usage')).toContainText(
    `${(2 * input!).toLocaleString('en-US')} in · ${(2 * output!).toLocaleString('en-US')} out`,
  );
  // The first answer is kept, one step back.
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(versions).toContainText('Version 1 of 2');
  await expect(turn.getByTestId('turn-usage')).toHaveText(usage);
});

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: an answer cut at the token limit says so`, async ({ page }) => {
    await openApp(page);
    // 16: the least Responses takes (its `responsesParameters`); the simulator cuts the echo there.
    await setSettings(page, { 'Max output tokens': '16' });
    await choose(page, protocol, 'sim-echo');
    const turn = await waitForAnswer(await send(page, uniqueText('Tell me everything')));
    await expect(turn.getByRole('note')).toContainText('The answer hit the output token limit');
    await expect(turn.getByTestId('turn-usage')).toContainText(/\b16 out\b/);
    if (protocol === 'messages') await page.screenshot({ path: `${artifactsDir}/token-limit.png` });
  });
}

test('stop keeps the partial answer', async ({ page }) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-long');
  const turn = await send(page, uniqueText('Write a lot'));
  await expect(turn.getByTestId('turn-text')).toContainText(/\w{3,}/);
  await page.getByRole('button', { name: 'Stop' }).first().click();
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect(turn.getByRole('alert')).toContainText('Stopped');
  await expect(turn.getByTestId('turn-text')).toContainText(/\w{3,}/);
});

test('dark mode follows the system setting', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await openApp(page);
  await choose(page, 'chat', 'sim-reasoning');
  await waitForAnswer(await send(page, uniqueText('Explain SSE')));
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(250, 250, 250)');
  await page.screenshot({ path: `${artifactsDir}/dark.png` });
  await context.close();
});

test('a phone-sized screen still chats', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 780 } });
  const page = await context.newPage();
  await openApp(page);
  const turn = await waitForAnswer(await send(page, uniqueText('Hello from a phone')));
  await expect(turn.getByTestId('turn-usage')).toHaveText(usagePattern);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await page.screenshot({ path: `${artifactsDir}/phone.png` });
  await context.close();
});

test('a reload during a stream keeps the partial answer, marked interrupted, and Retry still works', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-long');
  const text = uniqueText('A long one');
  const turn = await send(page, text);
  await expect(turn.getByTestId('turn-text')).toContainText(/\w{3,}/);
  // Persistence is debounced: wait until IndexedDB holds some of the answer, still streaming.
  await expect
    .poll(async () => (await storedAttempts(page, text))?.at(-1))
    .toEqual({ status: 'streaming', text: expect.stringMatching(/\w{3,}/) });

  await page.reload();
  const restored = turns(page).last();
  await expect(restored).toHaveAttribute('aria-busy', 'false');
  await expect(restored.getByRole('alert')).toContainText('Interrupted by a reload');
  await expect(restored.getByTestId('turn-text')).toContainText(/\w{3,}/);

  // The request was stored with the answer: Retry sends it again after the reload.
  await restored.getByRole('button', { name: 'Retry' }).click();
  await expect(restored).toContainText('Attempt 2 of 2');
  await expect(restored).toHaveAttribute('aria-busy', 'true');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(restored).toHaveAttribute('aria-busy', 'false');
});
