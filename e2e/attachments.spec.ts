import { expect, type Locator, type Page, test } from '@playwright/test';
import { photo, png } from './files.ts';
import {
  artifactsDir,
  choose,
  type LoggedRequest,
  newTurn,
  openApp,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  turns,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

// ---- Files to attach ------------------------------------------------------------------------------------

const pasted = png(64, [21, 128, 61], [244, 244, 245]);
const notesText = `# Notes\n\n${'- buy milk\n'.repeat(200)}`;
const notes = { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(notesText) };
const report = { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n\0\u00e2') };

/** As the simulator says a size: bytes under 1,000, else whole kB. */
const sizeSaid = (bytes: number) => (bytes < 1000 ? `${bytes} B` : `${Math.round(bytes / 1000)} kB`);

// ---- Helpers --------------------------------------------------------------------------------------------

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const toSend = (page: Page) => page.getByRole('list', { name: 'Attachments to send' });
const sentMessages = (page: Page) => page.getByTestId('user-message');

/** Attaches files through the Attach button's file picker, as a person would. */
async function attachByPicker(page: Page, files: (typeof photo)[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles(files);
}

/** Pastes an image into the message box, as a screenshot tool's clipboard holds it. */
async function pasteImage(page: Page, name: string, bytes: Buffer): Promise<void> {
  await messageBox(page).evaluate(
    (box, { name, base64 }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([data], name, { type: 'image/png' }));
      box.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }),
      );
    },
    { name, base64: bytes.toString('base64') },
  );
}

/** Sends what is in the composer (text and files) and returns the answer it starts. */
function sendComposer(page: Page, text: string): Promise<Locator> {
  return newTurn(page, async () => {
    await messageBox(page).fill(text);
    await messageBox(page).press('Enter');
  });
}

/** The thumbnail `name` is shown in `where`, its picture loaded. */
async function expectThumbnail(where: Locator, name: string): Promise<void> {
  const image = where.getByRole('img', { name });
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
}

/** The user content of the request that carried `text`, as the simulator logged it. */
async function loggedContent(
  page: Page,
  text: string,
): Promise<{ request: LoggedRequest; parts: unknown[] }> {
  const [request] = await requestsContaining(page, text);
  expect(request).toBeDefined();
  const body = request!.body as {
    messages?: { role: string; content: unknown }[];
    input?: { role: string; content: unknown }[];
  };
  const user = (body.messages ?? body.input ?? []).findLast((m) => m.role === 'user');
  return { request: request!, parts: user?.content as unknown[] };
}

// ---- Tests ----------------------------------------------------------------------------------------------

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: an image and a text file by the picker, then an image by paste`, async ({
    page,
  }) => {
    await openApp(page);
    await choose(page, protocol, 'sim-echo');

    await attachByPicker(page, [photo, notes]);
    await expectThumbnail(toSend(page), 'photo.png');
    await expect(toSend(page).getByText('notes.md')).toBeVisible();
    if (protocol === 'chat') {
      await page.screenshot({ path: `${artifactsDir}/attachments-composer.png` });
      expect(await violations(page, '.composer')).toEqual([]);
    }

    const text = uniqueText('What are these?');
    const turn = await waitForAnswer(await sendComposer(page, text));
    await expect(toSend(page)).toHaveCount(0);
    await expect(turn).toContainText(
      `I see 1 image (image/png, ${sizeSaid(photo.buffer.length)}) and 1 file (notes.md, ${sizeSaid(notes.buffer.length)}).`,
    );
    const sent = sentMessages(page).last();
    await expectThumbnail(sent, 'photo.png');
    await expect(sent.getByText('notes.md')).toBeVisible();
    await expect(sent.getByText(text)).toBeVisible();
    if (protocol === 'chat') {
      await sent.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${artifactsDir}/attachments-sent.png` });
    }

    // Each protocol's own parts; the log shows the image's data shortened, the file's text whole.
    const { parts } = await loggedContent(page, text);
    const image = JSON.stringify(parts[0]);
    expect(image).toMatch(/…\[\d[\d,]* chars\]/);
    expect(parts[0]).toMatchObject(
      {
        chat: {
          type: 'image_url',
          image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0K/) },
        },
        responses: { type: 'input_image', image_url: expect.stringMatching(/^data:image\/png;base64,/) },
        messages: { type: 'image', source: { type: 'base64', media_type: 'image/png' } },
      }[protocol],
    );
    expect(parts[1]).toMatchObject({ text: `File: notes.md\n\`\`\`\n${notesText}\n\`\`\`` });

    // A pasted image goes the same way.
    await pasteImage(page, 'pasted.png', pasted);
    await expectThumbnail(toSend(page), 'pasted.png');
    await expect(messageBox(page)).toHaveValue('');
    const next = uniqueText('And this one?');
    const second = await waitForAnswer(await sendComposer(page, next));
    await expect(second).toContainText(`I see 1 image (image/png, ${sizeSaid(pasted.length)}).`);
  });
}

test('a file dropped on the composer is attached; Regenerate sends the very same bytes; a reload still shows them', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-echo');
  const box = messageBox(page);
  const drop = await page.evaluateHandle(
    ({ name, text }) => {
      const files = new DataTransfer();
      files.items.add(new File([text], name, { type: 'text/markdown' }));
      return files;
    },
    { name: 'dropped.md', text: notesText },
  );
  await box.dispatchEvent('dragenter', { dataTransfer: drop });
  await box.dispatchEvent('dragover', { dataTransfer: drop });
  await expect(page.getByText('Drop files to attach them')).toBeVisible();
  await page.screenshot({ path: `${artifactsDir}/attachments-drop.png` });
  await box.dispatchEvent('drop', { dataTransfer: drop });
  await expect(page.getByText('Drop files to attach them')).toBeHidden();
  await expect(toSend(page).getByText('dropped.md')).toBeVisible();
  await attachByPicker(page, [photo]);
  await expectThumbnail(toSend(page), 'photo.png');

  const text = uniqueText('Dropped and picked');
  const turn = await waitForAnswer(await sendComposer(page, text));
  await expect(turn).toContainText('I see 1 image (image/png,');
  await expect(turn).toContainText('1 file (dropped.md, ');

  await turns(page).last().getByRole('button', { name: 'Regenerate' }).click();
  await expect.poll(async () => (await requestsContaining(page, text)).length).toBe(2);
  const [first, again] = await requestsContaining(page, text);
  expect(again?.rawSha256).toBe(first?.rawSha256);

  // The inspector shows the request as stored: a placeholder for each file, not its bytes.
  await waitForAnswer(turns(page).last());
  await turns(page).last().getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByText('Request: POST /messages').first().click();
  const shown = inspector.locator('.request').first();
  await expect(shown).toContainText('⟦attachment:file_');
  await expect(shown).not.toContainText(photo.buffer.toString('base64').slice(0, 40));

  await page.reload();
  await expectThumbnail(sentMessages(page).last(), 'photo.png');
  await expect(sentMessages(page).last().getByText('dropped.md')).toBeVisible();
});

test('what cannot be attached is named in an alert, and nothing typed is lost', async ({ page }) => {
  await openApp(page);
  await messageBox(page).fill('Half a thought');
  await attachByPicker(page, [report, notes]);
  await expect(page.getByRole('alert')).toContainText(
    'report.pdf cannot be attached: only images (PNG, JPEG, WebP, GIF) and text or code files (UTF-8) can.',
  );
  await expect(toSend(page).getByText('notes.md')).toBeVisible();
  await expect(messageBox(page)).toHaveValue('Half a thought');
  await page.getByRole('button', { name: 'Remove notes.md' }).click();
  await expect(toSend(page)).toHaveCount(0);
  await expect(messageBox(page)).toHaveValue('Half a thought');
});

test('dark, at phone width: the composer with thumbnails and a sent message, axe clean', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await openApp(page);
  await choose(page, 'responses', 'sim-echo');
  await attachByPicker(page, [photo, notes]);
  await waitForAnswer(await sendComposer(page, uniqueText('Phone')));
  await expectThumbnail(sentMessages(page).last(), 'photo.png');
  await sentMessages(page).last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifactsDir}/attachments-sent-phone-dark.png` });
  await attachByPicker(page, [photo, notes, report]);
  await expectThumbnail(toSend(page), 'photo.png');
  await expect(page.getByRole('alert')).toBeVisible();
  await page.screenshot({ path: `${artifactsDir}/attachments-phone-dark.png` });
  expect(await violations(page, '.main')).toEqual([]);

  // The edit box with the message's files, on a phone in dark.
  await page.getByRole('button', { name: 'Edit', exact: true }).last().click();
  const form = page.getByRole('form', { name: 'Edit message' });
  await expectThumbnail(form, 'photo.png');
  await expect(form.getByRole('button', { name: 'Remove notes.md' })).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifactsDir}/attachments-edit-phone-dark.png` });
  expect(await violations(page, '.user-edit')).toEqual([]);
  await context.close();
});

test('an edit takes the image out and a text file in: the answer says so, the first version keeps its image', async ({
  page,
}) => {
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');
  await attachByPicker(page, [photo]);
  await expectThumbnail(toSend(page), 'photo.png');
  const text = uniqueText('Edit me');
  await waitForAnswer(await sendComposer(page, text));

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = page.getByRole('form', { name: 'Edit message' });
  const files = form.getByRole('list', { name: 'Attachments to send' });
  await expectThumbnail(files, 'photo.png');
  await form.getByRole('button', { name: 'Remove photo.png' }).click();
  await expect(files).toHaveCount(0);
  const chooser = page.waitForEvent('filechooser');
  await form.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles([notes]);
  await expect(files.getByText('notes.md')).toBeVisible();
  await page.screenshot({ path: `${artifactsDir}/attachments-edit.png` });
  expect(await violations(page, '.user-edit')).toEqual([]);

  const edited = uniqueText('Edited');
  await form.getByRole('textbox', { name: 'Edit message' }).fill(edited);
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form).toHaveCount(0);
  // The edit's branch shows its own answer in the original's place.
  await expect(await waitForAnswer(turns(page).last())).toContainText(
    `I see 1 file (notes.md, ${sizeSaid(notes.buffer.length)}).`,
  );
  const { parts } = await loggedContent(page, edited);
  expect(JSON.stringify(parts)).not.toContain('image_url');
  const shown = sentMessages(page).last();
  await expect(shown.getByText('notes.md')).toBeVisible();
  await expect(shown.getByRole('img', { name: 'photo.png' })).toHaveCount(0);

  await page
    .getByRole('group', { name: 'Versions of your message' })
    .getByRole('button', { name: 'Previous version' })
    .click();
  await expectThumbnail(sentMessages(page).last(), 'photo.png');
  await expect(sentMessages(page).last().getByText('notes.md')).toHaveCount(0);
});

test('a file waiting in the composer is still there after a reload, and is sent', async ({ page }) => {
  await openApp(page);
  await choose(page, 'messages', 'sim-echo');
  await messageBox(page).fill('Before the reload');
  await attachByPicker(page, [photo, notes]);
  await expectThumbnail(toSend(page), 'photo.png');
  await page.getByRole('button', { name: 'Remove notes.md' }).click();
  await expect(toSend(page).getByText('notes.md')).toHaveCount(0);

  await page.reload();
  await expectThumbnail(toSend(page), 'photo.png');
  await expect(toSend(page).getByText('notes.md')).toHaveCount(0);
  await expect(messageBox(page)).toHaveValue('Before the reload');
  const text = uniqueText('After the reload');
  const turn = await waitForAnswer(await sendComposer(page, text));
  await expect(turn).toContainText(`I see 1 image (image/png, ${sizeSaid(photo.buffer.length)}).`);
  await expect(toSend(page)).toHaveCount(0);
  await page.reload();
  await expect(toSend(page)).toHaveCount(0);
  await expectThumbnail(sentMessages(page).last(), 'photo.png');
});
