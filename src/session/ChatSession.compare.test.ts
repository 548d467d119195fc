/**
 * Compare through the session: one prompt, one request per column in its own protocol and model, each
 * answer a branch beside the others; keeping one makes it the conversation's answer and its choices.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { shownBranch } from '../state/domain/branches.ts';
import type { ChatMessage } from '../state/domain/types.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let sent: { url: string; model: unknown }[];

const chatAnswer = (text: string) =>
  `data: {"choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`;
const messagesAnswer =
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"from messages"}}\n\n' +
  'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\ndata: {"type":"message_stop"}\n\n';

beforeEach(() => {
  app = createTestApp();
  sent = [];
  app.setFetch(
    vi.fn<typeof fetch>(async (url, init) => {
      const body = JSON.parse(String(init?.body)) as { model: unknown };
      sent.push({ url: String(url), model: body.model });
      if (body.model === 'broken') return new Response('{"error":{"message":"no"}}', { status: 400 });
      const text = String(url).endsWith('/messages')
        ? messagesAnswer
        : chatAnswer(`from ${String(body.model)}`);
      return new Response(text, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
});

const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;
const words = (m: ChatMessage) =>
  m.role === 'assistant' ? (m.attempts.at(-1)?.turn.text ?? '') : m.role === 'user' ? m.text : '';

function columns(...models: [protocol: 'chat' | 'messages', model: string][]) {
  const compare = app.stores.compare.getState();
  compare.show({ protocol: models[0]![0], model: models[0]![1], reasoning: 'off' });
  const [first, second] = app.stores.compare.getState().columns;
  compare.setColumn(second!.id, { protocol: models[1]![0], model: models[1]![1] });
  for (const [protocol, model] of models.slice(2)) compare.addColumn({ protocol, model, reasoning: 'off' });
  return [first!, second!];
}

describe('compare', () => {
  it('sends one request per column and records each answer as a branch; the first is shown', async () => {
    columns(['chat', 'a'], ['messages', 'b'], ['chat', 'broken']);
    await app.session.compare('Which?');
    expect(sent.map((s) => s.model)).toEqual(['a', 'b', 'broken']);
    expect(sent[1]?.url).toMatch(/\/messages$/);
    const [prompt, ...answers] = active().messages;
    expect(answers.map((m) => m.parentId)).toEqual([prompt!.id, prompt!.id, prompt!.id]);
    expect(answers.map(words)).toEqual(['from a', 'from messages', '']);
    expect(answers.map((m) => m.role === 'assistant' && m.attempts.at(-1)?.turn.status)).toEqual([
      'complete',
      'complete',
      'error',
    ]);
    expect(shownBranch(active()).map(words)).toEqual(['Which?', 'from a']);
    const { round } = app.stores.compare.getState();
    expect(Object.values(round!.answers).map((a) => a.messageId)).toEqual(answers.map((m) => m.id));
  });

  it('keeps a column’s answer: its branch is shown and the conversation goes on with its choices', async () => {
    const [, second] = columns(['chat', 'a'], ['messages', 'b']);
    await app.session.compare('Which?');
    const kept = app.stores.compare.getState().round!.answers[second!.id]!.messageId;
    app.session.keep(kept);
    expect(shownBranch(active()).map(words)).toEqual(['Which?', 'from messages']);
    expect(active().choices).toEqual({ protocol: 'messages', model: 'b', reasoning: 'off' });
    // Every column's answer stays recorded.
    expect(active().messages).toHaveLength(3);
  });

  it('retries one column alone', async () => {
    columns(['chat', 'a'], ['chat', 'broken']);
    await app.session.compare('Which?');
    const failed = active().messages[2]!;
    await app.session.retry(active().id, failed.id);
    expect(sent.map((s) => s.model)).toEqual(['a', 'broken', 'broken']);
    const attempts = active().messages.map((m) => (m.role === 'assistant' ? m.attempts.length : 0));
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('stops every column of the conversation at once', async () => {
    columns(['chat', 'a'], ['chat', 'b']);
    app.setFetch(
      vi.fn<typeof fetch>(
        async () =>
          new Response(new ReadableStream({ start() {} }), {
            headers: { 'content-type': 'text/event-stream' },
          }),
      ),
    );
    const done = app.session.compare('Which?');
    await vi.waitFor(() => expect(Object.keys(app.stores.answers.getState().answers)).toHaveLength(2));
    app.session.stopAnswers(active().id);
    await done;
    const statuses = active().messages.flatMap((m) =>
      m.role === 'assistant' ? [m.attempts.at(-1)?.turn.status] : [],
    );
    expect(statuses).toEqual(['aborted', 'aborted']);
  });
});
