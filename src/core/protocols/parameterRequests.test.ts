/**
 * Sampling parameters in requests, per protocol: each one's own fields, only those it takes, and what is
 * refused before sending. Every expected body is checked against the official SDK's create-params type with
 * `satisfies`: a misspelt or misplaced field fails to compile.
 */
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { TurnRequest } from '../conversation.ts';
import { keptParameters, type SamplingParameters } from '../parameters.ts';
import { buildRequest, parameterSupport, requestProblem } from './index.ts';
import { defaultThinkingBudgets } from './messages/reasoning.ts';

/**
 * Anthropic's sampling fields, which the API documents and takes but the SDK (1.14) no longer types: the
 * expected Messages bodies are checked against its params with these added, and nothing else.
 */
type AnthropicSampling = { temperature?: number; top_p?: number };

/** Every sampling parameter set, each to a value every protocol that takes it accepts (caching: promptCache.test.ts). */
const all: Required<Omit<SamplingParameters, 'cache'>> = {
  temperature: 0.7,
  topP: 0.9,
  maxOutputTokens: 512,
  stop: ['END', '\n\n'],
  seed: 42,
  presencePenalty: 0.5,
  frequencyPenalty: -0.5,
};

const hi = [{ role: 'user' as const, text: 'Hi' }];
const body = (protocol: 'chat' | 'responses' | 'messages', request: Partial<TurnRequest>) =>
  buildRequest(protocol, { model: 'sim-echo', messages: hi, ...request }).body;

describe('Chat Completions', () => {
  it('sends every parameter in its own field', () => {
    const expected = {
      model: 'sim-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 512,
      temperature: 0.7,
      top_p: 0.9,
      stop: ['END', '\n\n'],
      seed: 42,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
    } satisfies ChatCompletionCreateParamsStreaming;
    expect(body('chat', all)).toEqual(expected);
  });

  it('sends none of them when none is set, and zero when zero is set', () => {
    expect(body('chat', {})).toEqual({
      model: 'sim-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
    } satisfies ChatCompletionCreateParamsStreaming);
    expect(body('chat', { temperature: 0, seed: 0, presencePenalty: 0, stop: [] })).toMatchObject({
      temperature: 0,
      seed: 0,
      presence_penalty: 0,
    });
    expect(body('chat', { stop: [] })).not.toHaveProperty('stop');
  });
});

describe('Responses', () => {
  it('sends temperature, top_p and max_output_tokens, and nothing it does not take', () => {
    const expected = {
      model: 'sim-echo',
      stream: true,
      store: false,
      input: [{ role: 'user', content: 'Hi' }],
      max_output_tokens: 512,
      temperature: 0.7,
      top_p: 0.9,
    } satisfies ResponseCreateParamsStreaming;
    expect(body('responses', all)).toEqual(expected);
  });
});

describe('Anthropic Messages', () => {
  it('sends max_tokens, stop_sequences, temperature and top_p, and no seed or penalties', () => {
    const expected = {
      model: 'sim-echo',
      max_tokens: 512,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stop_sequences: ['END', '\n\n'],
      temperature: 0.7,
      top_p: 0.9,
    } satisfies MessageCreateParamsStreaming & AnthropicSampling;
    expect(body('messages', all)).toEqual(expected);
  });

  it('still sends its own max_tokens when none is set', () => {
    expect(body('messages', {})).toEqual({
      model: 'sim-echo',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    } satisfies MessageCreateParamsStreaming);
  });
});

describe('what each protocol takes', () => {
  it.each(['chat', 'responses', 'messages'] as const)(
    '%s names each parameter by the field its body sends',
    (protocol) => {
      const support = parameterSupport(protocol);
      const named = [...Object.values(support.numbers).map((p) => p.field), support.stop?.field];
      const sent = Object.keys(body(protocol, all)).filter((key) => !(key in body(protocol, {})));
      // Messages always sends `max_tokens`, its own default when none is set.
      expect(named.filter((f) => f !== undefined && f in body(protocol, all)).sort()).toEqual(
        [...sent, ...(protocol === 'messages' ? ['max_tokens'] : [])].sort(),
      );
      expect(named.every((f) => f === undefined || f in body(protocol, all))).toBe(true);
    },
  );

  it.each([
    ['chat', ['temperature', 'topP', 'maxOutputTokens', 'seed', 'presencePenalty', 'frequencyPenalty'], 4],
    ['responses', ['temperature', 'topP', 'maxOutputTokens'], undefined],
    ['messages', ['temperature', 'topP', 'maxOutputTokens'], undefined],
  ] as const)('%s', (protocol, numbers, maxStops) => {
    const support = parameterSupport(protocol);
    expect(Object.keys(support.numbers)).toEqual(numbers);
    expect(support.stop?.max).toBe(maxStops);
    expect(support.stop !== undefined).toBe(protocol !== 'responses');
  });
});

describe('requestProblem: nothing out of range is sent', () => {
  const problem = (protocol: 'chat' | 'responses' | 'messages', parameters: SamplingParameters) =>
    requestProblem(protocol, { model: 'm', messages: hi, ...parameters });
  const range = (
    api: string,
    name: string,
    value: number,
    min: number,
    max: number | 'none',
    whole = 'no',
  ) => ({
    code: 'parameter_out_of_range',
    values: { api, name, value, min, max, whole },
  });

  it.each([
    ['chat', { temperature: 2.01 }, range('Chat Completions', 'temperature', 2.01, 0, 2)],
    ['chat', { temperature: -0.1 }, range('Chat Completions', 'temperature', -0.1, 0, 2)],
    ['chat', { topP: 1.5 }, range('Chat Completions', 'topP', 1.5, 0, 1)],
    ['chat', { maxOutputTokens: 0 }, range('Chat Completions', 'maxOutputTokens', 0, 1, 'none', 'yes')],
    ['chat', { maxOutputTokens: 10.5 }, range('Chat Completions', 'maxOutputTokens', 10.5, 1, 'none', 'yes')],
    [
      'chat',
      { seed: 1.5 },
      range('Chat Completions', 'seed', 1.5, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'yes'),
    ],
    ['chat', { presencePenalty: 2.5 }, range('Chat Completions', 'presencePenalty', 2.5, -2, 2)],
    ['chat', { frequencyPenalty: -3 }, range('Chat Completions', 'frequencyPenalty', -3, -2, 2)],
    ['responses', { maxOutputTokens: 15 }, range('Responses', 'maxOutputTokens', 15, 16, 'none', 'yes')],
    ['responses', { temperature: 2.5 }, range('Responses', 'temperature', 2.5, 0, 2)],
    ['messages', { temperature: 1.2 }, range('Anthropic Messages', 'temperature', 1.2, 0, 1)],
    ['messages', { topP: -1 }, range('Anthropic Messages', 'topP', -1, 0, 1)],
  ] as const)('%s %j', (protocol, parameters, expected) => {
    expect(problem(protocol, parameters)).toEqual(expected);
  });

  it('refuses a fifth stop sequence on Chat only', () => {
    const stop = ['a', 'b', 'c', 'd', 'e'];
    expect(problem('chat', { stop })).toEqual({
      code: 'too_many_stop_sequences',
      values: { api: 'Chat Completions', max: 4, count: 5 },
    });
    expect(problem('messages', { stop })).toBeNull();
    expect(problem('chat', { stop: stop.slice(0, 4) })).toBeNull();
  });

  it('accepts the ends of every range', () => {
    expect(problem('chat', { temperature: 2, topP: 0, presencePenalty: -2, frequencyPenalty: 2 })).toBeNull();
    expect(problem('messages', { temperature: 1, topP: 1, maxOutputTokens: 1 })).toBeNull();
    expect(problem('responses', { maxOutputTokens: 16, temperature: 0 })).toBeNull();
  });

  it('ignores what a protocol does not take: it is not sent', () => {
    const others = { seed: 1.5, presencePenalty: 9, frequencyPenalty: -9, stop: ['a', 'b', 'c', 'd', 'e'] };
    expect(problem('responses', others)).toBeNull();
    expect(problem('messages', { seed: 1.5, presencePenalty: 9 })).toBeNull();
    expect(body('responses', others)).not.toHaveProperty('seed');
  });

  it('with Anthropic thinking, takes top_p from 0.95 only', () => {
    const reasoning = { effort: 'high' as const, budgetTokens: defaultThinkingBudgets.high };
    expect(requestProblem('messages', { model: 'm', messages: hi, reasoning, topP: 0.9 })).toEqual({
      code: 'top_p_while_thinking',
      values: { topP: 0.9, min: 0.95 },
    });
    expect(requestProblem('messages', { model: 'm', messages: hi, reasoning, topP: 0.95 })).toBeNull();
    expect(requestProblem('messages', { model: 'm', messages: hi, topP: 0.5 })).toBeNull();
  });
});

describe('keptParameters', () => {
  it('keeps the ones set, an empty stop list left out', () => {
    expect(keptParameters({ temperature: 0, topP: undefined, stop: [] })).toEqual({ temperature: 0 });
    expect(keptParameters(all)).toEqual(all);
  });
});
