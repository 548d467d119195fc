import { expect, type Page, test } from '@playwright/test';
import { longAnswer } from '../simulator/answer.ts';
import { splitTokens } from '../simulator/tokens.ts';
import { artifactsDir, choose, send, storedTurns, turns, uniqueText } from './helpers.ts';
import { simUrl } from './serve.ts';
import { type ServerProcess, serverReady, spawnServer } from './servers.ts';

// Answers that outlive the tab (docs/relay.md): the production server runs each answer to its end, and the
// page picks it up after a reload, a network gap or the server's own restart. Each journey has a server
// process of its own (single-person mode, the simulator behind it as the gateway), so that one can be
// killed without touching the others.

const base = Number(process.env.E2E_PORT ?? 4317);
test.describe.configure({ mode: 'serial', timeout: 150_000 });

let server: ServerProcess;
test.beforeEach(async () => {
  server = spawnServer(base + 6, {});
  await serverReady(server);
});
test.afterEach(() => server.stop());

/** The requests the gateway (the simulator) received carrying `text`. */
async function gatewayRequests(page: Page, text: string): Promise<number> {
  const log = (await (await page.request.get(`${simUrl}/__sim/requests`)).json()) as { body: unknown }[];
  return log.filter((request) => JSON.stringify(request.body).includes(text)).length;
}

/** Starts a long answer and returns once some of it is on the page. */
async function longAnswerStarted(page: Page, prompt: string) {
  await page.goto(server.url);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await choose(page, 'chat', 'sim-long');
  const turn = await send(page, prompt);
  await expect(turn.getByRole('heading', { name: /^3\. / })).toBeVisible();
  return turn;
}

/** The answer ended exactly as the gateway sent it (text, no tool call, its usage), read from one request. */
async function endsWhole(page: Page, prompt: string) {
  await expect(turns(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 90_000 });
  await expect(turns(page).last().getByText('That is the whole plan, end to end.')).toBeVisible();
  await expect
    .poll(async () => (await storedTurns(page, prompt))?.map((turn) => turn.status))
    .toEqual(['complete']);
  const [turn] = (await storedTurns(page, prompt)) ?? [];
  expect(turn).toMatchObject({
    text: longAnswer(prompt),
    toolCalls: [],
    // The simulator counts a token per piece it streams.
    usage: { outputTokens: splitTokens(longAnswer(prompt)).length, inputTokens: expect.any(Number) },
  });
  expect(await gatewayRequests(page, prompt)).toBe(1);
}

test('a reload mid-answer: the answer goes on on the server, and the page picks it up where it is', async ({
  page,
}) => {
  const prompt = uniqueText('relay reload');
  await longAnswerStarted(page, prompt);
  await page.reload();
  await expect(turns(page).last()).toHaveAttribute('aria-busy', 'true');
  await endsWhole(page, prompt);
  await expect(page.getByTestId('interruption-banner')).toHaveCount(0);
});

test('the network gone mid-answer, on a phone in the dark: the page says it reconnects, and goes on where it was', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  const page = await context.newPage();
  const prompt = uniqueText('relay offline');
  const turn = await longAnswerStarted(page, prompt);
  await context.setOffline(true);
  const banner = turn.getByTestId('reconnecting-banner');
  await expect(banner).toContainText('Reconnecting to the server.');
  await expect(turn.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await banner.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifactsDir}/relay-reconnecting-phone-dark.png` });
  await context.setOffline(false);
  await expect(banner).toHaveCount(0);
  await endsWhole(page, prompt);
  await context.close();
});

test('the server process dies mid-answer: the answer ends interrupted with its text kept, and Retry works', async ({
  page,
}) => {
  const prompt = uniqueText('relay crash');
  const turn = await longAnswerStarted(page, prompt);
  await server.stop('SIGKILL');
  await expect(turn.getByTestId('reconnecting-banner')).toBeVisible();
  server = spawnServer(base + 6, {});
  await serverReady(server);
  // The new process never ran this answer: the page says what happened and keeps what it had.
  const banner = turn.getByTestId('interruption-banner');
  await expect(banner).toContainText('the server no longer has this answer');
  await expect(turn.getByRole('heading', { name: /^3\. / })).toBeVisible();
  await banner.getByRole('button', { name: 'Retry' }).click();
  // A whole long answer again: about 25 s on a quiet machine.
  await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 90_000 });
  await expect(turn.getByText('That is the whole plan, end to end.')).toBeVisible();
  expect(await gatewayRequests(page, prompt)).toBe(2);
});
