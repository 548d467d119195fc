import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  choose,
  openApp,
  type ProtocolKey,
  protocolKeys,
  send,
  turns,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';

/** A figure of the inspector, as a number (`1,234` → 1234). */
async function figure(inspector: Locator, name: string): Promise<number> {
  return Number((await inspector.getByTestId(`figure-${name}`).innerText()).replaceAll(',', ''));
}

/** Clicks an export button and returns the file it downloads: its suggested name and its bytes. */
async function download(page: Page, button: Locator, path: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  await file.saveAs(path);
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

for (const protocol of protocolKeys as ProtocolKey[]) {
  test(`${protocol}: Export the moment an answer ends holds every byte received and replays to the same answer`, async ({
    page,
  }, testInfo) => {
    await openApp(page);
    await choose(page, protocol, 'sim-echo');
    const turn = await send(page, uniqueText(`Record every byte over ${protocol}`));
    // The inspector is open while the answer streams; Export is pressed as soon as it has ended.
    await turn.getByRole('button', { name: 'Inspect' }).click();
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    await waitForAnswer(turn);
    const sse = await download(
      page,
      inspector.getByRole('button', { name: 'Export', exact: true }),
      testInfo.outputPath('answer.sse'),
    );
    const json = await download(
      page,
      inspector.getByRole('button', { name: 'JSON trace' }),
      testInfo.outputPath('answer.json'),
    );

    // Every byte the inspector counts is in the file, and nothing else; nothing says it is partial.
    const bytes = await figure(inspector, 'bytes-received');
    expect(bytes).toBeGreaterThan(500);
    expect(sse.bytes.length).toBe(bytes);
    expect(sse.name).toMatch(new RegExp(`^hopbase-${protocol}-sim-echo-[\\dT-]+\\.sse$`));
    await expect(inspector.getByText('Partial: still streaming')).toHaveCount(0);
    const trace = JSON.parse(json.bytes.toString('utf8')) as {
      bytes: number;
      partial: boolean;
      truncated: boolean;
      events: { kind: string }[];
      result: { status: string };
    };
    expect(trace).toMatchObject({ bytes, partial: false, truncated: false, result: { status: 'complete' } });
    const events = await figure(inspector, 'events');
    const keepalives = await figure(inspector, 'keepalives');
    expect(trace.events.length).toBe(events + keepalives);

    const text = await turn.getByTestId('turn-text').textContent();
    const usage = await turn.getByTestId('turn-usage').innerText();
    expect(text?.length).toBeGreaterThan(50);

    // Both files replay to the identical answer and usage, each in a conversation of its own.
    await inspector.getByRole('radio', { name: 'Instantly' }).check();
    for (const file of ['answer.sse', 'answer.json']) {
      await inspector.getByLabel('Import .sse').setInputFiles(testInfo.outputPath(file));
      const title = new RegExp(`^Replay: ${file.replace('.', '\\.')}`);
      await expect(page.getByRole('button', { name: title })).toHaveAttribute('aria-current', 'page');
      await expect(turns(page)).toHaveCount(1);
      const replayed = await waitForAnswer(turns(page).first());
      expect(await replayed.getByTestId('turn-text').textContent()).toBe(text);
      await expect(replayed.getByTestId('turn-usage')).toHaveText(usage);
      await expect(replayed.getByTestId('interruption-banner')).toHaveCount(0);
    }
  });
}

test('Export while the answer streams says partial, in the file name and the inspector', async ({
  page,
}, testInfo) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-long');
  const turn = await send(page, uniqueText('A long answer, exported halfway'));
  await turn.getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await expect(turn.getByTestId('turn-text')).toContainText(/\w+ \w+ \w+/);
  await expect(inspector.getByRole('note')).toHaveText(/^Partial: still streaming\./);

  const partial = await download(
    page,
    inspector.getByRole('button', { name: 'Export', exact: true }),
    testInfo.outputPath('halfway.sse'),
  );
  expect(partial.name).toMatch(/^hopbase-messages-sim-long-[\dT-]+-partial\.sse$/);
  // Everything received by the press is in the file: at least what the figures had counted before it.
  expect(partial.bytes.length).toBeGreaterThan(0);
  expect(partial.bytes.length).toBeLessThanOrEqual(await figure(inspector, 'bytes-received'));

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await waitForAnswer(turn);
  await expect(inspector.getByText('Partial: still streaming')).toHaveCount(0);
  const whole = await download(
    page,
    inspector.getByRole('button', { name: 'Export', exact: true }),
    testInfo.outputPath('stopped.sse'),
  );
  expect(whole.name).not.toContain('partial');
  // The partial file is the beginning of the whole recording, byte for byte.
  expect(whole.bytes.subarray(0, partial.bytes.length).equals(partial.bytes)).toBe(true);
  expect(whole.bytes.length).toBe(await figure(inspector, 'bytes-received'));
});
