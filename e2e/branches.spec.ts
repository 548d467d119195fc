import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

/**
 * Edit and branch: an edited message and a regenerated answer are versions beside the original, the
 * conversation follows the version chosen, and each request sends exactly that branch (read back from
 * the simulator's log).
 */

const userMessages = (page: Page) => page.getByTestId('user-message');
const questionVersions = (page: Page) => page.getByRole('group', { name: 'Versions of your message' });
const answerVersions = (turn: Locator) => turn.getByRole('group', { name: 'Versions of this answer' });

/** The body of the one request that carried `needle`, as JSON text. */
async function sentWith(page: Page, needle: string): Promise<string> {
  const requests = await requestsContaining(page, needle);
  expect(requests).toHaveLength(1);
  return JSON.stringify(requests[0]!.body);
}

/** An answer's total tokens, as its usage line says. */
async function totalOf(turn: Locator): Promise<number> {
  const usage = await turn.getByTestId('turn-usage').innerText();
  return Number(/([\d,]+) total/.exec(usage)![1]!.replace(/,/g, ''));
}

/** Edits the `index`th message shown to `text`, by the Edit box's Send button; returns the answer it starts. */
async function edit(page: Page, index: number, text: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Edit', exact: true }).nth(index).click();
  const form = page.getByRole('form', { name: 'Edit message' });
  await form.getByRole('textbox', { name: 'Edit message' }).fill(text);
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form).toHaveCount(0);
  return turns(page).nth(index);
}

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: an edit and a regenerated answer are versions; each request sends the branch shown`, async ({
    page,
  }) => {
    await openApp(page);
    await choose(page, protocol, 'sim-echo');
    const [first, second, edited, third] = ['First', 'Second', 'Edited', 'Third'].map((w) =>
      uniqueText(`${w} question`),
    ) as [string, string, string, string];
    const billed: number[] = [];
    billed.push(await totalOf(await waitForAnswer(await send(page, first))));
    billed.push(await totalOf(await waitForAnswer(await send(page, second))));

    // Editing the first message starts a branch: only the edit and its answer are shown, and sent.
    const editAnswer = await edit(page, 0, edited);
    await expect(userMessages(page)).toHaveText([edited]);
    await expect(turns(page)).toHaveCount(1);
    billed.push(await totalOf(await waitForAnswer(editAnswer)));
    await expect(editAnswer.getByTestId('turn-text')).toContainText(edited);
    await expect(questionVersions(page)).toContainText('Version 2 of 2');
    const editBody = await sentWith(page, edited);
    expect(editBody).not.toContain(first);
    expect(editBody).not.toContain(second);

    // Back to the first version: the conversation follows it, and the next request sends that branch.
    await questionVersions(page).getByRole('button', { name: 'Previous version' }).click();
    await expect(userMessages(page)).toHaveText([first, second]);
    await expect(turns(page)).toHaveCount(2);
    await expect(questionVersions(page)).toContainText('Version 1 of 2');
    billed.push(await totalOf(await waitForAnswer(await send(page, third))));
    const thirdBody = await sentWith(page, third);
    for (const text of [first, second, third]) expect(thirdBody).toContain(text);
    expect(thirdBody).not.toContain(edited);

    // Regenerate: the same request again, into a new version of the answer; both are billed.
    const last = turns(page).nth(2);
    await last.getByRole('button', { name: 'Regenerate' }).click();
    await expect(answerVersions(last)).toContainText('Version 2 of 2');
    billed.push(await totalOf(await waitForAnswer(last)));
    const [sent, again] = await requestsContaining(page, third);
    expect(again?.rawSha256).toBe(sent?.rawSha256);
    await expect(page.getByTestId('conversation-usage')).toContainText(
      `${billed.reduce((a, b) => a + b).toLocaleString('en-US')} total`,
    );
    await answerVersions(last).getByRole('button', { name: 'Previous version' }).click();
    await expect(answerVersions(last)).toContainText('Version 1 of 2');

    // Kept over a reload, on the versions chosen.
    await page.reload();
    await expect(userMessages(page)).toHaveText([first, second, third]);
    await expect(questionVersions(page)).toContainText('Version 1 of 2');
    await expect(answerVersions(turns(page).nth(2))).toContainText('Version 1 of 2');
    await questionVersions(page).getByRole('button', { name: 'Next version' }).click();
    await expect(userMessages(page)).toHaveText([edited]);
  });
}

test('the versions and the edit box pass axe, in light and in dark at phone width', async ({ browser }) => {
  for (const [scheme, viewport] of [
    ['light', { width: 1280, height: 800 }],
    ['dark', { width: 390, height: 780 }],
  ] as const) {
    const context = await browser.newContext({ colorScheme: scheme, viewport });
    const page = await context.newPage();
    await openApp(page);
    await choose(page, 'chat', 'sim-echo');
    await waitForAnswer(await send(page, uniqueText('How do streams work?')));
    await waitForAnswer(await edit(page, 0, uniqueText('How do server-sent events work?')));
    const answer = turns(page).first();
    await answer.getByRole('button', { name: 'Regenerate' }).click();
    await waitForAnswer(answer);
    await expect(answerVersions(answer)).toContainText('Version 2 of 2');
    await page.locator('.scroller').evaluate((el) => el.scrollTo(0, 0));
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/branches-versions-${scheme}-${viewport.width}.png` });

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Edit message' }).press('End');
    await page.getByRole('textbox', { name: 'Edit message' }).pressSequentially(' In short.');
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/branches-edit-${scheme}-${viewport.width}.png` });
    await page.getByRole('textbox', { name: 'Edit message' }).press('Escape');
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeFocused();
    await context.close();
  }
});
