import { describe, expect, it } from 'vitest';
import { placeOf, schemaChecker } from './schemaCheck.ts';

const checker = await schemaChecker();

describe('readSchema', () => {
  it.each([
    ['{"type":"object","properties":{"city":{"type":"string"}}}', null],
    ['{"type":"object",\n  "properties": {x}}', { kind: 'json', place: { line: 2, column: 18 } }],
    ['{"type":"object",', { kind: 'json', place: { line: 1, column: 18 } }],
    ['[1, 2]', { kind: 'notObject' }],
    [
      '{"type":"object","properties":{"city":{"type":"strin"}}}',
      { kind: 'schema', path: '/properties/city/type', keyword: 'anyOf' },
    ],
    ['{"type":"object","required":"city"}', { kind: 'schema', path: '/required', keyword: 'type' }],
    [
      '{"properties":{"a":{"pattern":"("}}}',
      { kind: 'schema', path: '/properties/a/pattern', keyword: 'format' },
    ],
    ['{"minLength":-1}', { kind: 'schema', path: '/minLength', keyword: 'minimum' }],
  ])('%s → %j', (text, problem) => {
    const read = checker.readSchema(text);
    expect(read.ok ? null : read.problem).toEqual(problem);
  });
});

describe('check', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer' } } },
    required: ['city'],
  };
  it.each([
    [{ city: 'Paris', days: [1, 2] }, []],
    [{ city: 42 }, [{ path: '/city', keyword: 'type' }]],
    [
      { days: [1, 'x'] },
      [
        { path: '', keyword: 'required' },
        { path: '/days/1', keyword: 'type' },
      ],
    ],
    ['Paris', [{ path: '', keyword: 'type' }]],
  ])('%j → %j', (value, violations) => {
    expect(checker.check(schema, value)).toEqual(violations);
  });
});

it('places an offset by line and column', () => {
  expect(placeOf('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
});
