import { describe, expect, it } from 'vitest';
import { type Protocol, parameterSupport, type SamplingParameters } from '../../core/index.ts';
import { draftOf, readDraft, readEscapes, readNumber, showEscapes } from './parametersForm.ts';

const read = (
  protocol: Protocol,
  typed: Partial<Record<string, string>>,
  stop: string[] = [],
  reasoning?: { effort: 'high'; budgetTokens: number },
) => {
  const draft = draftOf({});
  return readDraft(
    { ...draft, numbers: { ...draft.numbers, ...typed }, stop },
    protocol,
    parameterSupport(protocol),
    reasoning,
  );
};

describe('readNumber', () => {
  it.each([
    ['', undefined],
    ['  ', undefined],
    ['0.7', 0.7],
    ['0,7', 0.7],
    ['.5', 0.5],
    ['-2', -2],
    ['+1', 1],
    ['1e3', 1000],
    ['2.', 2],
    ['abc', null],
    ['0x10', null],
    ['1.2.3', null],
    ['Infinity', null],
    ['1 000', null],
  ])('%j → %j', (text, expected) => expect(readNumber(text)).toBe(expected));
});

describe('stop sequences as typed', () => {
  it.each([
    ['END', 'END'],
    ['\n\n', '\\n\\n'],
    ['a\tb', 'a\\tb'],
    ['C:\\new', 'C:\\\\new'],
    ['\r\n', '\\r\\n'],
  ])('%j shows as %j and reads back', (text, shown) => {
    expect(showEscapes(text)).toBe(shown);
    expect(readEscapes(shown)).toBe(text);
  });

  it('keeps a backslash before anything else as typed', () => {
    expect(readEscapes('\\d+')).toBe('\\d+');
  });
});

describe('readDraft', () => {
  it('reads what was typed, empty fields left out', () => {
    expect(read('chat', { temperature: '0.7', seed: '42', topP: '' }, ['END', '', '\\n'])).toEqual({
      parameters: { temperature: 0.7, seed: 42, stop: ['END', '\n'] },
      errors: {},
    });
  });

  it.each([
    ['chat', { temperature: '2.5' }, { temperature: { kind: 'range', value: '2.5' } }],
    ['messages', { temperature: '1.5' }, { temperature: { kind: 'range', value: '1.5' } }],
    ['responses', { maxOutputTokens: '10' }, { maxOutputTokens: { kind: 'range', value: '10' } }],
    ['chat', { maxOutputTokens: '10.5' }, { maxOutputTokens: { kind: 'range', value: '10.5' } }],
    ['chat', { seed: '4.2' }, { seed: { kind: 'range', value: '4.2' } }],
    ['chat', { presencePenalty: '-3' }, { presencePenalty: { kind: 'range', value: '-3' } }],
    ['chat', { topP: 'high' }, { topP: { kind: 'number', value: 'high' } }],
  ] as const)('%s refuses %j', (protocol, typed, errors) => {
    expect(read(protocol, typed).errors).toEqual(errors);
  });

  it('refuses a fifth stop sequence on Chat, not on Anthropic', () => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(read('chat', {}, five).errors).toEqual({ stop: { kind: 'stops', max: 4 } });
    expect(read('messages', {}, five).errors).toEqual({});
  });

  it('keeps, unchecked, what the protocol does not take (it is not sent there)', () => {
    const { parameters, errors } = read('responses', { seed: '4.2', presencePenalty: '9' }, [
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(errors).toEqual({});
    expect(parameters).toEqual({ seed: 4.2, presencePenalty: 9, stop: ['a', 'b', 'c', 'd', 'e'] });
  });

  it('names the field Anthropic’s thinking narrows', () => {
    const thinking = { effort: 'high' as const, budgetTokens: 16384 };
    expect(read('messages', { temperature: '0.5' }, [], thinking).errors.temperature).toMatchObject({
      kind: 'thinking',
      problem: { code: 'temperature_while_thinking' },
    });
    expect(read('messages', { topP: '0.9' }, [], thinking).errors.topP).toMatchObject({
      kind: 'thinking',
      problem: { code: 'top_p_while_thinking' },
    });
    expect(read('messages', { maxOutputTokens: '1000' }, [], thinking).errors.maxOutputTokens).toMatchObject({
      kind: 'thinking',
      problem: { code: 'limit_not_above_budget' },
    });
    expect(read('messages', { temperature: '1', topP: '0.95' }, [], thinking).errors).toEqual({});
    expect(read('chat', { temperature: '0.5' }, [], thinking).errors).toEqual({});
  });

  it('reads back what draftOf shows', () => {
    const parameters: SamplingParameters = { temperature: 0, topP: 1, stop: ['\n\n', 'END'], seed: -5 };
    expect(read('chat', draftOf(parameters).numbers, draftOf(parameters).stop).parameters).toEqual(
      parameters,
    );
  });

  it('keeps the cache switch, on or off, whatever the protocol', () => {
    for (const protocol of ['chat', 'responses', 'messages'] as const) {
      for (const cache of [{ cache: true } as const, {}]) {
        const draft = draftOf({ temperature: 1, ...cache });
        expect(draft.cache).toBe('cache' in cache);
        expect(readDraft(draft, protocol, parameterSupport(protocol), undefined).parameters).toEqual({
          temperature: 1,
          ...cache,
        });
      }
    }
  });
});
