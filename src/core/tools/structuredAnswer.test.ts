import { expect, it } from 'vitest';
import { emptyTurn, type Turn } from '../turn.ts';
import { structuredAnswerOf } from './structuredAnswer.ts';

const schema = { type: 'object' };
const turn: Turn = {
  ...emptyTurn,
  status: 'complete',
  text: '{"a":1}',
  toolCalls: [{ id: 'toolu_1', name: 'structured_output', arguments: '{"b":2}' }],
};

it.each([
  [{ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } }, '{"a":1}'],
  [{ text: { format: { type: 'json_schema', name: 'answer', schema } } }, '{"a":1}'],
  [
    {
      tools: [{ name: 'structured_output', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'structured_output' },
    },
    '{"b":2}',
  ],
])('%j: the schema sent, and the answer’s JSON', (body, text) => {
  expect(structuredAnswerOf(body, turn)).toEqual({ schema, text });
});

it.each([
  [{}],
  [{ response_format: { type: 'json_object' } }],
  [
    {
      tools: [{ name: 'get_weather', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    },
  ],
])('%j asked for none', (body) => {
  expect(structuredAnswerOf(body, turn)).toBeNull();
});
