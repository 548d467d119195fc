import Anthropic, {
  APIError as AnthropicAPIError,
  RateLimitError as AnthropicRateLimitError,
} from '@anthropic-ai/sdk';
import OpenAI, { APIError, RateLimitError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from './server.ts';

// The official SDKs pointed at the simulator must behave as they do against the real APIs.
let sim: RunningSimulator;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 1, keepaliveMs: 20, stallMs: 200, apiKey: undefined });
  openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: sim.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => sim.close());

const QUESTION = "What's the weather in Paris?";
const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    details: { type: 'boolean' },
    options: {
      type: 'object',
      properties: { lang: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    },
  },
  required: ['city'],
};
const EXPECTED_ARGS = {
  city: 'Paris',
  unit: 'celsius',
  days: 3,
  details: true,
  options: { lang: 'en', tags: [QUESTION] },
};
const TOOL_RESULT = '{"temperature":21,"conditions":"sunny"}';

function expectDemoMarkdown(text: string): void {
  expect(text).toMatch(/^## What's the weather in Paris/);
  expect(text).toContain('- **Words:** 5');
  expect(text).toContain('| # | Word | Letters |');
  expect(text).toContain('```ts\nconst message = "What\'s the weather in Paris?";');
}

describe('Chat Completions through the openai SDK', () => {
  const chatTools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: schema } }];

  it('streams the demo answer and reports usage that adds up', async () => {
    let contentChunks = 0;
    const stream = openai.chat.completions.stream({
      model: 'sim-echo',
      messages: [{ role: 'user', content: QUESTION }],
      stream_options: { include_usage: true },
    });
    stream.on('content', () => contentChunks++);
    const completion = await stream.finalChatCompletion();
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('sim-echo');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expectDemoMarkdown(completion.choices[0]?.message.content ?? '');
    const usage = completion.usage;
    expect(usage?.completion_tokens).toBe(contentChunks);
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it('answers non-streaming with the same content and usage', async () => {
    const request = { model: 'sim-echo', messages: [{ role: 'user' as const, content: QUESTION }] };
    const completion = await openai.chat.completions.create(request);
    const streamed = await openai.chat.completions
      .stream({ ...request, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBe(streamed.choices[0]?.message.content);
    expect(completion.usage?.completion_tokens).toBe(streamed.usage?.completion_tokens);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
  });

  it('calls the offered tool with arguments from its schema, streamed in pieces', async () => {
    let argumentDeltas = 0;
    const stream = openai.chat.completions.stream({
      model: 'sim-tools',
      messages: [{ role: 'user', content: QUESTION }],
      tools: chatTools,
    });
    stream.on('tool_calls.function.arguments.delta', () => argumentDeltas++);
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call?.id).toMatch(/^call_/);
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual(EXPECTED_ARGS);
    expect(argumentDeltas).toBeGreaterThan(5);
  });

  it('answers with the tool result on the next request', async () => {
    const completion = await openai.chat.completions.create({
      model: 'sim-tools',
      tools: chatTools,
      messages: [
        { role: 'user', content: QUESTION },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: TOOL_RESULT },
      ],
    });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content).toContain(
      `\`get_weather\` returned:\n\n\`\`\`\n${TOOL_RESULT}\n\`\`\``,
    );
  });

  it('streams reasoning_content before the answer and counts reasoning tokens', async () => {
    const kinds: string[] = [];
    const stream = openai.chat.completions.stream({
      model: 'sim-reasoning',
      messages: [{ role: 'user', content: QUESTION }],
      stream_options: { include_usage: true },
    });
    stream.on('chunk', (chunk) => {
      const delta = chunk.choices[0]?.delta as
        | { content?: string | null; reasoning_content?: string }
        | undefined;
      if (delta?.reasoning_content) kinds.push('reasoning');
      if (delta?.content) kinds.push('text');
    });
    const completion = await stream.finalChatCompletion();
    const reasoning = kinds.filter((k) => k === 'reasoning').length;
    expect(reasoning).toBeGreaterThan(10);
    expect(kinds.indexOf('text')).toBe(reasoning);
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(reasoning);
    expect(completion.usage?.completion_tokens).toBe(kinds.length);
  });

  it('stops at max_completion_tokens with finish_reason length', async () => {
    const completion = await openai.chat.completions
      .stream({
        model: 'sim-echo',
        messages: [{ role: 'user', content: QUESTION }],
        max_completion_tokens: 5,
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(5);
  });

  it('raises an APIError for sim-interrupt mid-stream', async () => {
    const stream = openai.chat.completions.stream({
      model: 'sim-interrupt',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const error = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain('Response stream interrupted, please retry');
  });

  it('raises RateLimitError for sim-rate-limit', async () => {
    const error = await openai.chat.completions
      .create({ model: 'sim-rate-limit', messages: [{ role: 'user', content: 'Hi' }], stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(429);
    expect((error as RateLimitError).headers?.get('retry-after')).toBe('2');
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded');
  });
});

describe('Responses through the openai SDK', () => {
  const tools = [{ type: 'function' as const, name: 'get_weather', parameters: schema, strict: false }];

  it('streams the demo answer and reports usage that adds up', async () => {
    let deltas = 0;
    const stream = openai.responses.stream({ model: 'sim-echo', instructions: 'Be brief.', input: QUESTION });
    stream.on('response.output_text.delta', () => deltas++);
    const response = await stream.finalResponse();
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe('completed');
    expect(response.instructions).toBe('Be brief.');
    expectDemoMarkdown(response.output_text);
    expect(response.usage?.output_tokens).toBe(deltas);
    expect(response.usage?.total_tokens).toBe((response.usage?.input_tokens ?? 0) + deltas);
  });

  it('answers non-streaming with the same content', async () => {
    const response = await openai.responses.create({
      model: 'sim-echo',
      input: [{ role: 'user', content: [{ type: 'input_text', text: QUESTION }] }],
    });
    expect(response.object).toBe('response');
    expectDemoMarkdown(response.output_text);
    expect(response.output[0]?.type).toBe('message');
    expect(response.output[0]?.id).toMatch(/^msg_/);
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    );
  });

  it('returns a function_call item with arguments from the schema', async () => {
    let argumentDeltas = 0;
    const stream = openai.responses.stream({ model: 'sim-tools', input: QUESTION, tools });
    stream.on('response.function_call_arguments.delta', () => argumentDeltas++);
    const response = await stream.finalResponse();
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && call.name).toBe('get_weather');
    expect(call?.type === 'function_call' && call.call_id).toMatch(/^call_/);
    expect(call?.id).toMatch(/^fc_/);
    expect(call?.type === 'function_call' && JSON.parse(call.arguments)).toEqual(EXPECTED_ARGS);
    expect(argumentDeltas).toBeGreaterThan(5);
  });

  it('answers with the function_call_output on the next request', async () => {
    const response = await openai.responses.create({
      model: 'sim-tools',
      tools,
      input: [
        { role: 'user', content: QUESTION },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: TOOL_RESULT },
      ],
    });
    expect(response.output_text).toContain(TOOL_RESULT);
    expect(response.output.some((item) => item.type === 'function_call')).toBe(false);
  });

  it('puts a reasoning item with a summary first (when asked for one) and counts reasoning tokens', async () => {
    let summaryDeltas = 0;
    const stream = openai.responses.stream({
      model: 'sim-reasoning',
      input: QUESTION,
      reasoning: { effort: 'medium', summary: 'auto' },
    });
    stream.on('response.reasoning_summary_text.delta', () => summaryDeltas++);
    const response = await stream.finalResponse();
    const first = response.output[0];
    expect(first?.type).toBe('reasoning');
    expect(first?.type === 'reasoning' && first.summary[0]?.text).toMatch(
      /^\*\*Understanding the request\*\*/,
    );
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(summaryDeltas);
    expectDemoMarkdown(response.output_text);
  });

  it('ends incomplete at max_output_tokens', async () => {
    const response = await openai.responses
      .stream({ model: 'sim-echo', input: QUESTION, max_output_tokens: 16 })
      .finalResponse();
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details?.reason).toBe('max_output_tokens');
    expect(response.usage?.output_tokens).toBe(16);
  });

  it('surfaces sim-interrupt as a failed response with error.code (response.failed, no error event)', async () => {
    const stream = openai.responses.stream({ model: 'sim-interrupt', input: 'Hi' });
    const failed: string[] = [];
    stream.on('response.failed', (event) => failed.push(event.response.error?.code ?? ''));
    const response = await stream.finalResponse();
    expect(failed).toEqual(['server_error']);
    expect(response.status).toBe('failed');
    expect(response.error?.message).toBe('Response stream interrupted, please retry');
  });

  it('raises RateLimitError for sim-rate-limit', async () => {
    const error = await openai.responses
      .create({ model: 'sim-rate-limit', input: 'Hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(429);
  });
});

describe('Messages through the @anthropic-ai/sdk', () => {
  const tools = [
    {
      name: 'get_weather',
      description: 'Current weather',
      input_schema: schema as Anthropic.Tool.InputSchema,
    },
  ];

  it('streams the demo answer and reports usage', async () => {
    let deltas = 0;
    const stream = anthropic.messages.stream({
      model: 'sim-echo',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [{ role: 'user', content: QUESTION }],
    });
    stream.on('text', () => deltas++);
    const message = await stream.finalMessage();
    expect(message.id).toMatch(/^msg_01/);
    expect(message.stop_reason).toBe('end_turn');
    const block = message.content[0];
    expectDemoMarkdown(block?.type === 'text' ? block.text : '');
    expect(message.usage.output_tokens).toBe(deltas);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it('answers non-streaming with the same content', async () => {
    const message = await anthropic.messages.create({
      model: 'sim-echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: [{ type: 'text', text: QUESTION }] }],
    });
    expect(message.type).toBe('message');
    const block = message.content[0];
    expectDemoMarkdown(block?.type === 'text' ? block.text : '');
    expect(message.stop_reason).toBe('end_turn');
  });

  it('returns a tool_use block with input from the schema', async () => {
    const jsonDeltas: string[] = [];
    const stream = anthropic.messages.stream({
      model: 'sim-tools',
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user', content: QUESTION }],
    });
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    const use = message.content.find((b) => b.type === 'tool_use');
    expect(use?.type === 'tool_use' && use.id).toMatch(/^toolu_01/);
    expect(use?.type === 'tool_use' && use.name).toBe('get_weather');
    expect(use?.type === 'tool_use' && use.input).toEqual(EXPECTED_ARGS);
    expect(jsonDeltas.length).toBeGreaterThan(5);
  });

  it('answers with the tool_result on the next request', async () => {
    const message = await anthropic.messages.create({
      model: 'sim-tools',
      max_tokens: 1024,
      tools,
      messages: [
        { role: 'user', content: QUESTION },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: TOOL_RESULT }] },
      ],
    });
    expect(message.stop_reason).toBe('end_turn');
    const block = message.content[0];
    expect(block?.type === 'text' && block.text).toContain(TOOL_RESULT);
  });

  it('streams a signed thinking block before the text when thinking is on', async () => {
    const message = await anthropic.messages
      .stream({
        model: 'sim-reasoning',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: QUESTION }],
      })
      .finalMessage();
    const [thinking, text] = message.content;
    expect(thinking?.type).toBe('thinking');
    expect(thinking?.type === 'thinking' && thinking.thinking).toMatch(/^\*\*Understanding the request\*\*/);
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(100);
    expectDemoMarkdown(text?.type === 'text' ? text.text : '');
  });

  it('stops at max_tokens', async () => {
    const message = await anthropic.messages
      .stream({ model: 'sim-echo', max_tokens: 7, messages: [{ role: 'user', content: QUESTION }] })
      .finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(7);
  });

  it('raises an APIError with the api_error payload for sim-interrupt', async () => {
    const stream = anthropic.messages.stream({
      model: 'sim-interrupt',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicAPIError);
    expect((error as AnthropicAPIError).error).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'Response stream interrupted, please retry' },
    });
  });

  it('raises RateLimitError for sim-rate-limit', async () => {
    const error = await anthropic.messages
      .create({ model: 'sim-rate-limit', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicRateLimitError);
    expect((error as AnthropicRateLimitError).status).toBe(429);
    expect((error as AnthropicRateLimitError).requestID).toMatch(/^req_/);
  });
});
