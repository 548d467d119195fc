import Anthropic, { BadRequestError as AnthropicBadRequest } from '@anthropic-ai/sdk';
import OpenAI, { BadRequestError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from './server.ts';
import { postJson, readText } from './testing.ts';

// Sampling parameters out of range, of the wrong type, or unknown to the API: a 400 in each protocol's shape.
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 1, keepaliveMs: 20, stallMs: 200, apiKey: undefined });
});
afterAll(() => sim.close());

const chat = (extra: Record<string, unknown>) => ({
  model: 'sim-echo',
  stream: true,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
const responses = (extra: Record<string, unknown>) => ({
  model: 'sim-echo',
  stream: true,
  input: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
const messages = (extra: Record<string, unknown>) => ({
  model: 'sim-echo',
  max_tokens: 256,
  stream: true,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

async function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await postJson(`${sim.url}/v1${path}`, body);
  const { text } = await readText(res);
  return { status: res.status, json: res.status === 200 ? null : JSON.parse(text) };
}

describe('Chat Completions', () => {
  it.each([
    [
      { temperature: 2.5 },
      "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.",
      'temperature',
      'decimal_above_max_value',
    ],
    [
      { temperature: -1 },
      "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
      'temperature',
      'decimal_below_min_value',
    ],
    [
      { top_p: 1.1 },
      "Invalid 'top_p': decimal above maximum value. Expected a value <= 1, but got 1.1 instead.",
      'top_p',
      'decimal_above_max_value',
    ],
    [
      { presence_penalty: -2.5 },
      "Invalid 'presence_penalty': decimal below minimum value. Expected a value >= -2, but got -2.5 instead.",
      'presence_penalty',
      'decimal_below_min_value',
    ],
    [
      { frequency_penalty: 3 },
      "Invalid 'frequency_penalty': decimal above maximum value. Expected a value <= 2, but got 3 instead.",
      'frequency_penalty',
      'decimal_above_max_value',
    ],
    [
      { seed: 1.5 },
      "Invalid type for 'seed': expected an integer, but got a decimal instead.",
      'seed',
      'invalid_type',
    ],
    [
      { temperature: 'hot' },
      "Invalid type for 'temperature': expected a decimal, but got a string instead.",
      'temperature',
      'invalid_type',
    ],
    [
      { stop: ['a', 'b', 'c', 'd', 'e'] },
      "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead.",
      'stop',
      'array_above_max_length',
    ],
  ])('refuses %j', async (extra, message, param, code) => {
    const { status, json } = await post('/chat/completions', chat(extra));
    expect(status).toBe(400);
    expect(json).toEqual({ error: { message, type: 'invalid_request_error', param, code } });
  });

  it('takes every parameter at the ends of its range', async () => {
    const extra = {
      temperature: 2,
      top_p: 0,
      presence_penalty: -2,
      frequency_penalty: 2,
      seed: -7,
      stop: ['a', 'b', 'c', 'd'],
      max_completion_tokens: 1,
    };
    expect((await post('/chat/completions', chat(extra))).status).toBe(200);
    expect((await post('/chat/completions', chat({ stop: 'END' }))).status).toBe(200);
  });

  it('is read by the openai SDK as a BadRequestError naming the parameter', async () => {
    const openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const error = await openai.chat.completions
      .create({ model: 'sim-echo', messages: [{ role: 'user', content: 'Hi' }], presence_penalty: 9 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'presence_penalty', code: 'decimal_above_max_value' });
  });
});

describe('Responses', () => {
  it.each([
    [{ temperature: 2.01 }, 'temperature', 'decimal_above_max_value'],
    [{ top_p: -0.1 }, 'top_p', 'decimal_below_min_value'],
    [{ max_output_tokens: 15 }, 'max_output_tokens', 'integer_below_min_value'],
    [{ max_output_tokens: 20.5 }, 'max_output_tokens', 'invalid_type'],
    [{ stop: ['END'] }, 'stop', 'unknown_parameter'],
    [{ seed: 1 }, 'seed', 'unknown_parameter'],
    [{ presence_penalty: 0 }, 'presence_penalty', 'unknown_parameter'],
    [{ frequency_penalty: 0 }, 'frequency_penalty', 'unknown_parameter'],
  ])('refuses %j', async (extra, param, code) => {
    const { status, json } = await post('/responses', responses(extra));
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { type: 'invalid_request_error', param, code } });
  });

  it('says which limit, as OpenAI does', async () => {
    const { json } = await post('/responses', responses({ max_output_tokens: 10 }));
    expect(json).toMatchObject({
      error: {
        message:
          "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
      },
    });
  });

  it('takes temperature, top_p and max_output_tokens in range', async () => {
    const extra = { temperature: 0, top_p: 1, max_output_tokens: 16 };
    expect((await post('/responses', responses(extra))).status).toBe(200);
  });
});

describe('Anthropic Messages', () => {
  it.each([
    [{ temperature: 1.5 }, 'temperature: Input should be less than or equal to 1'],
    [{ temperature: -0.5 }, 'temperature: Input should be greater than or equal to 0'],
    [{ top_p: 2 }, 'top_p: Input should be less than or equal to 1'],
    [{ temperature: 'warm' }, 'temperature: Input should be a valid number'],
    [{ stop_sequences: 'END' }, 'stop_sequences: Input should be a valid list'],
    [{ stop_sequences: ['END', 3] }, 'stop_sequences.1: Input should be a valid string'],
    [{ seed: 1 }, 'seed: Extra inputs are not permitted'],
    [{ presence_penalty: 0.5 }, 'presence_penalty: Extra inputs are not permitted'],
    [{ stop: ['END'] }, 'stop: Extra inputs are not permitted'],
  ])('refuses %j', async (extra, message) => {
    const { status, json } = await post('/messages', messages(extra));
    expect(status).toBe(400);
    expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message } });
  });

  it('takes temperature, top_p and stop_sequences in range', async () => {
    const extra = { temperature: 1, top_p: 0, stop_sequences: ['END', '\n\n'] };
    expect((await post('/messages', messages(extra))).status).toBe(200);
  });

  it('is read by the anthropic SDK as a BadRequestError', async () => {
    const anthropic = new Anthropic({ baseURL: sim.url, apiKey: 'k', maxRetries: 0 });
    const error = await anthropic.messages
      .create({
        model: 'sim-echo',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
        stop_sequences: [3 as unknown as string],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicBadRequest);
    expect(error).toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
  });
});
