import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from './server.ts';
import { postJson, readText } from './testing.ts';

// Tools, tool_choice and structured output in another protocol's shape, or missing a part: each API's 400.
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 1, keepaliveMs: 20, stallMs: 200, apiKey: undefined });
});
afterAll(() => sim.close());

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const chatTool = { type: 'function', function: { name: 'get_weather', parameters: schema } };
const flatTool = { type: 'function', name: 'get_weather', parameters: schema };
const anthropicTool = { name: 'get_weather', input_schema: schema };

const bodies = {
  '/chat/completions': (extra: object, text = 'Hi') => ({
    model: 'sim-echo',
    messages: [{ role: 'user', content: text }],
    ...extra,
  }),
  '/responses': (extra: object, text = 'Hi') => ({ model: 'sim-echo', input: text, ...extra }),
  '/messages': (extra: object, text = 'Hi') => ({
    model: 'sim-echo',
    max_tokens: 256,
    messages: [{ role: 'user', content: text }],
    ...extra,
  }),
};

async function post(path: keyof typeof bodies, extra: object, text?: string) {
  const res = await postJson(`${sim.url}/v1${path}`, bodies[path](extra, text));
  const { text: body } = await readText(res);
  return { status: res.status, json: JSON.parse(body) as Record<string, unknown> };
}

describe('Chat Completions', () => {
  it.each([
    [{ tools: [flatTool] }, 'tools[0].function'],
    [{ tools: [{ ...chatTool, type: 'tool' }] }, 'tools[0].type'],
    [{ tools: [{ type: 'function', function: { name: 'get weather' } }] }, 'tools[0].function.name'],
    [{ tools: [chatTool], tool_choice: 'any' }, 'tool_choice'],
    [{ tools: [chatTool], tool_choice: { type: 'function', name: 'get_weather' } }, 'tool_choice.function'],
    [{ tools: [chatTool], tool_choice: { type: 'function', function: { name: 'other' } } }, 'tool_choice'],
    [{ tool_choice: 'required' }, 'tool_choice'],
    [{ response_format: { type: 'json_schema' } }, 'response_format.json_schema'],
    [
      { response_format: { type: 'json_schema', json_schema: { schema } } },
      'response_format.json_schema.name',
    ],
    [{ response_format: { type: 'xml' } }, 'response_format.type'],
  ])('refuses %j', async (extra, param) => {
    const { status, json } = await post('/chat/completions', extra);
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { type: 'invalid_request_error', param } });
  });

  it('calls the tool a named choice forces, with arguments from its schema', async () => {
    const choice = { type: 'function', function: { name: 'get_weather' } };
    const { json } = await post('/chat/completions', { tools: [chatTool], tool_choice: choice });
    const call = (
      json as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] }
    ).choices[0]!.message.tool_calls[0]!.function;
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
  });

  it('answers structured output with JSON matching the schema, or breaking it when asked', async () => {
    const format = { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } };
    const content = async (text: string) => {
      const { json } = await post('/chat/completions', { response_format: format }, text);
      return JSON.parse(
        (json as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
      );
    };
    expect(await content('Weather?')).toEqual({ city: 'Paris' });
    expect(await content('Weather? break the schema')).toEqual({ city: 42 });
  });
});

describe('Responses', () => {
  it.each([
    [{ tools: [chatTool] }, 'tools[0].name'],
    [
      { tools: [flatTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } },
      'tool_choice.name',
    ],
    [{ tools: [flatTool], tool_choice: 'sometimes' }, 'tool_choice'],
    [{ response_format: { type: 'json_object' } }, 'response_format'],
    [{ text: { format: { type: 'json_schema', schema } } }, 'text.format.name'],
    [{ text: { format: { type: 'json_schema', name: 'answer' } } }, 'text.format.schema'],
  ])('refuses %j', async (extra, param) => {
    const { status, json } = await post('/responses', extra);
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { type: 'invalid_request_error', param } });
  });

  it('answers text.format with JSON matching the schema', async () => {
    const format = { type: 'json_schema', name: 'answer', schema, strict: true };
    const { status, json } = await post('/responses', { text: { format } }, 'Weather?');
    expect(status).toBe(200);
    const output = (json as { output: { content?: { text: string }[] }[] }).output;
    const text = output
      .flatMap((item) => item.content ?? [])
      .map((c) => c.text)
      .join('');
    expect(JSON.parse(text)).toEqual({ city: 'Paris' });
  });
});

describe('Anthropic Messages', () => {
  it.each([
    [{ tools: [chatTool] }, 'tools.0.function: Extra inputs are not permitted'],
    [{ tools: [{ name: 'get_weather' }] }, 'tools.0.custom.input_schema: Field required'],
    [
      { tools: [anthropicTool], tool_choice: 'auto' },
      "tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
    ],
    [
      { tools: [anthropicTool], tool_choice: { type: 'required' } },
      "tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
    ],
    [{ tools: [anthropicTool], tool_choice: { type: 'tool' } }, 'tool_choice.tool.name: Field required'],
    [{ response_format: { type: 'json_object' } }, 'response_format: Extra inputs are not permitted'],
  ])('refuses %j', async (extra, message) => {
    const { status, json } = await post('/messages', extra);
    expect(status).toBe(400);
    expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message } });
  });

  it('calls the forced tool with its input from the schema', async () => {
    const { json } = await post('/messages', {
      tools: [anthropicTool],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    const use = (json as { content: { type: string; name?: string; input?: unknown }[] }).content.find(
      (b) => b.type === 'tool_use',
    );
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
  });
});
