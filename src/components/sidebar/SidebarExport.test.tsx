import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording } from '../../state/recordings.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ConversationList } from './ConversationList.tsx';

let app: TestApp;
const store = () => app.stores.conversations.getState();
const key = 'sk-test-SECRET-123';

/** Blobs handed to `URL.createObjectURL` and the names the download links were clicked with. */
let blobs: Blob[] = [];
let downloads: string[] = [];

beforeEach(() => {
  app = createTestApp();
  blobs = [];
  downloads = [];
  // jsdom has neither object URLs nor navigation: capture the blob and the click instead.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:test/${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

function seed() {
  const id = store().newConversation();
  store().addUserMessage(id, 'Weather in Oslo?');
  const messageId = store().addAssistantMessage(id, 'responses', 'sim-tools');
  store().addAttempt(id, messageId, {
    id: 'att_1',
    startedAt: Date.UTC(2025, 9, 2, 20, 26),
    request: { url: '/v1/responses', path: '/responses', headers: {}, body: {} },
    turn: {
      ...emptyTurn,
      status: 'complete',
      reasoning: 'Look it up.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
    },
    sentHeaders: { authorization: '[redacted]' },
    httpError: null,
    trace: emptyRecording(),
  });
  store().addToolResult(id, 'call_1', 'get_weather', '{"temp":-3}');
  return id;
}

describe('exporting a conversation from its row', () => {
  it('offers Markdown and JSON under the row, and downloads each through an object URL', async () => {
    const id = seed();
    app.stores.settings.getState().update({ apiKey: key });
    const user = userEvent.setup();
    app.render(<ConversationList />);

    const toggle = screen.getByRole('button', { name: 'Export Weather in Oslo?' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Export Weather in Oslo? as Markdown' })).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', expect.any(String));

    await user.click(screen.getByRole('button', { name: 'Export Weather in Oslo? as Markdown' }));
    await user.click(screen.getByRole('button', { name: 'Export Weather in Oslo? as JSON' }));
    const today = new Date().toISOString().slice(0, 10);
    expect(downloads).toEqual([
      `hopbase-weather-in-oslo-${today}.md`,
      `hopbase-weather-in-oslo-${today}.json`,
    ]);
    expect(blobs.map((b) => b.type)).toEqual(['text/markdown;charset=utf-8', 'application/json']);

    const [markdown, json] = await Promise.all(blobs.map((b) => b.text()));
    expect(markdown).toMatch(/^# Weather in Oslo\?\n/);
    expect(markdown).toContain('## Answer · sim-tools · Responses · 2025-10-02 20:26 UTC');
    expect(markdown).toContain('> **Reasoning**\n>\n> Look it up.');
    expect(markdown).toContain(
      '### Tool call: get_weather (`call_1`)\n\n```json\n{\n  "city": "Oslo"\n}\n```',
    );
    expect(markdown).toContain('## Tool result · get_weather');
    const document = JSON.parse(json!);
    expect(document).toMatchObject({ format: 'hopbase-chat-conversation', version: 1 });
    expect(document.conversation).toEqual(JSON.parse(JSON.stringify(store().conversations[id])));
    expect(json).not.toContain(key);
  });

  it('closes with Escape, focus back on its button', async () => {
    seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    const toggle = screen.getByRole('button', { name: 'Export Weather in Oslo?' });
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Export Weather in Oslo? as JSON' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Export Weather in Oslo? as JSON' })).toBeNull();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});
