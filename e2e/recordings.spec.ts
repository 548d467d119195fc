import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  openApp,
  type ProtocolKey,
  protocolKeys,
  send,
  storedAttempts,
  storedKeys,
  storeRecord,
  turns,
  uniqueText,
  violations,
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

test('after a reload, the inspector reads a recording when it opens: the same events, the same export', async ({
  page,
}, testInfo) => {
  await openApp(page);
  await choose(page, 'responses', 'sim-echo');
  const text = uniqueText('Recorded before a reload');
  const turn = await waitForAnswer(await send(page, text));
  await turn.getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  const exportButton = inspector.getByRole('button', { name: 'Export', exact: true });
  const before = await download(page, exportButton, testInfo.outputPath('before.sse'));
  const events = await figure(inspector, 'events');
  await expect
    .poll(() => storedAttempts(page, text))
    .toEqual([expect.objectContaining({ status: 'complete' })]);

  // The reload loads the conversation without its recording; opening the inspector reads it.
  await page.reload();
  const reloaded = turns(page).last();
  await expect(reloaded.getByTestId('turn-text')).not.toBeEmpty();
  await reloaded.getByRole('button', { name: 'Inspect' }).click();
  await expect(inspector.getByRole('region', { name: 'Events' })).toBeVisible();
  await expect(inspector.getByText('Loading recording…')).toHaveCount(0);
  expect(await figure(inspector, 'events')).toBe(events);
  const after = await download(page, exportButton, testInfo.outputPath('after.sse'));
  expect(after.bytes.equals(before.bytes)).toBe(true);
  expect(after.name).toBe(before.name);
});

test('a recording that cannot be read says so in the inspector, and the answer still shows (phone, dark)', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  const text = uniqueText('Recording damaged later');
  const turn = await waitForAnswer(await send(page, text));
  const answer = await turn.getByTestId('turn-text').textContent();
  await expect
    .poll(() => storedAttempts(page, text))
    .toEqual([expect.objectContaining({ status: 'complete' })]);
  // Every stored recording replaced with a record of the wrong shape, as a damaged database could hold.
  const recordings = (await storedKeys(page, 'trace:')) ?? [];
  expect(recordings).toHaveLength(1);
  for (const key of recordings) await storeRecord(page, key, { items: 'damaged', raw: '' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  const reloaded = turns(page).last();
  await expect(reloaded.getByTestId('turn-text')).toHaveText(answer ?? '');
  await reloaded.getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await expect(inspector.getByRole('status')).toHaveText(/^This recording could not be read\./);
  await expect(inspector.getByRole('button', { name: 'Export', exact: true })).toBeDisabled();
  // Listed with the records that could not be read, to download as they are.
  await expect(page.getByText(/recording.* could not be read/i).first()).toBeVisible();
  expect(await violations(page, '[aria-label="Inspector"]')).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/inspector-recording-unreadable-phone.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${artifactsDir}/inspector-recording-unreadable.png` });
});
