/**
 * "Cache the conversation" in requests, per protocol: off, the body is exactly as without it; on, Messages
 * gets its breakpoints and the OpenAI protocols a key of the conversation. Expected Messages bodies are
 * checked against the official SDK's create-params type with `satisfies`.
 */
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage, TurnRequest } from '../conversation.ts';
import { keptParameters } from '../parameters.ts';
import { buildRequest } from './index.ts';
import { promptCacheKey } from './promptCache.ts';

const tool = (name: string) => ({ name, description: name, parameters: { type: 'object' } });
const sdkTool = (name: string) => ({ name, description: name, input_schema: { type: 'object' as const } });
const text = (t: string) => ({ type: 'text' as const, text: t });
const ephemeral = { type: 'ephemeral' as const };

const hi: ConversationMessage[] = [{ role: 'user', text: 'Hi' }];
/** Two turns, the second answering a tool call: the last user turn is the tool's result. */
const loop: ConversationMessage[] = [
  { role: 'user', text: 'Weather?' },
  { role: 'assistant', text: 'Hello.' },
  { role: 'user', text: 'In Paris?' },
  { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'toolu_1', content: 'sunny' },
];
const base = { model: 'm', conversationId: 'conv-1' };
const build = (protocol: 'chat' | 'responses' | 'messages', request: Partial<TurnRequest>) =>
  buildRequest(protocol, { ...base, messages: hi, ...request }).body;

describe('the switch off', () => {
  it.each(['chat', 'responses', 'messages'] as const)('%s: the body is unchanged', (protocol) => {
    const request = { messages: loop, system: 'Be brief.', tools: [tool('weather')] };
    const plain = buildRequest(protocol, { model: 'm', ...request }).body;
    expect(build(protocol, request)).toEqual(plain);
    expect(JSON.stringify(plain)).not.toMatch(/cache/);
  });
});

/** The expected keys are FNV-1a 64 as computed apart from this code (Python). */
describe('promptCacheKey', () => {
  it.each([
    [
      { cache: true, conversationId: 'conv-1' } as const,
      { prompt_cache_key: 'hopbase-chat-03675a7615d27b9d' },
    ],
    [
      { cache: true, conversationId: 'conv-2' } as const,
      { prompt_cache_key: 'hopbase-chat-0367577615d27684' },
    ],
    [{ cache: true, conversationId: 'ünï' } as const, { prompt_cache_key: 'hopbase-chat-8406649dfd5e4e56' }],
    [{ cache: true } as const, {}],
    [{ conversationId: 'conv-1' }, {}],
  ])('%j → %j', (request, fields) => expect(promptCacheKey(request)).toEqual(fields));
});

describe('Chat Completions and Responses', () => {
  it.each(['chat', 'responses'] as const)(
    '%s: the key, the same every turn, and the rest unchanged',
    (protocol) => {
      const cached = build(protocol, { cache: true });
      const { prompt_cache_key: key, ...rest } = cached;
      expect(key).toBe('hopbase-chat-03675a7615d27b9d');
      expect(rest).toEqual(build(protocol, {}));
      expect(build(protocol, { cache: true, messages: loop }).prompt_cache_key).toBe(key);
    },
  );
});

describe('Anthropic Messages', () => {
  it('marks the last tool, the system prompt and the last two user turns', () => {
    const expected = {
      model: 'm',
      max_tokens: 4096,
      stream: true,
      system: [{ ...text('Be brief.'), cache_control: ephemeral }],
      messages: [
        { role: 'user', content: [text('Weather?')] },
        { role: 'assistant', content: [text('Hello.')] },
        { role: 'user', content: [{ ...text('In Paris?'), cache_control: ephemeral }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny', cache_control: ephemeral },
          ],
        },
      ],
      tools: [sdkTool('clock'), { ...sdkTool('weather'), cache_control: ephemeral }],
    } satisfies MessageCreateParamsStreaming;
    expect(
      build('messages', {
        cache: true,
        system: 'Be brief.',
        messages: loop,
        tools: [tool('clock'), tool('weather')],
      }),
    ).toEqual(expected);
  });

  it('marks what there is: no system prompt or tools, one user turn', () => {
    expect(build('messages', { cache: true })).toEqual({
      model: 'm',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: [{ ...text('Hi'), cache_control: ephemeral }] }],
    } satisfies MessageCreateParamsStreaming);
  });

  it('marks the last block of a turn with an image, and never more than four', () => {
    const image = { kind: 'image' as const, name: 'a.png', mimeType: 'image/png', data: 'AAAA' };
    const many: ConversationMessage[] = ['1', '2', '3', '4'].flatMap((n) => [
      { role: 'user' as const, text: n, attachments: [image] },
      { role: 'assistant' as const, text: `ok ${n}` },
    ]);
    const b = build('messages', {
      cache: true,
      system: 'S',
      tools: [tool('t')],
      messages: many.slice(0, -1),
    });
    expect(JSON.stringify(b).match(/cache_control/g)).toHaveLength(4);
    const last = (b.messages as { content: Record<string, unknown>[] }[]).at(-1)!.content;
    expect(last.map((block) => [block.type, block.cache_control])).toEqual([
      ['image', undefined],
      ['text', ephemeral],
    ]);
  });
});

it('keptParameters keeps the switch when on, and nothing when off', () => {
  expect(keptParameters({ cache: true })).toEqual({ cache: true });
  expect(keptParameters({ temperature: 1 })).toEqual({ temperature: 1 });
});
