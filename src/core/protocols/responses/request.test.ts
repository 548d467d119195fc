/** Responses request: `buildRequest('responses', …)` and its auth headers (docs/protocols.md §5.1, §3.3). */
import { describe, expect, it } from 'vitest';
import type { ConversationMessage, TurnRequest } from '../../conversation.ts';
import { authHeaders, buildRequest } from '../index.ts';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

const body = (request: Partial<TurnRequest>) =>
  buildRequest('responses', { model: 'gpt-5', messages: [{ role: 'user', text: 'Hi' }], ...request }).body;

describe("buildRequest('responses')", () => {
  it('posts JSON to /responses', () => {
    const spec = buildRequest('responses', { model: 'gpt-5', messages: [] });
    expect(spec.method).toBe('POST');
    expect(spec.path).toBe('/responses');
    expect(spec.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('streams statelessly (store:false) with the input list and no stream_options', () => {
    expect(body({})).toEqual({
      model: 'gpt-5',
      stream: true,
      store: false,
      input: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('sends the system prompt as instructions, not as an input item', () => {
    const b = body({ system: 'Be brief.' });
    expect(b.instructions).toBe('Be brief.');
    expect(b.input).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(body({})).not.toHaveProperty('instructions');
  });

  it('sends max_output_tokens and temperature only when set', () => {
    expect(body({ maxOutputTokens: 2048, temperature: 0.5 })).toMatchObject({
      max_output_tokens: 2048,
      temperature: 0.5,
    });
    expect(body({})).not.toHaveProperty('max_output_tokens');
    expect(body({})).not.toHaveProperty('temperature');
    expect(body({ maxOutputTokens: 5 })).not.toHaveProperty('max_completion_tokens');
  });

  it('sends flat function tools (no nested "function" object)', () => {
    expect(body({ tools: [weatherTool] }).tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: weatherTool.parameters,
      },
    ]);
    expect(body({ tools: [] })).not.toHaveProperty('tools');
  });

  it('echoes tool calls as function_call items and results as function_call_output items, linked by call_id', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'Weather in Paris?' },
      {
        role: 'assistant',
        text: 'Checking.',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_b', name: 'now', arguments: '' },
        ],
      },
      { role: 'tool', toolCallId: 'call_a', content: '{"temp":21}' },
      { role: 'tool', toolCallId: 'call_b', content: '12:00' },
      { role: 'assistant', text: '21° at noon.' },
    ];
    expect(body({ messages }).input).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_b', name: 'now', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_a', output: '{"temp":21}' },
      { type: 'function_call_output', call_id: 'call_b', output: '12:00' },
      { role: 'assistant', content: '21° at noon.' },
    ]);
  });

  it('sends no empty assistant message before its function calls', () => {
    const messages: ConversationMessage[] = [
      { role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c', content: 'r' },
    ];
    expect(body({ messages }).input).toEqual([
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: 'r' },
    ]);
  });

  it('drops tool calls that were never answered', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', text: 'q' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'yes', name: 'f', arguments: '{}' },
          { id: 'no', name: 'g', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'yes', content: 'r' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'never', name: 'h', arguments: '{}' }] },
      { role: 'user', text: 'stop' },
    ];
    expect(body({ messages }).input).toEqual([
      { role: 'user', content: 'q' },
      { type: 'function_call', call_id: 'yes', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'yes', output: 'r' },
      { role: 'user', content: 'stop' },
    ]);
  });
});

describe("authHeaders('responses')", () => {
  it('sends a Bearer token, direct or not', () => {
    expect(authHeaders('responses', 'sk-test', false)).toEqual({ authorization: 'Bearer sk-test' });
    expect(authHeaders('responses', 'sk-test', true)).toEqual({ authorization: 'Bearer sk-test' });
  });

  it('sends nothing without a key', () => {
    expect(authHeaders('responses', '', false)).toEqual({});
  });
});
