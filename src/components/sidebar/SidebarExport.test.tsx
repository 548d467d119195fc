import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { emptyRecording, withFiguresKept } from '../../state/domain/recordings.ts';
import type { Attempt, AttemptTrace } from '../../state/domain/types.ts';
import { captureDownloads } from '../../testing/objectUrls.ts';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ConversationList } from './ConversationList.tsx';

let app: TestApp;
const store = () => app.stores.conversations.getState();
const key = 'sk-test-SECRET-123';

/** Blobs handed to `URL.createObjectURL` and the names the download links were clicked with. */
let blobs: Blob[];
let downloads: string[];

beforeEach(() => {
  app = createTestApp();
  ({ blobs, names: downloads } = captureDownloads());
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
    await waitFor(() => expect(downloads).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Export Weather in Oslo? as JSON' }));
    await waitFor(() => expect(downloads).toHaveLength(2));
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

  it('says so when the export cannot be fetched (offline, or a newer version put online)', async () => {
    vi.doMock('../../state/formats/conversationExport.ts', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    onTestFinished(() => vi.doUnmock('../../state/formats/conversationExport.ts'));
    seed();
    const user = userEvent.setup();
    app.render(<ConversationList />);
    const toggle = screen.getByRole('button', { name: 'Export Weather in Oslo?' });
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Export Weather in Oslo? as Markdown' }));
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    await waitFor(() =>
      expect(within(panel).getByRole('status')).toHaveTextContent(
        'The export could not be loaded. Check the connection, then try again.',
      ),
    );
    expect(downloads).toEqual([]);
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

describe('exporting JSON after a reload (recordings kept in the database)', () => {
  /** A finished attempt whose recording says `words`. */
  function recorded(id: string, words: string): Attempt {
    const raw = `data: {"text":"${words}"}\n\n`;
    return {
      id,
      startedAt: Date.UTC(2025, 9, 2, 20, 26),
      request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
      turn: { ...emptyTurn, status: 'complete', text: words },
      sentHeaders: {},
      httpError: null,
      trace: {
        ...emptyRecording(),
        endedAt: 40,
        bytes: raw.length,
        outputEvents: 1,
        items: [{ t: 20, kind: 'event', event: 'message', data: `{"text":"${words}"}` }],
        raw,
      },
    };
  }
  /** As a reload leaves an attempt: its recording's events in the database only. */
  const keptApart = (attempt: Attempt): Attempt => ({ ...attempt, trace: withFiguresKept(attempt) });

  /**
   * A question answered twice (a regenerated answer: two versions, the first one hidden), each recording
   * in the database only.
   */
  function reloaded() {
    const id = store().newConversation();
    store().addUserMessage(id, 'Weather in Oslo?');
    const firstId = store().addAssistantMessage(id, 'chat', 'sim-echo');
    const wholeFirst = recorded('att_first', 'Cold.');
    store().addAttempt(id, firstId, keptApart(wholeFirst));
    const secondId = store().addAnswerVersion(id, firstId)!;
    const wholeSecond = recorded('att_second', 'Very cold.');
    store().addAttempt(id, secondId, keptApart(wholeSecond));
    return {
      id,
      stored: new Map([
        [wholeFirst.id, { messageId: firstId, trace: wholeFirst.trace }],
        [wholeSecond.id, { messageId: secondId, trace: wholeSecond.trace }],
      ]),
    };
  }

  /**
   * Persistence as the export sees it: each recording asked for is read when `finish` is called, put
   * into its attempt if it is in `stored`, else reported unreadable.
   */
  function persistence(
    conversationId: string,
    stored: Map<string, { messageId: string; trace: AttemptTrace }>,
  ) {
    const asked = new Set<string>();
    app.stores.recordings.subscribe(({ loads }) => {
      for (const id of Object.keys(loads)) if (loads[id] === 'loading') asked.add(id);
    });
    return {
      asked,
      finish() {
        for (const id of asked) {
          const found = stored.get(id);
          if (found)
            store().updateAttempt(conversationId, found.messageId, id, (a) => ({ ...a, trace: found.trace }));
          app.stores.recordings.setState((s) => {
            const { [id]: _, ...loads } = s.loads;
            return { loads: found ? loads : { ...loads, [id]: 'unreadable' } };
          });
        }
        asked.clear();
      },
    };
  }

  const jsonButton = () => screen.getByRole('button', { name: 'Export Weather in Oslo? as JSON' });

  /** Opens the row's export choices; returns their status line (the panel is what the toggle controls). */
  async function openExport(user: ReturnType<typeof userEvent.setup>) {
    app.render(<ConversationList />);
    const toggle = screen.getByRole('button', { name: 'Export Weather in Oslo?' });
    await user.click(toggle);
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    return () => within(panel).getByRole('status');
  }

  it('reads every version’s recording first, busy meanwhile, and writes them into the file', async () => {
    const { id, stored } = reloaded();
    const database = persistence(id, stored);
    const user = userEvent.setup();
    const status = await openExport(user);

    await user.click(jsonButton());
    expect(database.asked).toEqual(new Set(['att_first', 'att_second']));
    expect(jsonButton()).toHaveAttribute('aria-busy', 'true');
    expect(jsonButton()).toHaveAttribute('aria-disabled', 'true');
    expect(status()).toHaveTextContent('Reading 2 recordings for the file…');
    // A second click while busy writes no second file.
    await user.click(jsonButton());
    expect(downloads).toEqual([]);

    act(() => database.finish());
    await waitFor(() => expect(jsonButton()).toHaveAttribute('aria-busy', 'false'));
    expect(downloads).toHaveLength(1);
    expect(status()).toBeEmptyDOMElement();
    const document = JSON.parse(await blobs[0]!.text());
    const traces = document.conversation.messages
      .filter((m: { role: string }) => m.role === 'assistant')
      .map((m: { attempts: Attempt[] }) => m.attempts[0]!.trace);
    expect(traces).toEqual([stored.get('att_first')!.trace, stored.get('att_second')!.trace]);
  });

  it('writes the file without the recordings that could not be read, and says how many', async () => {
    const { id, stored } = reloaded();
    stored.delete('att_first');
    const database = persistence(id, stored);
    const user = userEvent.setup();
    const status = await openExport(user);

    await user.click(jsonButton());
    act(() => database.finish());
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(status()).toHaveTextContent('1 recording could not be read; the file has the rest.');
    const document = JSON.parse(await blobs[0]!.text());
    const [first, second] = document.conversation.messages
      .filter((m: { role: string }) => m.role === 'assistant')
      .map((m: { attempts: Attempt[] }) => m.attempts[0]!);
    expect(first.trace.items).toEqual([]);
    expect(first.trace.bytes).toBeGreaterThan(0);
    expect(second.trace).toEqual(stored.get('att_second')!.trace);
  });

  it('reads the request bodies a reload left in the database first, and writes them into the file', async () => {
    const id = store().newConversation();
    store().addUserMessage(id, 'Weather in Oslo?');
    const messageId = store().addAssistantMessage(id, 'chat', 'sim-echo');
    const whole = recorded('att_body', 'Cold.');
    const body = { model: 'sim-echo', messages: [{ role: 'user', content: 'Weather in Oslo?' }] };
    store().addAttempt(id, messageId, { ...whole, request: { ...whole.request, bodyMissing: 'missing' } });
    const asked: string[] = [];
    app.stores.bodies.subscribe(({ loads }) => {
      for (const attemptId of Object.keys(loads))
        if (loads[attemptId] === 'loading' && !asked.includes(attemptId)) asked.push(attemptId);
    });
    const user = userEvent.setup();
    await openExport(user);

    await user.click(jsonButton());
    expect(asked).toEqual(['att_body']);
    expect(downloads).toEqual([]);
    act(() => {
      store().updateAttempt(id, messageId, 'att_body', (a) => ({
        ...a,
        request: { ...whole.request, body },
      }));
      app.stores.bodies.getState().settle(['att_body'], new Map());
    });
    await waitFor(() => expect(downloads).toHaveLength(1));
    const document = JSON.parse(await blobs[0]!.text());
    const answer = document.conversation.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(answer.attempts[0].request.body).toEqual(body);
    expect(answer.attempts[0].request.bodyMissing).toBeUndefined();
  });

  it('asks for nothing when every recording is in memory, and Markdown never waits for them', async () => {
    const { id, stored } = reloaded();
    const database = persistence(id, stored);
    const user = userEvent.setup();
    await openExport(user);

    await user.click(screen.getByRole('button', { name: 'Export Weather in Oslo? as Markdown' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(database.asked.size).toBe(0);

    act(() => {
      for (const [attemptId, { messageId, trace }] of stored)
        store().updateAttempt(id, messageId, attemptId, (a) => ({ ...a, trace }));
    });
    await user.click(jsonButton());
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(database.asked.size).toBe(0);
  });
});
