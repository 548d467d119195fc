import { readFile, writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  newTurn,
  openApp,
  requestsContaining,
  send,
  setSettings,
  turns,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

const stallMs = 8000; // HOPBASE_SIM_STALL_MS in playwright.config.ts

test('sim-stall: the inspector shows keepalives through the silence and its length', async ({ page }) => {
  await openApp(page);
  await setSettings(page, {
    'Stall warning after (seconds without output)': '2',
    'Dead connection after (seconds without any byte)': '4',
  });
  await choose(page, 'chat', 'sim-stall');
  const turn = await send(page, uniqueText('Stall for the inspector'));
  await expect(turn.getByRole('alert')).toBeVisible({ timeout: 20_000 });

  await turn.getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await expect(inspector).toBeVisible();
  const keepalives = inspector.getByRole('listitem').filter({ hasText: ': hopbase-keepalive' });
  await expect(keepalives.first()).toBeVisible();
  expect(await keepalives.count()).toBeGreaterThanOrEqual(5);

  const silence = await inspector.getByTestId('figure-longest-silence').innerText();
  const seconds = Number(silence.match(/^([\d.]+) s/)?.[1] ?? Number(silence.match(/^(\d+) ms/)?.[1]) / 1000);
  expect(seconds * 1000).toBeGreaterThan(stallMs - 500);
  expect(seconds * 1000).toBeLessThan(stallMs + 1500);
  const count = Number((await inspector.getByTestId('figure-keepalives').innerText()).replace(/,/g, ''));
  expect(count).toBeGreaterThanOrEqual(Math.floor(stallMs / 400) - 2);
  await page.screenshot({ path: `${artifactsDir}/inspector-stall.png` });
});

test('export a turn, import the file, and the replay has the same text', async ({ page }, testInfo) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-echo');
  const original = await waitForAnswer(await send(page, uniqueText('Record me')));
  const text = await original.getByTestId('turn-text').textContent();

  await original.getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    inspector.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  const file = testInfo.outputPath('turn.sse');
  await download.saveAs(file);
  const sse = await readFile(file, 'utf8');
  expect(sse).toContain('event: message_stop');

  await inspector.getByRole('radio', { name: 'Instantly' }).check();
  const usage = await original.getByTestId('turn-usage').innerText();
  await inspector.getByLabel('Import .sse').setInputFiles(file);
  // The replay opens a conversation of its own.
  await expect(page.getByRole('button', { name: /^Replay: turn\.sse/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(turns(page)).toHaveCount(1);
  const replayed = await waitForAnswer(turns(page).first());
  await expect(replayed).toContainText('replay: turn.sse');
  expect(await replayed.getByTestId('turn-text').textContent()).toBe(text);
  await expect(replayed.getByTestId('turn-usage')).toHaveText(usage);

  // A question asked there goes to the model alone: the recording is never sent as the model's words.
  await inspector.getByRole('button', { name: 'Close inspector' }).click();
  const question = uniqueText('What did the recording say?');
  await waitForAnswer(await send(page, question));
  const sent = await requestsContaining(page, question);
  expect(sent).toHaveLength(1);
  const history = JSON.stringify((sent[0]!.body as { messages: unknown[] }).messages);
  expect(history).toContain(question);
  expect(history).not.toContain(text!.slice(0, 40));
});

/** An Anthropic Messages stream that answers with `text` in three pieces. */
function messagesStream(text: string): string {
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const third = Math.ceil(text.length / 3);
  const pieces = [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
  return [
    event('message_start', {
      message: {
        id: 'msg_cited',
        type: 'message',
        role: 'assistant',
        model: 'recorded',
        content: [],
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...pieces.map((piece) =>
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }),
    ),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 30 } }),
    event('message_stop', {}),
  ].join('');
}

test('citations defined at the end of an answer link to their sources', async ({ page }, testInfo) => {
  await openApp(page);
  const file = testInfo.outputPath('cited.sse');
  await writeFile(
    file,
    messagesStream(
      [
        'Server-sent events are specified by [the WHATWG][html].[^1]',
        '',
        'Each event ends with a blank line.',
        '',
        '[html]: https://html.spec.whatwg.org/multipage/server-sent-events.html',
        '[^1]: Section 9.2 of the HTML standard.',
      ].join('\n'),
    ),
  );
  await page.getByRole('button', { name: 'Recordings' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByRole('radio', { name: 'Instantly' }).check();
  const turn = await waitForAnswer(
    await newTurn(page, () => inspector.getByLabel('Import .sse').setInputFiles(file)),
  );
  await expect(turn.getByRole('link', { name: 'the WHATWG' })).toHaveAttribute(
    'href',
    'https://html.spec.whatwg.org/multipage/server-sent-events.html',
  );
  // The footnote: a numbered reference in the text, its note in a list after it, no raw definitions left.
  await expect(turn.getByRole('link', { name: '1', exact: true })).toBeVisible();
  await expect(
    turn.getByRole('listitem').filter({ hasText: 'Section 9.2 of the HTML standard.' }),
  ).toBeVisible();
  await expect(turn.getByTestId('turn-text')).not.toContainText('[html]');
  await expect(turn.getByTestId('turn-text')).not.toContainText('[^1]');
  await page.screenshot({ path: `${artifactsDir}/citations.png` });
});
