import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyTurn, type Protocol, type ReasoningState, type Turn } from '../../core/index.ts';
import { shownBranch } from '../domain/branches.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { AssistantMessage, Attempt, ChatMessage } from '../domain/types.ts';
import {
  type ConversationStore,
  choicesFor,
  conversationUsage,
  createConversationStore,
  currentAttempt,
  reasoningLeftOut,
  toConversationMessages,
  touchedIds,
} from './conversationStore.ts';

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
    expect(store().conversations[a]).toMatchObject({ id: a, title: '', messages: [] });
  });

  it('names the conversations that arrived from storage, and only those', () => {
    const mine = store().newConversation();
    expect(store().arrived).toEqual([]);
    const stored = (id: string) => ({ id, title: id, createdAt: 1, updatedAt: 1, messages: [] });
    store().hydrate([stored('conv_a'), stored('conv_b')], null);
    expect([...store().arrived].sort()).toEqual(['conv_a', 'conv_b']);
    store().takeStored([stored('conv_c')]);
    expect(store().arrived).toEqual(['conv_c']);
    store().renameConversation('conv_c', 'Renamed here');
    expect(store().arrived).toEqual(['conv_c']);
    expect(store().arrived).not.toContain(mine);
  });

  it('names the ids each change of the conversations touched: every one that differs is among them', () => {
    const seen: (readonly string[] | null)[] = [];
    conversationStore.subscribe((state, previous) => {
      if (state.conversations === previous.conversations) return;
      seen.push(state.touched);
      if (state.touched === null) return;
      const ids = new Set([...Object.keys(state.conversations), ...Object.keys(previous.conversations)]);
      const differ = [...ids].filter((id) => state.conversations[id] !== previous.conversations[id]);
      expect(state.touched).toEqual(expect.arrayContaining(differ));
      expect(touchedIds(state, previous)).toBe(state.touched);
    });
    const stored = (id: string) => ({ id, title: id, createdAt: 1, updatedAt: 1, messages: [] });
    store().hydrate([stored('conv_a'), stored('conv_b')], null);
    const id = store().newConversation();
    store().renameConversation(id, 'Named');
    store().addUserMessage(id, 'Hello');
    const answer = store().addAssistantMessage(id, 'chat', 'm');
    store().addAttempt(id, answer, attempt('att_1', { status: 'streaming' }));
    store().updateAttempt(id, answer, 'att_1', (a) => ({ ...a, turn: { ...a.turn, text: 'Hi' } }));
    store().noteAutomaticLimit(id, answer);
    const again = store().addAnswerVersion(id, answer);
    store().selectVersion(id, answer);
    store().setChoices(id, { protocol: 'messages', model: 'n', reasoning: 'off' });
    store().setSystemPrompt(id, 'Be brief.');
    store().setToolSetup(id, { tools: [] });
    store().addToolResult(id, 'call_1', 'lookup', '{}');
    store().takeStored([stored('conv_c'), { ...stored('conv_a'), title: 'Changed elsewhere' }], ['conv_b']);
    store().takeStored([stored('conv_d')], [], 'byDate');
    store().deleteConversation('conv_c');
    store().selectConversation('conv_a');
    expect(again).not.toBeNull();
    // A load may change any of them; every other change names its own, and changes of nothing else.
    expect(seen[0]).toBeNull();
    expect(seen.slice(1)).toEqual([
      // The new conversation, then each of the twelve changes made to it.
      ...Array.from({ length: 13 }, () => [id]),
      ['conv_c', 'conv_a', 'conv_b'],
      ['conv_d'],
      ['conv_c'],
    ]);
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

describe('versions', () => {
  const conversation = (id: string) => store().conversations[id]!;
  const shownIds = (id: string) => shownBranch(conversation(id)).map((m) => m.id);
  const texts = (id: string) =>
    shownBranch(conversation(id)).map((m) => (m.role === 'user' ? m.text : m.role));

  /** A question answered: the conversation and the two messages' ids. */
  function asked(text: string) {
    const id = store().newConversation();
    store().addUserMessage(id, text);
    const question = conversation(id).messages[0]!.id;
    const answer = store().addAssistantMessage(id, 'messages', 'claude', undefined, { thinkingPaused: true });
    return { id, question, answer };
  }

  it('places each new message after the last one shown, tool results included', () => {
    const { id, question, answer } = asked('Weather?');
    store().addToolResult(id, 'call_1', 'get_weather', 'Sunny');
    store().addToolResult(id, 'call_2', 'get_weather', 'Rainy');
    const [, , first, second] = conversation(id).messages;
    expect(conversation(id).messages.map((m) => m.parentId)).toEqual([null, question, answer, first!.id]);
    expect(shownIds(id)).toEqual([question, answer, first!.id, second!.id]);
  });

  it('adds an edit beside the original, with its attachments, and shows it; the original branch stays', () => {
    const { id, question, answer } = asked('Wether in Paris?');
    const attachments = [{ id: 'f1', name: 'a.png', mimeType: 'image/png', size: 3, kind: 'image' as const }];
    store().hydrate(
      [
        {
          ...conversation(id),
          messages: conversation(id).messages.map((m) => (m.id === question ? { ...m, attachments } : m)),
        },
      ],
      id,
    );
    const edited = store().addUserVersion(id, question, 'Weather in Paris?')!;
    expect(conversation(id).messages.find((m) => m.id === edited)).toMatchObject({
      role: 'user',
      text: 'Weather in Paris?',
      parentId: null,
      attachments,
    });
    expect(shownIds(id)).toEqual([edited]);
    expect(conversation(id).messages.map((m) => m.id)).toEqual([question, answer, edited]);
    // The title came from the first message: it follows the version shown.
    expect(conversation(id).title).toBe('Weather in Paris?');
    store().selectVersion(id, question);
    expect(shownIds(id)).toEqual([question, answer]);
    expect(conversation(id).title).toBe('Wether in Paris?');
    expect(store().addUserVersion(id, answer, 'not a question')).toBeNull();
  });

  it('keeps a title the person chose whatever version shows', () => {
    const { id, question } = asked('First');
    store().renameConversation(id, 'Mine');
    store().addUserVersion(id, question, 'Second');
    expect(conversation(id).title).toBe('Mine');
  });

  it('adds a regenerated answer beside the original, for the same request, and shows it', () => {
    const { id, question, answer } = asked('Hello');
    const again = store().addAnswerVersion(id, answer)!;
    expect(conversation(id).messages.find((m) => m.id === again)).toMatchObject({
      role: 'assistant',
      protocol: 'messages',
      model: 'claude',
      source: { kind: 'gateway' },
      thinkingPaused: true,
      attempts: [],
      parentId: question,
    });
    expect(shownIds(id)).toEqual([question, again]);
    store().selectVersion(id, answer);
    expect(shownIds(id)).toEqual([question, answer]);
    // What comes next follows the answer shown.
    store().addUserMessage(id, 'Thanks');
    expect(texts(id)).toEqual(['Hello', 'assistant', 'Thanks']);
    expect(shownIds(id)[1]).toBe(answer);
    expect(store().addAnswerVersion(id, question)).toBeNull();
  });

  it('adds answers as branches beside each other without changing the one shown (compared models)', () => {
    const id = store().newConversation();
    store().addUserMessage(id, 'Compare');
    const question = conversation(id).messages[0]!.id;
    const first = store().addAnswerBranch(id, question, 'chat', 'a')!;
    const second = store().addAnswerBranch(id, question, 'messages', 'b', undefined, {
      thinkingPaused: true,
    })!;
    const third = store().addAnswerBranch(id, question, 'responses', 'c')!;
    expect(conversation(id).messages.find((m) => m.id === second)).toMatchObject({
      role: 'assistant',
      protocol: 'messages',
      model: 'b',
      source: { kind: 'gateway' },
      thinkingPaused: true,
      attempts: [],
      parentId: question,
    });
    // The first one stays the conversation's answer until another is chosen.
    expect(shownIds(id)).toEqual([question, first]);
    store().selectVersion(id, third);
    expect(shownIds(id)).toEqual([question, third]);
    expect(store().addAnswerBranch(id, 'msg_unknown', 'chat', 'a')).toBeNull();
  });

  it('changes nothing when the version chosen is shown already, or unknown', () => {
    const { id, question } = asked('Hello');
    const before = conversation(id);
    store().selectVersion(id, question);
    store().selectVersion(id, 'msg_unknown');
    expect(conversation(id)).toBe(before);
  });

  it('names the parents of a conversation from before branches once something is added to it', () => {
    store().hydrate(
      [
        {
          id: 'old',
          title: 'Old',
          createdAt: 1,
          updatedAt: 1,
          messages: [
            { id: 'u1', role: 'user', text: 'Hi', createdAt: 1 },
            assistant('a1', [attempt('x', { status: 'complete', text: 'Hello' })]),
          ],
        },
      ],
      'old',
    );
    expect(shownIds('old')).toEqual(['u1', 'a1']);
    const again = store().addAnswerVersion('old', 'a1')!;
    expect(conversation('old').messages.map((m) => m.parentId)).toEqual([null, 'u1', 'u1']);
    expect(shownIds('old')).toEqual(['u1', again]);
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

  it('counts the answers of branches not shown too: all were billed', () => {
    const id = store().newConversation();
    store().addUserMessage(id, 'Hi');
    const first = store().addAssistantMessage(id, 'chat', 'm');
    store().addAttempt(id, first, attempt('a', { status: 'complete', usage: usage(10, 5) }));
    const again = store().addAnswerVersion(id, first)!;
    store().addAttempt(id, again, attempt('b', { status: 'complete', usage: usage(10, 6) }));
    expect(conversationUsage(store().conversations[id]!)).toEqual({ input: 20, output: 11, total: 31 });
  });

  it('is zero for a conversation without answers', () => {
    const id = store().newConversation();
    expect(conversationUsage(store().conversations[id]!)).toEqual({ input: 0, output: 0, total: 0 });
  });
});

describe('reasoning state in the history', () => {
  const thinking: ReasoningState = {
    protocol: 'messages',
    key: '0',
    block: { type: 'thinking', thinking: 'Call the tool.', signature: 'c2lnbmVk' },
  };
  const item: ReasoningState = {
    protocol: 'responses',
    key: 'rs_1',
    item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAAB' },
  };
  const call = { id: 'call_1', name: 'get_weather', arguments: '{}' };
  /** An answer in `protocol` that called the tool, with reasoning text and `state`. */
  const answer = (id: string, protocol: Protocol, state: unknown[]): AssistantMessage => ({
    ...assistant(id, [
      attempt(`${id}-attempt`, {
        status: 'complete',
        text: 'Checking.',
        reasoning: 'I should call the tool.',
        toolCalls: [call],
        reasoningState: state,
      } as Partial<Turn>),
    ]),
    protocol,
  });
  const history = (protocol: Protocol, state: unknown[]): ChatMessage[] => [
    { id: 'u1', role: 'user', text: 'Weather?', createdAt: 0 },
    answer('a1', protocol, state),
    { id: 't1', role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: 'sunny', createdAt: 0 },
  ];

  it('carries an answer’s reasoning state to a request of the protocol that produced it', () => {
    expect(toConversationMessages(history('messages', [thinking]), 'messages')[1]).toEqual({
      role: 'assistant',
      text: 'Checking.',
      toolCalls: [call],
      reasoningState: [thinking],
    });
    const [entry] = (
      toConversationMessages(history('responses', [item]), 'responses')[1] as {
        reasoningState: ReasoningState[];
      }
    ).reasoningState;
    // The stored object itself: sent back byte for byte.
    expect(entry).toBe(item);
  });

  it('leaves another protocol’s state out after a switch, and never carries reasoning text', () => {
    for (const protocol of ['chat', 'responses'] as const) {
      const [, converted] = toConversationMessages(history('messages', [thinking, item]), protocol);
      expect(converted).toEqual({
        role: 'assistant',
        text: 'Checking.',
        toolCalls: [call],
        ...(protocol === 'responses' && { reasoningState: [item] }),
      });
    }
    expect(JSON.stringify(toConversationMessages(history('messages', [thinking]), 'chat'))).not.toContain(
      'I should call the tool',
    );
    // Without a protocol: a neutral history, no provider's state at all.
    expect(toConversationMessages(history('messages', [thinking]))[1]).not.toHaveProperty('reasoningState');
  });

  it('ignores malformed stored state (an old or damaged record)', () => {
    const damaged = [
      { protocol: 'messages', key: '0', block: { type: 'thinking', thinking: 'x' } },
      null,
      'x',
    ];
    expect(toConversationMessages(history('messages', damaged), 'messages')[1]).not.toHaveProperty(
      'reasoningState',
    );
  });

  it('names the protocols left out on the first answer after a switch only', () => {
    const messages = history('messages', [thinking]);
    expect(reasoningLeftOut(messages, 'responses')).toEqual(['messages']);
    expect(reasoningLeftOut(messages, 'messages')).toEqual([]);
    // Once an answer came from the new protocol, the next ones say nothing more.
    const after = [...messages, answer('a2', 'responses', [item])];
    expect(reasoningLeftOut(after, 'responses')).toEqual([]);
    // Switching back: Messages' state is sent again, Responses' is left out.
    expect(reasoningLeftOut(after, 'messages')).toEqual(['responses']);
    expect(reasoningLeftOut(history('chat', []), 'messages')).toEqual([]);
  });
});

describe('choices per conversation', () => {
  it('remembers them without reordering the conversations', () => {
    const a = store().newConversation();
    const b = store().newConversation();
    const before = store().conversations[a]!.updatedAt;
    store().setChoices(a, { protocol: 'messages', model: 'sim-reasoning', reasoning: 'high' });
    expect(store().conversations[a]!.choices).toEqual({
      protocol: 'messages',
      model: 'sim-reasoning',
      reasoning: 'high',
    });
    expect(store().conversations[a]!.updatedAt).toBe(before);
    expect(store().order).toEqual([b, a]);
    const same = store().conversations[a];
    store().setChoices(a, { protocol: 'messages', model: 'sim-reasoning', reasoning: 'high' });
    expect(store().conversations[a]).toBe(same);
  });

  it('gives a conversation its own choices, else the settings’ defaults', () => {
    const defaults = { protocol: 'chat', model: 'sim-echo', reasoning: 'off' } as const;
    const own = { protocol: 'messages', model: 'sim-reasoning', reasoning: 'high' } as const;
    expect(choicesFor(own, defaults)).toEqual(own);
    expect(choicesFor(undefined, defaults)).toEqual(defaults);
  });
});
