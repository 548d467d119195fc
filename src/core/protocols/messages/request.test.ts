/** Anthropic Messages request: `buildRequest('messages', …)` and its auth headers (docs/protocols.md §6.1, §3.3). */
import { describe, expect, it } from 'vitest';
import type { ConversationMessage, TurnRequest } from '../../conversation.ts';
import { authHeaders, buildRequest } from '../index.ts';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

const body = (request: Partial<TurnRequest>) =>
  buildRequest('messages', {
    model: 'claude-sonnet-4-5',
    messages: [{ role: 'user', text: 'Hi' }],
    ...request,
  }).body;

const textBlock = (text: string) => ({ type: 'text', text });

describe("buildRequest('messages')", () => {
  it('posts JSON to /messages with the required anthropic-version header', () => {
    const spec = buildRequest('messages', { model: 'm', messages: [] });
    expect(spec.method).toBe('POST');
    expect(spec.path).toBe('/messages');
    expect(spec.headers).toEqual({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01' });
  });

  it('always sends max_tokens: 4096 by default, the set limit otherwise', () => {
    expect(body({}).max_tokens).toBe(4096);
    expect(body({ maxOutputTokens: 1024 }).max_tokens).toBe(1024);
    expect(body({ maxOutputTokens: 1024 })).not.toHaveProperty('max_output_tokens');
  });

  it('streams user text as content blocks', () => {
    expect(body({})).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: [textBlock('Hi')] }],
    });
  });

  it('puts the system prompt at the top level, never as a message', () => {
    const b = body({ system: 'Be brief.' });
    expect(b.system).toBe('Be brief.');
    expect(b.messages).toEqual([{ role: 'user', content: [textBlock('Hi')] }]);
    expect(body({})).not.toHaveProperty('system');
  });

  it('sends tools with input_schema', () => {
    expect(body({ tools: [weatherTool] }).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city',
        input_schema: weatherTool.parameters,
      },
    ]);
    expect(body({ tools: [] })).not.toHaveProperty('tools');
  });

  it('sends temperature only when set', () => {
    expect(body({ temperature: 0 }).temperature).toBe(0);
    expect(body({})).not.toHaveProperty('temperature');
  });

  it('sends tool_use input as an object and merges the results into one user turn', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        text: 'Let me check.',
        toolCalls: [
          { id: 'toolu_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'toolu_b', name: 'get_weather', arguments: '' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_a', content: '{"temp":21}' },
      { role: 'tool', toolCallId: 'toolu_b', content: 'city missing', isError: true },
      { role: 'user', text: 'Thanks' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: [textBlock('Weather in Paris and Rome?')] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '{"temp":21}' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'city missing', is_error: true },
          textBlock('Thanks'),
        ],
      },
    ]);
  });

  it.each([
    ['invalid JSON', '{"city":'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"Paris"'],
    ['whitespace', '   '],
  ])('sends {} as input when the arguments are %s', (_label, args) => {
    const messages: ConversationMessage[] = [
      { role: 'assistant', text: '', toolCalls: [{ id: 't', name: 'f', arguments: args }] },
      { role: 'tool', toolCallId: 't', content: 'r' },
    ];
    const [assistant] = body({ messages }).messages as { content: Record<string, unknown>[] }[];
    expect(assistant?.content).toEqual([{ type: 'tool_use', id: 't', name: 'f', input: {} }]);
  });

  it('merges consecutive messages of the same role so roles alternate', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'one' },
      { role: 'user', text: 'two' },
      { role: 'assistant', text: 'a' },
      { role: 'assistant', text: 'b' },
      { role: 'user', text: 'three' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: [textBlock('one'), textBlock('two')] },
      { role: 'assistant', content: [textBlock('a'), textBlock('b')] },
      { role: 'user', content: [textBlock('three')] },
    ]);
  });

  it('skips empty messages instead of sending empty content', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'q' },
      { role: 'assistant', text: '' },
      { role: 'user', text: '' },
      { role: 'user', text: 'again' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: [textBlock('q'), textBlock('again')] },
    ]);
  });

  it('drops unanswered tool calls (and an assistant turn left empty by that)', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'q' },
      {
        role: 'assistant',
        text: 'Trying two tools',
        toolCalls: [
          { id: 'yes', name: 'f', arguments: '{}' },
          { id: 'no', name: 'g', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'yes', content: 'r' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'never', name: 'h', arguments: '{}' }] },
      { role: 'user', text: 'forget it' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: [textBlock('q')] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Trying two tools' },
          { type: 'tool_use', id: 'yes', name: 'f', input: {} },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'yes', content: 'r' }, textBlock('forget it')],
      },
    ]);
  });

  it('keeps a structured answer (the forced structured_output call) in the history as its text', () => {
    const answer = '{"city":"Paris","days":[3]}';
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'Weather?' },
      { role: 'assistant', text: '', toolCalls: [{ id: 's', name: 'structured_output', arguments: answer }] },
      { role: 'user', text: 'And tomorrow?' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: [textBlock('Weather?')] },
      { role: 'assistant', content: [{ type: 'text', text: answer }] },
      { role: 'user', content: [textBlock('And tomorrow?')] },
    ]);
  });
});

describe("authHeaders('messages')", () => {
  it('sends x-api-key, and no Bearer token', () => {
    expect(authHeaders('messages', 'sk-ant-test', false)).toEqual({ 'x-api-key': 'sk-ant-test' });
  });

  it('adds anthropic-dangerous-direct-browser-access when the browser calls Anthropic directly', () => {
    expect(authHeaders('messages', 'sk-ant-test', true)).toEqual({
      'x-api-key': 'sk-ant-test',
      'anthropic-dangerous-direct-browser-access': 'true',
    });
  });

  it('sends nothing without a key', () => {
    expect(authHeaders('messages', '', true)).toEqual({});
  });
});
