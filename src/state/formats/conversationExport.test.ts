import { describe, expect, it } from 'vitest';
import { emptyTurn, type HttpError, type Turn } from '../../core/index.ts';
import { es } from '../../i18n/catalogs/es.ts';
import { exportWords } from '../../i18n/explain.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import { emptyRecording } from '../domain/recordings.ts';
import type { AssistantMessage, Attempt, Conversation } from '../domain/types.ts';
import {
  type ConversationDocument,
  conversationFileName,
  conversationFormat,
  exportConversationJson,
  exportConversationMarkdown,
} from './conversationExport.ts';

const key = 'sk-test-SECRET-123';
const at = (minute: number) => Date.UTC(2025, 9, 2, 20, minute, 0);
const now = Date.UTC(2025, 9, 3, 9, 30, 0);
/** The notes' titles come from the UI's catalogs: English here. */
const english = exportWords(createI18n('en'));

function attempt(
  id: string,
  minute: number,
  turn: Partial<Turn>,
  httpError: HttpError | null = null,
): Attempt {
  return {
    id,
    startedAt: at(minute),
    request: {
      url: 'https://user:hunter2@gateway.example.com/v1/chat/completions',
      path: '/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: { model: 'gpt-4o', note: `pasted ${key} by mistake` },
    },
    sentHeaders: { 'content-type': 'application/json', authorization: '[redacted]', 'x-api-key': key },
    turn: { ...emptyTurn, status: 'complete', ...turn },
    httpError,
    trace: { ...emptyRecording(), raw: 'data: {"choices":[]}\n\n', bytes: 22 },
  };
}

function answer(id: string, minute: number, model: string, attempts: Attempt[]): AssistantMessage {
  return {
    id,
    role: 'assistant',
    protocol: 'chat',
    model,
    source: { kind: 'gateway' },
    createdAt: at(minute),
    attempts,
  };
}

/** A tool loop with reasoning, then an answer that failed once and was retried, then one that failed. */
const conversation: Conversation = {
  id: 'conv_1',
  title: 'Weather in Oslo',
  createdAt: at(0),
  updatedAt: at(9),
  messages: [
    { id: 'm1', role: 'user', text: 'What is the weather in Oslo?', createdAt: at(1) },
    answer('m2', 2, 'sim-reasoning', [
      attempt('a1', 2, {
        reasoning: 'The user wants the weather.\n\nCall get_weather.',
        text: "I'll look that up.",
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo","unit":"celsius"}' }],
        finishReason: 'tool_calls',
        usage: { inputTokens: 40, outputTokens: 20, totalTokens: 60, reasoningTokens: 8 },
      }),
    ]),
    {
      id: 'm3',
      role: 'tool',
      toolCallId: 'call_1',
      name: 'get_weather',
      content: '{"temp":-3,"sky":"snow"}',
      createdAt: at(3),
    },
    answer('m4', 4, 'sim-flaky', [
      attempt('a2', 4, {
        status: 'interrupted',
        text: 'It is −3 °C',
        error: { code: 'interrupted', message: 'The stream ended without a terminal event' },
        usage: { inputTokens: 70, outputTokens: 5, totalTokens: 75 },
      }),
      attempt('a3', 5, {
        text: 'It is **−3 °C** with snow in Oslo.\n\n```js\nconst fence = "```";\n```',
        usage: { inputTokens: 70, outputTokens: 12, totalTokens: 82 },
      }),
    ]),
    { id: 'm5', role: 'user', text: 'And tomorrow?', createdAt: at(8) },
    answer('m6', 9, 'sim-rate-limit', [
      attempt(
        'a4',
        9,
        { status: 'error', error: { code: 'http_429', message: 'Too many requests' } },
        {
          status: 429,
          code: 'rate_limit_exceeded',
          message: 'Too many requests',
          retryable: true,
          retryAfterSeconds: 2,
          requestId: null,
        },
      ),
    ]),
  ],
};

describe('exportConversationMarkdown', () => {
  it('writes the title, every message and answer as a section, reasoning, tool calls and results, failures marked', () => {
    expect(exportConversationMarkdown(conversation, key, now, english)).toBe(EXPECTED_MARKDOWN);
  });

  it('is written in the language of the words it is given, numbers in its format', () => {
    const spanish = exportWords(createI18n('es', es));
    const markdown = exportConversationMarkdown({ ...conversation, title: ' ' }, key, now, spanish);
    expect(markdown).toMatch(/^# Conversación sin título\n/);
    expect(markdown).toContain('## Tú · 2025-10-02 20:01 UTC');
    expect(markdown).toContain('### Llamada a herramienta: get_weather (`call_1`)');
    expect(markdown).toContain('_Uso: 40 entrada · 20 salida · 60 total (8 de razonamiento)_');
    expect(markdown).toContain(
      '- Intento 1 de 2, 2025-10-02 20:04 UTC: interrumpido tras 5 tokens de salida',
    );
    expect(markdown).not.toMatch(/\b(You|Answer|Usage|Attempt)\b/);
  });

  it.each<[string, Partial<Turn>, HttpError | null, string]>([
    ['a complete answer', { text: 'Fine.' }, null, ''],
    [
      'an interruption',
      { status: 'interrupted', text: 'Part', error: { code: 'api_error', message: 'Overloaded' } },
      null,
      '> ⚠️ **Incomplete**, interrupted: The stream was interrupted (`api_error`: Overloaded). What arrived before is kept below.',
    ],
    [
      'Stop',
      { status: 'aborted', text: 'Part', error: { code: 'aborted', message: 'Stopped by you' } },
      null,
      '> ⚠️ **Incomplete**, stopped: Stopped (`aborted`: Stopped by you). What arrived before is kept below.',
    ],
    [
      'an error event',
      { status: 'error', error: { code: 'server_error', message: 'Boom' } },
      null,
      '> ⚠️ **Failed**, failed:',
    ],
    [
      'the token limit',
      { text: 'Cut', finishReason: 'length', rawFinishReason: 'length' },
      null,
      '> ⚠️ **Incomplete**: The answer hit the output token limit (length).',
    ],
    [
      'a stream still running',
      { status: 'streaming', text: 'So far' },
      null,
      '> ⚠️ **Incomplete**: the answer was still streaming when this was exported.',
    ],
    [
      'an HTTP error',
      { status: 'error' },
      {
        status: 401,
        code: 'invalid_api_key',
        message: 'Bad key',
        retryable: false,
        retryAfterSeconds: null,
        requestId: null,
      },
      '> ⚠️ **Failed** before any output:',
    ],
  ])('marks %s', (_name, turn, httpError, note) => {
    const single: Conversation = {
      ...conversation,
      messages: [answer('m', 1, 'm', [attempt('a', 1, turn, httpError)])],
    };
    const markdown = exportConversationMarkdown(single, '', now, english);
    if (note) expect(markdown).toContain(note);
    else expect(markdown).not.toContain('⚠️');
  });

  it('writes the branch shown, each message saying which version it is; the tokens billed count them all', () => {
    const single = (id: string, minute: number, text: string, tokens: number) =>
      answer(id, minute, 'sim-echo', [
        attempt(`${id}_a`, minute, {
          text,
          usage: { inputTokens: tokens, outputTokens: 0, totalTokens: tokens },
        }),
      ]);
    const versions: Conversation = {
      ...conversation,
      messages: [
        { id: 'q1', role: 'user', text: 'Capital of France?', createdAt: at(1), parentId: null },
        { ...single('r1', 2, 'Paris', 10), parentId: 'q1' },
        { id: 'q2', role: 'user', text: 'Capital of Italy?', createdAt: at(3), parentId: null },
        { ...single('r2', 4, 'Rome', 20), parentId: 'q2' },
        { ...single('r3', 5, 'Rome, since 1871', 30), parentId: 'q2' },
      ],
      selected: { q2: 'r2' },
    };
    const markdown = exportConversationMarkdown(versions, '', now, english);
    expect(markdown).toContain(
      '· 2 messages · 60 tokens billed (every attempt) · 3 messages of other versions left out_',
    );
    expect(markdown).toContain('## You · 2025-10-02 20:03 UTC · version 2 of 2\n\nCapital of Italy?');
    expect(markdown).toContain(
      '## Answer · sim-echo · Chat Completions · 2025-10-02 20:04 UTC · version 1 of 2\n\nRome',
    );
    expect(markdown).not.toContain('Paris');
    expect(markdown).not.toContain('since 1871');
  });

  it('never holds the API key', () => {
    const withKey = {
      ...conversation,
      messages: [{ id: 'u', role: 'user' as const, text: `my key is ${key}`, createdAt: 0 }],
    };
    const markdown = exportConversationMarkdown(withKey, key, now, english);
    expect(markdown).not.toContain(key);
    expect(markdown).toContain('my key is [redacted]');
  });
});

describe('exportConversationJson', () => {
  it('is the conversation record in the versioned format, with no credential', () => {
    const text = exportConversationJson(conversation, key, now);
    expect(text).not.toContain(key);
    expect(text).not.toContain('hunter2');
    const document = JSON.parse(text) as ConversationDocument;
    expect(document.format).toBe(conversationFormat);
    expect(document.format).toBe('hopbase-chat-conversation');
    expect(document.version).toBe(1);
    expect(document.exportedAt).toBe('2025-10-03T09:30:00.000Z');

    const exported = document.conversation;
    const [first] = exported.messages.filter((m) => m.role === 'assistant') as AssistantMessage[];
    const sent = first!.attempts[0]!;
    expect(sent.request.url).toBe('https://gateway.example.com/v1/chat/completions');
    expect(sent.request.headers).toEqual({ 'content-type': 'application/json', authorization: '[redacted]' });
    expect(sent.sentHeaders).toEqual({
      'content-type': 'application/json',
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
    });
    expect(sent.request.body).toEqual({ model: 'gpt-4o', note: 'pasted [redacted] by mistake' });

    // Everything else is the record as it is: ids, times, messages, every attempt with its turn and trace.
    const strip = (c: Conversation) =>
      c.messages.map((m) =>
        m.role === 'assistant'
          ? { ...m, attempts: m.attempts.map(({ request: _r, sentHeaders: _h, ...rest }) => rest) }
          : m,
      );
    expect(strip(exported)).toEqual(strip(conversation));
    expect({ ...exported, messages: [] }).toEqual({ ...conversation, messages: [] });
  });

  it('leaves the stored conversation untouched', () => {
    const before = JSON.stringify(conversation);
    exportConversationJson(conversation, key, now);
    expect(JSON.stringify(conversation)).toBe(before);
  });
});

describe('conversationFileName', () => {
  it.each([
    ['Weather in Oslo', 'md', 'hopbase-weather-in-oslo-2025-10-03.md'],
    ['Café — “quotes” / slashes', 'json', 'hopbase-café-quotes-slashes-2025-10-03.json'],
    ['東京タワーの高さ', 'md', 'hopbase-東京タワーの高さ-2025-10-03.md'],
    ['???', 'json', 'hopbase-conversation-2025-10-03.json'],
    ['a'.repeat(100), 'md', `hopbase-${'a'.repeat(60)}-2025-10-03.md`],
  ] as const)('%j → %j', (title, extension, name) => {
    expect(conversationFileName({ ...conversation, title }, extension, now)).toBe(name);
  });
});

describe('a replayed recording (stored untitled)', () => {
  const replay: Conversation = {
    ...conversation,
    title: '',
    messages: [
      {
        ...answer('msg_r', 1, 'sim-echo', [attempt('att_r', 1, { text: 'Hi' })]),
        source: { kind: 'replay', file: 'stall.sse' },
      },
    ],
  };
  it('is named after its file, in the heading and the file name', () => {
    expect(exportConversationMarkdown(replay, key, now, english)).toMatch(/^# Replay: stall\.sse\n/);
    expect(conversationFileName(replay, 'md', now)).toBe('hopbase-replay-stall-sse-2025-10-03.md');
  });
});

const EXPECTED_MARKDOWN = `# Weather in Oslo

_Exported from HopBase Chat on 2025-10-03 09:30 UTC · started 2025-10-02 20:00 UTC · 6 messages · 217 tokens billed (every attempt)_

## You · 2025-10-02 20:01 UTC

What is the weather in Oslo?

## Answer · sim-reasoning · Chat Completions · 2025-10-02 20:02 UTC

> **Reasoning**
>
> The user wants the weather.
>
> Call get_weather.

I'll look that up.

### Tool call: get_weather (\`call_1\`)

\`\`\`json
{
  "city": "Oslo",
  "unit": "celsius"
}
\`\`\`

_Usage: 40 in · 20 out · 60 total (8 reasoning)_

## Tool result · get_weather · 2025-10-02 20:03 UTC

Result of \`call_1\`:

\`\`\`json
{
  "temp": -3,
  "sky": "snow"
}
\`\`\`

## Answer · sim-flaky · Chat Completions · 2025-10-02 20:05 UTC

It is **−3 °C** with snow in Oslo.

\`\`\`js
const fence = "\`\`\`";
\`\`\`

_Usage: 70 in · 12 out · 82 total_

Shown: attempt 2 of 2. Earlier attempts:

- Attempt 1 of 2, 2025-10-02 20:04 UTC: interrupted after 5 output tokens (interrupted: The stream ended without a terminal event)

## You · 2025-10-02 20:08 UTC

And tomorrow?

## Answer · sim-rate-limit · Chat Completions · 2025-10-02 20:09 UTC

> ⚠️ **Failed** before any output: Rate limit reached (HTTP 429, \`rate_limit_exceeded\`: Too many requests)

_No output._
`;
