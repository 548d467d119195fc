import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../conversation.ts';
import {
  chatToolFields,
  messagesToolFields,
  type OutputSchema,
  responsesToolFields,
  type ToolChoice,
} from './toolFields.ts';

const parameters = { type: 'object', properties: { city: { type: 'string' } } };
const tools: ToolDefinition[] = [{ name: 'get_weather', description: 'Weather.', parameters }];
const output: OutputSchema = { name: 'answer', schema: { type: 'object' } };

describe('tool_choice, per protocol', () => {
  it.each<[ToolChoice, unknown, unknown, unknown]>([
    [{ kind: 'auto' }, 'auto', 'auto', { type: 'auto' }],
    [{ kind: 'required' }, 'required', 'required', { type: 'any' }],
    [{ kind: 'none' }, 'none', 'none', { type: 'none' }],
    [
      { kind: 'tool', name: 'get_weather' },
      { type: 'function', function: { name: 'get_weather' } },
      { type: 'function', name: 'get_weather' },
      { type: 'tool', name: 'get_weather' },
    ],
  ])('%j: Chat %j, Responses %j, Messages %j', (toolChoice, chat, responses, messages) => {
    expect(chatToolFields({ tools, toolChoice }).tool_choice).toEqual(chat);
    expect(responsesToolFields({ tools, toolChoice }).tool_choice).toEqual(responses);
    expect(messagesToolFields({ tools, toolChoice }).tool_choice).toEqual(messages);
  });
});

describe('tools, per protocol', () => {
  it('writes each in its protocol’s shape', () => {
    expect(chatToolFields({ tools }).tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters } },
    ]);
    expect(responsesToolFields({ tools }).tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather.', parameters },
    ]);
    expect(messagesToolFields({ tools }).tools).toEqual([
      { name: 'get_weather', description: 'Weather.', input_schema: parameters },
    ]);
  });

  it.each([chatToolFields, responsesToolFields, messagesToolFields])(
    'sends no tool_choice without tools (%o)',
    (fields) => {
      expect(fields({ tools: [], toolChoice: { kind: 'required' } })).toEqual({});
    },
  );
});

describe('structured output, per protocol', () => {
  it('Chat: response_format json_schema, strict', () => {
    expect(chatToolFields({ outputSchema: output })).toEqual({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
    });
  });

  it('Responses: text.format json_schema, strict', () => {
    expect(responsesToolFields({ outputSchema: output })).toEqual({
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
    });
  });

  it('Messages: a forced structured_output tool after the others, whatever choice was set', () => {
    const fields = messagesToolFields({ tools, toolChoice: { kind: 'none' }, outputSchema: output });
    expect(fields.tools).toEqual([
      { name: 'get_weather', description: 'Weather.', input_schema: parameters },
      { name: 'structured_output', description: 'The answer, as JSON.', input_schema: { type: 'object' } },
    ]);
    expect(fields.tool_choice).toEqual({ type: 'tool', name: 'structured_output' });
  });
});
