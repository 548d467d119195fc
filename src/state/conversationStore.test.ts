import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyTurn, type Turn } from '../core/index.ts';
import {
  type ConversationStore,
  conversationUsage,
  createConversationStore,
  currentAttempt,
  toConversationMessages,
} from './conversationStore.ts';
import { emptyRecording } from './recordings.ts';
import type { AssistantMessage, Attempt, ChatMessage } from './types.ts';

let conversationStore: ConversationStore;
const store = () => conversationStore.getState();

function attempt(id: string, turn: Partial<Turn>): Attempt {
  return {
    id,
    startedAt: 0,
    request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
    turn: { ...emptyTurn, ...turn },
    sentHeaders: {},
    httpError: null,
    trace: emptyRecording(),
  };
}

function assistant(id: string, attempts: Attempt[]): AssistantMessage {
  return {
    id,
    role: 'assistant',
    protocol: 'chat',
    model: 'm',
    source: { kind: 'gateway' },
    createdAt: 0,
    attempts,
  };
}

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});

beforeEach(() => {
  conversationStore = createConversationStore();
  vi.useRealTimers();
});

describe('conversationStore', () => {
  it('creates conversations newest first and makes the new one active', () => {
    const a = store().newConversation();
    const b = store().newConversation();
    expect(a).not.toBe(b);
    expect(store().order).toEqual([b, a]);
    expect(store().activeId).toBe(b);
    expect(store().conversations[a]).toMatchObject({ id: a, title: 'New chat', messages: [] });
  });

  it('selects only existing conversations', () => {
    const a = store().newConversation();
    store().newConversation();
    store().selectConversation(a);
    expect(store().activeId).toBe(a);
    store().selectConversation('conv_missing');
    expect(store().activeId).toBe(a);
  });

  it('renames with the title trimmed and ignores an empty one', () => {
    const id = store().newConversation();
    store().renameConversation(id, '  Trip plans  ');
    expect(store().conversations[id]?.title).toBe('Trip plans');
    store().renameConversation(id, '   ');
    expect(store().conversations[id]?.title).toBe('Trip plans');
    store().renameConversation(id, '');
    expect(store().conversations[id]?.title).toBe('Trip plans');
  });

  it('deletes a conversation; deleting the active one moves to the next, then to none', () => {
    const a = store().newConversation();
    const b = store().newConversation();
    const c = store().newConversation();
    store().selectConversation(a);
    store().deleteConversation(b);
    expect(store().order).toEqual([c, a]);
    expect(store().activeId).toBe(a);
    expect(store().conversations[b]).toBeUndefined();

    store().deleteConversation(a);
    expect(store().activeId).toBe(c);
    store().deleteConversation(c);
    expect(store().activeId).toBeNull();
    expect(store().order).toEqual([]);
  });

  it('takes the title from the first user message only', () => {
    const id = store().newConversation();
    store().addUserMessage(id, '  What is SSE?\nPlease explain.');
    expect(store().conversations[id]?.title).toBe('What is SSE?');
    store().addUserMessage(id, 'Second question');
    expect(store().conversations[id]?.title).toBe('What is SSE?');

    const long = store().newConversation();
    store().addUserMessage(long, 'x'.repeat(100));
    expect(store().conversations[long]?.title).toBe(`${'x'.repeat(47)}…`);

    const renamed = store().newConversation();
    store().renameConversation(renamed, 'Mine');
    store().addUserMessage(renamed, 'hello');
    expect(store().conversations[renamed]?.title).toBe('Mine');
  });

  it('adds and updates attempts of an assistant message, bumping updatedAt', () => {
    vi.useFakeTimers({ now: 1_000 });
    const id = store().newConversation();
    const messageId = store().addAssistantMessage(id, 'responses', 'gpt-x');
    store().addAttempt(id, messageId, attempt('att_1', {}));
    vi.setSystemTime(5_000);
    store().updateAttempt(id, messageId, 'att_1', (a) => ({ ...a, turn: { ...a.turn, text: 'Hi' } }));
    store().addAttempt(id, messageId, attempt('att_2', { text: 'second' }));

    const conversation = store().conversations[id]!;
    expect(conversation.updatedAt).toBe(5_000);
    const message = conversation.messages[0] as AssistantMessage;
    expect(message).toMatchObject({ role: 'assistant', protocol: 'responses', model: 'gpt-x' });
    expect(message.attempts.map((a) => [a.id, a.turn.text])).toEqual([
      ['att_1', 'Hi'],
      ['att_2', 'second'],
    ]);
    expect(currentAttempt(message)?.id).toBe('att_2');
  });

  it('ignores changes to a deleted conversation', () => {
    const id = store().newConversation();
    const messageId = store().addAssistantMessage(id, 'chat', 'm');
    store().deleteConversation(id);
    const before = store().conversations;
    store().addAttempt(id, messageId, attempt('att_1', {}));
    store().addUserMessage(id, 'late');
    expect(store().conversations).toBe(before);
  });

  it('hydrates sorted by updatedAt and keeps a known active id', () => {
    const conv = (id: string, updatedAt: number) => ({
      id,
      title: id,
      createdAt: 0,
      updatedAt,
      messages: [],
    });
    store().hydrate([conv('a', 1), conv('b', 3), conv('c', 2)], 'c');
    expect(store().order).toEqual(['b', 'c', 'a']);
    expect(store().activeId).toBe('c');
    expect(store().hydrated).toBe(true);
    store().hydrate([conv('a', 1), conv('b', 3)], 'gone');
    expect(store().activeId).toBe('b');
  });
});

describe('toConversationMessages', () => {
  it('converts users, assistant text and tool calls, and tool results, from the newest attempt', () => {
    const messages: ChatMessage[] = [
      { id: 'u1', role: 'user', text: 'Weather in Paris?', createdAt: 0 },
      assistant('a1', [
        attempt('x', { status: 'error', text: 'partial' }),
        attempt('y', {
          status: 'complete',
          text: 'Let me check.',
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        }),
      ]),
      { id: 't1', role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '18°C', createdAt: 0 },
      assistant('a2', [attempt('z', { status: 'complete', text: 'It is 18°C.' })]),
    ];
    expect(toConversationMessages(messages)).toEqual([
      { role: 'user', text: 'Weather in Paris?' },
      {
        role: 'assistant',
        text: 'Let me check.',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '18°C' },
      { role: 'assistant', text: 'It is 18°C.', toolCalls: [] },
    ]);
  });

  it('skips answers whose newest attempt produced nothing (failed before output, or no attempt)', () => {
    const messages: ChatMessage[] = [
      { id: 'u1', role: 'user', text: 'one', createdAt: 0 },
      assistant('a1', [
        attempt('x', { status: 'complete', text: 'old success' }),
        attempt('y', { status: 'error', error: { code: 'http_500', message: 'boom' } }),
      ]),
      assistant('a2', []),
      { id: 'u2', role: 'user', text: 'two', createdAt: 0 },
    ];
    expect(toConversationMessages(messages)).toEqual([
      { role: 'user', text: 'one' },
      { role: 'user', text: 'two' },
    ]);
  });

  it('leaves out replayed recordings: they are not what the model said', () => {
    const replayed = { ...assistant('a1', [attempt('x', { status: 'complete', text: 'recorded' })]) };
    const messages: ChatMessage[] = [
      { ...replayed, source: { kind: 'replay', file: 'turn.sse' } },
      { id: 'u1', role: 'user', text: 'What did it say?', createdAt: 0 },
    ];
    expect(toConversationMessages(messages)).toEqual([{ role: 'user', text: 'What did it say?' }]);
  });

  it('keeps the partial text of an interrupted answer', () => {
    const messages: ChatMessage[] = [
      assistant('a1', [attempt('x', { status: 'interrupted', text: 'half an ans' })]),
    ];
    expect(toConversationMessages(messages)).toEqual([
      { role: 'assistant', text: 'half an ans', toolCalls: [] },
    ]);
  });
});

describe('conversationUsage', () => {
  it('counts every attempt of every answer, failed ones included', () => {
    const id = store().newConversation();
    const m1 = store().addAssistantMessage(id, 'chat', 'm');
    store().addAttempt(id, m1, attempt('a', { status: 'interrupted', text: 'x', usage: usage(10, 3) }));
    store().addAttempt(id, m1, attempt('b', { status: 'complete', text: 'y', usage: usage(10, 7) }));
    store().addUserMessage(id, 'next');
    const m2 = store().addAssistantMessage(id, 'messages', 'm');
    store().addAttempt(id, m2, attempt('c', { status: 'error' }));
    store().addAttempt(id, m2, attempt('d', { status: 'complete', usage: usage(100, 20) }));
    expect(conversationUsage(store().conversations[id]!)).toEqual({ input: 120, output: 30, total: 150 });
  });

  it('is zero for a conversation without answers', () => {
    const id = store().newConversation();
    expect(conversationUsage(store().conversations[id]!)).toEqual({ input: 0, output: 0, total: 0 });
  });
});
