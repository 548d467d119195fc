/**
 * Reasoning in requests, per protocol and level: the parameters each API takes, and the reasoning state
 * sent back (docs/protocols.md §4.1, §5.1, §6.1). Every expected body is checked against the official SDK's
 * create-params type with `satisfies`: a misspelt or misplaced field fails to compile.
 */
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage, TurnRequest } from '../conversation.ts';
import { type ReasoningEffort, type ReasoningState, unreplayableProtocols } from '../reasoning.ts';
import { buildRequest, requestProblem } from './index.ts';
import { defaultThinkingBudgets } from './messages/reasoning.ts';

const efforts: ReasoningEffort[] = ['low', 'medium', 'high'];
const reasoning = (effort: ReasoningEffort) => ({ effort, budgetTokens: defaultThinkingBudgets[effort] });

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

const thinking = {
  protocol: 'messages',
  key: '0',
  block: {
    type: 'thinking',
    thinking: 'The user wants the weather.\n\nCall the tool.',
    signature: 'EuwJCm4IDxgC+/==',
  },
} as const satisfies ReasoningState;
const redacted = {
  protocol: 'messages',
  key: '1',
  block: { type: 'redacted_thinking', data: 'EqkECkYIBxgCKkA8AZ4n/+==' },
} as const satisfies ReasoningState;
const reasoningItem = {
  protocol: 'responses',
  key: 'rs_0fabc',
  item: {
    id: 'rs_0fabc',
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: '**Planning**\n\nCall the tool.' }],
    encrypted_content: 'gAAAAABqaR3-pGgSyJcPT3y2_26v61vC==',
    status: 'completed',
  },
} as const satisfies ReasoningState;
/** A reasoning item from a request that did not ask for encrypted content: it cannot go back statelessly. */
const bareItem = {
  protocol: 'responses',
  key: 'rs_bare',
  item: { id: 'rs_bare', type: 'reasoning', summary: [], encrypted_content: null },
} as const satisfies ReasoningState;

const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };

/** A tool loop waiting for its follow-up: the answer that called the tool carries `state`. */
function toolLoop(state: ReasoningState[]): ConversationMessage[] {
  return [
    { role: 'user', text: 'Weather in Paris?' },
    { role: 'assistant', text: 'Let me check.', toolCalls: [call], reasoningState: state },
    { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '{"temp":21}' },
  ];
}

const chat = (request: Partial<TurnRequest>) =>
  buildRequest('chat', { model: 'sim-reasoning', messages: [{ role: 'user', text: 'Hi' }], ...request }).body;
const responses = (request: Partial<TurnRequest>) =>
  buildRequest('responses', { model: 'sim-reasoning', messages: [{ role: 'user', text: 'Hi' }], ...request })
    .body;
const messages = (request: Partial<TurnRequest>) =>
  buildRequest('messages', { model: 'sim-reasoning', messages: [{ role: 'user', text: 'Hi' }], ...request })
    .body;

describe('Chat Completions', () => {
  it.each(efforts)('sends reasoning_effort "%s"', (effort) => {
    const expected = {
      model: 'sim-reasoning',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
      reasoning_effort: effort,
    } satisfies ChatCompletionCreateParamsStreaming;
    expect(chat({ reasoning: reasoning(effort) })).toEqual(expected);
  });

  it('sends no reasoning parameter when reasoning is off', () => {
    expect(chat({})).not.toHaveProperty('reasoning_effort');
  });

  it('never sends reasoning back: not another protocol’s state, not any reasoning text', () => {
    const body = chat({
      messages: toolLoop([thinking, redacted, reasoningItem]),
      reasoning: reasoning('high'),
    });
    const expected = {
      model: 'sim-reasoning',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: call.arguments } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
      reasoning_effort: 'high',
    } satisfies ChatCompletionCreateParamsStreaming;
    expect(body).toEqual(expected);
    expect(JSON.stringify(body)).not.toMatch(/reasoning_content|signature|encrypted|thinking/);
  });
});

describe('Responses', () => {
  it.each(efforts)(
    'sends reasoning {effort: "%s", summary: "auto"} and asks for encrypted reasoning',
    (effort) => {
      const expected = {
        model: 'sim-reasoning',
        stream: true,
        store: false,
        input: [{ role: 'user', content: 'Hi' }],
        reasoning: { effort, summary: 'auto' },
        include: ['reasoning.encrypted_content'],
      } satisfies ResponseCreateParamsStreaming;
      expect(responses({ reasoning: reasoning(effort) })).toEqual(expected);
    },
  );

  it('sends neither reasoning nor include when reasoning is off', () => {
    const body = responses({});
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('include');
  });

  it('sends the reasoning items back, exactly as received, before the items that followed them', () => {
    const body = responses({
      messages: toolLoop([reasoningItem, thinking]),
      tools: [weather],
      reasoning: reasoning('high'),
    });
    const expected = {
      model: 'sim-reasoning',
      stream: true,
      store: false,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          id: 'rs_0fabc',
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: '**Planning**\n\nCall the tool.' }],
          encrypted_content: 'gAAAAABqaR3-pGgSyJcPT3y2_26v61vC==',
          status: 'completed',
        },
        { role: 'assistant', content: 'Let me check.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: call.arguments },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
      ],
      tools: [{ type: 'function', ...weather, strict: null }],
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    } satisfies ResponseCreateParamsStreaming;
    // `strict` is only there to satisfy the SDK's type: the builder leaves it out.
    expect(body).toEqual({ ...expected, tools: [{ type: 'function', ...weather }] });
    // The very item stored with the answer, not a rebuilt one.
    expect((body.input as unknown[])[1]).toBe(reasoningItem.item);
  });

  it('sends the reasoning items back with reasoning off too: they belong to the conversation', () => {
    const input = responses({ messages: toolLoop([reasoningItem]) }).input as Record<string, unknown>[];
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'reasoning',
      'assistant',
      'function_call',
      'function_call_output',
    ]);
  });

  it('leaves out an item without encrypted content: with store:false the API cannot look it up', () => {
    const input = responses({ messages: toolLoop([bareItem]) }).input as Record<string, unknown>[];
    expect(input.some((item) => item.type === 'reasoning')).toBe(false);
  });

  it('sends no reasoning item for an answer left empty (its only tool call was never answered)', () => {
    const history: ConversationMessage[] = [
      { role: 'user', text: 'Weather?' },
      { role: 'assistant', text: '', toolCalls: [call], reasoningState: [reasoningItem] },
      { role: 'user', text: 'Never mind' },
    ];
    expect(responses({ messages: history }).input).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'user', content: 'Never mind' },
    ]);
  });
});

describe('Anthropic Messages', () => {
  it.each(efforts)('turns on thinking with the %s budget, max_tokens above it', (effort) => {
    const budget = defaultThinkingBudgets[effort];
    const expected = {
      model: 'sim-reasoning',
      max_tokens: budget + 4096,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: budget },
    } satisfies MessageCreateParamsStreaming;
    expect(messages({ reasoning: reasoning(effort) })).toEqual(expected);
  });

  it('keeps a set output limit, and the budget from the request', () => {
    const body = messages({ reasoning: { effort: 'high', budgetTokens: 3000 }, maxOutputTokens: 8000 });
    expect(body).toMatchObject({ max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 3000 } });
  });

  it('sends no thinking when reasoning is off', () => {
    expect(messages({})).toEqual({
      model: 'sim-reasoning',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    } satisfies MessageCreateParamsStreaming);
  });

  it('sends the thinking blocks back unchanged, signature included, first in their turn', () => {
    const body = messages({
      messages: toolLoop([thinking, redacted, reasoningItem]),
      tools: [weather],
      reasoning: reasoning('high'),
    });
    const expected = {
      model: 'sim-reasoning',
      max_tokens: 16384 + 4096,
      stream: true,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking: 'The user wants the weather.\n\nCall the tool.',
              signature: 'EuwJCm4IDxgC+/==',
            },
            { type: 'redacted_thinking', data: 'EqkECkYIBxgCKkA8AZ4n/+==' },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":21}' }] },
      ],
      tools: [{ name: 'get_weather', description: weather.description, input_schema: weather.parameters }],
      thinking: { type: 'enabled', budget_tokens: 16384 },
    } satisfies MessageCreateParamsStreaming;
    expect(body).toEqual(expected);
    const [, assistant] = body.messages as { content: unknown[] }[];
    expect(assistant?.content[0]).toBe(thinking.block);
    expect(assistant?.content[1]).toBe(redacted.block);
  });

  it('leaves out a thinking block that never got its signature (the stream broke before it)', () => {
    const unsigned = { ...thinking, block: { ...thinking.block, signature: '' } };
    const [, assistant] = messages({ messages: toolLoop([unsigned]) }).messages as { content: unknown[] }[];
    expect(assistant?.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });

  it('pauses thinking for the follow-up of tool calls made without it, and resumes on the next message', () => {
    const loop = toolLoop([reasoningItem]);
    const paused = messages({ messages: loop, reasoning: reasoning('high') });
    expect(paused).not.toHaveProperty('thinking');
    expect(paused.max_tokens).toBe(4096);
    const next = messages({
      messages: [...loop, { role: 'assistant', text: 'Sunny, 21°.' }, { role: 'user', text: 'And Rome?' }],
      reasoning: reasoning('high'),
    });
    expect(next.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
  });
});

describe('requestProblem', () => {
  const high = reasoning('high');

  it('accepts what the APIs accept', () => {
    expect(requestProblem('messages', { model: 'm', messages: [], reasoning: high })).toBeNull();
    expect(
      requestProblem('messages', {
        model: 'm',
        messages: [],
        reasoning: high,
        maxOutputTokens: 16385,
        temperature: 1,
      }),
    ).toBeNull();
    expect(
      requestProblem('messages', { model: 'm', messages: [], temperature: 0.2, maxOutputTokens: 10 }),
    ).toBeNull();
  });

  it('refuses an output limit at or below the thinking budget, naming both', () => {
    expect(
      requestProblem('messages', { model: 'm', messages: [], reasoning: high, maxOutputTokens: 16384 }),
    ).toEqual({
      code: 'limit_not_above_budget',
      values: { limit: 16384, effort: 'high', budget: 16384 },
    });
  });

  it('refuses a custom temperature while thinking', () => {
    expect(
      requestProblem('messages', { model: 'm', messages: [], reasoning: high, temperature: 0.7 }),
    ).toEqual({ code: 'temperature_while_thinking', values: { temperature: 0.7 } });
  });

  it.each<[string, Partial<TurnRequest>, 'required' | 'tool' | 'structured']>([
    ['Required', { tools: [weather], toolChoice: { kind: 'required' } }, 'required'],
    ['one named tool', { tools: [weather], toolChoice: { kind: 'tool', name: 'get_weather' } }, 'tool'],
    ['an answer schema (a forced tool)', { outputSchema: { name: 'answer', schema: {} } }, 'structured'],
  ])('refuses a forced tool call while thinking: %s', (_, fields, forced) => {
    const request: TurnRequest = { model: 'm', messages: [], reasoning: high, ...fields };
    expect(requestProblem('messages', request)).toEqual({
      code: 'forced_tool_while_thinking',
      values: { forced },
    });
    expect(requestProblem('messages', { ...request, reasoning: undefined })).toBeNull();
  });

  it('lets the model decide, or call none, while thinking; a forced choice without tools forces nothing', () => {
    for (const kind of ['auto', 'none'] as const)
      expect(
        requestProblem('messages', {
          model: 'm',
          messages: [],
          reasoning: high,
          tools: [weather],
          toolChoice: { kind },
        }),
      ).toBeNull();
    expect(
      requestProblem('messages', {
        model: 'm',
        messages: [],
        reasoning: high,
        toolChoice: { kind: 'required' },
      }),
    ).toBeNull();
  });

  it('refuses a budget under 1,024 tokens', () => {
    expect(
      requestProblem('messages', {
        model: 'm',
        messages: [],
        reasoning: { effort: 'low', budgetTokens: 512 },
      }),
    ).toEqual({ code: 'budget_too_small', values: { min: 1024, budget: 512 } });
  });

  it('has nothing to say when thinking is paused, or on the OpenAI protocols', () => {
    const loop = toolLoop([]);
    expect(
      requestProblem('messages', { model: 'm', messages: loop, reasoning: high, temperature: 0.7 }),
    ).toBeNull();
    for (const protocol of ['chat', 'responses'] as const)
      expect(
        requestProblem(protocol, {
          model: 'm',
          messages: [],
          reasoning: high,
          temperature: 0.7,
          maxOutputTokens: 50,
        }),
      ).toBeNull();
  });
});

describe('unreplayableProtocols', () => {
  it('names the protocols whose state a request cannot send back', () => {
    const history = toolLoop([thinking, reasoningItem]);
    expect(unreplayableProtocols(history, 'chat').sort()).toEqual(['messages', 'responses']);
    expect(unreplayableProtocols(history, 'messages')).toEqual(['responses']);
    expect(unreplayableProtocols(toolLoop([thinking]), 'messages')).toEqual([]);
  });
});
