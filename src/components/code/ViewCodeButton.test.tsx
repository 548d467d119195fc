import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it } from 'vitest';
import { fixtureBytes, streamFromBytes } from '../../core/testing/fixtures.ts';
import type { AssistantMessage } from '../../state/domain/types.ts';
import { answerMessage } from '../../testing/builders.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ViewCodeButton } from './ViewCodeButton.tsx';

let app: TestApp;
/** Each body as the session sent it. */
let sentBodies: string[];

const imageBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const photo = {
  ref: {
    id: 'file_photo',
    name: 'photo.png',
    mimeType: 'image/png',
    size: imageBytes.length,
    kind: 'image' as const,
  },
  blob: new Blob([imageBytes], { type: 'image/png' }),
};

beforeEach(async () => {
  app = createTestApp();
  app.stores.settings.getState().update({ model: 'sim-echo' });
  await app.session.attachments.put([photo]);
  sentBodies = [];
  app.setFetch(async (_url, init) => {
    sentBodies.push(String(init?.body));
    return new Response(streamFromBytes(fixtureBytes('chat/openai-text-obfuscation-usage.sse')), {
      headers: { 'content-type': 'text/event-stream' },
    });
  });
});

/** The answer the session stored for one message sent with the photo. */
async function sentAnswer(): Promise<AssistantMessage> {
  await app.session.send('Look at $HOME "this"', 'chat', [photo.ref]);
  const conversation = Object.values(app.stores.conversations.getState().conversations)[0];
  const answer = conversation?.messages.find((m) => m.role === 'assistant');
  if (answer?.role !== 'assistant') throw new Error('no answer stored');
  return answer;
}

/** The JSON of a cURL command's here-document. */
function heredocJson(code: string): unknown {
  return JSON.parse(
    code.slice(code.indexOf("<<'JSON'\n") + "<<'JSON'\n".length, code.lastIndexOf('\nJSON\n')),
  );
}

it('shows the request exactly as sent, the photo’s bytes in, in tabs the keyboard moves through', async () => {
  const user = userEvent.setup();
  const answer = await sentAnswer();
  app.render(<ViewCodeButton message={answer} attempt={answer.attempts[0]!} />);
  const open = screen.getByRole('button', { name: 'View code' });
  await user.click(open);
  const dialog = await screen.findByRole('dialog', { name: 'Code for this request' });
  const curlTab = within(dialog).getByRole('tab', { name: 'cURL' });
  expect(curlTab).toHaveAttribute('aria-selected', 'true');
  await waitFor(() => expect(curlTab).toHaveFocus());
  expect(
    within(dialog).getByText(/Chat Completions: POST http:\/\/localhost(:\d+)?\/v1\/chat\/completions/),
  ).toBeVisible();
  const panel = within(dialog).getByRole('tabpanel', { name: 'cURL' });
  const curl = (await within(panel).findByText(/--data-binary/)).textContent ?? '';
  // The stored body has a placeholder for the photo; the code has its bytes, as the request had.
  expect(heredocJson(curl)).toEqual(JSON.parse(sentBodies[0]!));
  expect(curl).toContain('iVBORw0KGgo');

  await user.keyboard('{ArrowRight}');
  const pythonTab = within(dialog).getByRole('tab', { name: 'Python' });
  expect(pythonTab).toHaveAttribute('aria-selected', 'true');
  expect(pythonTab).toHaveFocus();
  const python = within(dialog).getByRole('tabpanel', { name: 'Python' });
  expect(python).toHaveTextContent('from openai import OpenAI');
  expect(python).toHaveTextContent('pip install openai');
  await user.keyboard('{End}');
  expect(within(dialog).getByRole('tab', { name: 'HTTP' })).toHaveFocus();
  expect(within(dialog).getByRole('tabpanel', { name: 'HTTP' })).toHaveTextContent(
    'POST /v1/chat/completions HTTP/1.1',
  );

  await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
  expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await navigator.clipboard.readText();
  expect(copied.startsWith('POST /v1/chat/completions HTTP/1.1\n')).toBe(true);
  expect(JSON.parse(copied.slice(copied.indexOf('\n\n') + 2))).toEqual(JSON.parse(sentBodies[0]!));

  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(open).toHaveFocus();
});

it('writes the gateway in Settings when one is set', async () => {
  const user = userEvent.setup();
  const answer = await sentAnswer();
  app.stores.settings.getState().update({ baseUrl: 'https://gateway.example.com/v1/' });
  app.render(<ViewCodeButton message={answer} attempt={answer.attempts[0]!} />);
  await user.click(screen.getByRole('button', { name: 'View code' }));
  const dialog = await screen.findByRole('dialog', { name: 'Code for this request' });
  expect(
    await within(dialog).findByText(/^curl 'https:\/\/gateway\.example\.com\/v1\/chat\/completions'/),
  ).toBeVisible();
});

it('says so when a file of the request is no longer stored', async () => {
  const user = userEvent.setup();
  const answer = await sentAnswer();
  await app.session.attachments.remove([photo.ref.id]);
  app.render(<ViewCodeButton message={answer} attempt={answer.attempts[0]!} />);
  await user.click(screen.getByRole('button', { name: 'View code' }));
  expect(
    await screen.findByText(/no longer stored in this browser, so its code cannot be shown/),
  ).toBeVisible();
});

it('is offered for sent attempts only (not a replayed recording)', () => {
  const replayed = answerMessage('m1', { text: 'Hi', status: 'complete' });
  const attempt = {
    ...replayed.attempts[0]!,
    request: { url: '', path: '', headers: {}, body: { replayOf: 'x.sse' } },
  };
  app.render(<ViewCodeButton message={{ ...replayed, attempts: [attempt] }} attempt={attempt} />);
  expect(screen.queryByRole('button', { name: 'View code' })).toBeNull();
});

it('names the button of an earlier attempt by its number', () => {
  const message = answerMessage('m1', { text: 'Hi', status: 'complete' });
  app.render(<ViewCodeButton message={message} attempt={message.attempts[0]!} n={1} />);
  expect(screen.getByRole('button', { name: 'View code of attempt 1' })).toHaveTextContent('View code');
});
