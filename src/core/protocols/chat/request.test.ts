/** Chat Completions request: `buildRequest('chat', …)` and its auth headers (docs/protocols.md §4.1, §3.3). */
import { describe, expect, it } from 'vitest';
import type { ConversationMessage, TurnRequest } from '../../conversation.ts';
import { authHeaders, buildRequest } from '../index.ts';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const body = (request: Partial<TurnRequest>) =>
  buildRequest('chat', { model: 'gpt-4o', messages: [{ role: 'user', text: 'Hi' }], ...request }).body;

describe("buildRequest('chat')", () => {
  it('posts JSON to /chat/completions', () => {
    const spec = buildRequest('chat', { model: 'gpt-4o', messages: [] });
    expect(spec.method).toBe('POST');
    expect(spec.path).toBe('/chat/completions');
    expect(spec.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('always streams with include_usage, even for the smallest request', () => {
    expect(body({})).toEqual({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('puts the system prompt first as a system message', () => {
    expect(body({ system: 'Be brief.' }).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('sends the output limit as max_completion_tokens, never max_tokens', () => {
    const b = body({ maxOutputTokens: 256 });
    expect(b.max_completion_tokens).toBe(256);
    expect(b).not.toHaveProperty('max_tokens');
    expect(body({})).not.toHaveProperty('max_completion_tokens');
  });

  it('sends temperature only when set (0 included)', () => {
    expect(body({ temperature: 0 }).temperature).toBe(0);
    expect(body({})).not.toHaveProperty('temperature');
  });

  it('wraps tools as {type:"function", function:{…}}', () => {
    expect(body({ tools: [weatherTool] }).tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: weatherTool.parameters,
        },
      },
    ]);
    expect(body({ tools: [] })).not.toHaveProperty('tools');
  });

  it('sends assistant tool_calls with string arguments, then one role:"tool" message per result', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_b', name: 'get_weather', arguments: '' },
        ],
      },
      { role: 'tool', toolCallId: 'call_a', name: 'get_weather', content: '{"temp":21}' },
      { role: 'tool', toolCallId: 'call_b', content: '{"temp":25}' },
      { role: 'assistant', text: 'Paris 21°, Rome 25°.' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'call_b', content: '{"temp":25}' },
      { role: 'assistant', content: 'Paris 21°, Rome 25°.' },
    ]);
  });

  it('keeps assistant text beside its tool calls', () => {
    const messages: ConversationMessage[] = [
      { role: 'assistant', text: 'Let me check.', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c', content: 'ok' },
    ];
    expect((body({ messages }).messages as Record<string, unknown>[])[0]).toMatchObject({
      role: 'assistant',
      content: 'Let me check.',
    });
  });

  it('drops tool calls that were never answered', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'q' },
      {
        role: 'assistant',
        text: 'Checking',
        toolCalls: [
          { id: 'answered', name: 'f', arguments: '{}' },
          { id: 'unanswered', name: 'g', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'answered', content: 'r' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'never', name: 'h', arguments: '{}' }] },
      { role: 'user', text: 'never mind' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'Checking',
        tool_calls: [{ id: 'answered', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'answered', content: 'r' },
      { role: 'user', content: 'never mind' },
    ]);
  });

  it('turns an assistant whose only calls were dropped into its text alone', () => {
    const messages: ConversationMessage[] = [
      { role: 'assistant', text: 'Partial answer', toolCalls: [{ id: 'x', name: 'f', arguments: '{}' }] },
      { role: 'user', text: 'go on' },
    ];
    expect(body({ messages }).messages).toEqual([
      { role: 'assistant', content: 'Partial answer' },
      { role: 'user', content: 'go on' },
    ]);
  });

  it('does not modify the request it was given', () => {
    const request: TurnRequest = {
      model: 'm',
      messages: [{ role: 'assistant', text: '', toolCalls: [{ id: 'x', name: 'f', arguments: '' }] }],
    };
    const copy = structuredClone(request);
    buildRequest('chat', request);
    expect(request).toEqual(copy);
  });
});

describe("authHeaders('chat')", () => {
  it('sends a Bearer token, direct or not', () => {
    expect(authHeaders('chat', 'sk-test', false)).toEqual({ authorization: 'Bearer sk-test' });
    expect(authHeaders('chat', 'sk-test', true)).toEqual({ authorization: 'Bearer sk-test' });
  });

  it('sends nothing without a key', () => {
    expect(authHeaders('chat', '', true)).toEqual({});
  });
});
