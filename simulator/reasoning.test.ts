import Anthropic, { BadRequestError as AnthropicBadRequestError } from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import type { ResponseInputItem, ResponseReasoningItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_THINKING_TRIGGER } from './protocols/messages.ts';
import { type RunningSimulator, startSimulator } from './server.ts';

// sim-reasoning through the official SDKs: it thinks as hard as it is asked to, hands out reasoning state
// (signatures, encrypted reasoning) when asked, and refuses a follow-up without it, as the real APIs do.
let sim: RunningSimulator;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 0, keepaliveMs: 1000, apiKey: undefined });
  openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: sim.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => sim.close());

const QUESTION = 'Weather in Paris?';
const RESULT = '{"temperature":21}';
const schema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

/** The error an SDK call rejects with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('Chat Completions: reasoning_effort, and no reasoning sent back', () => {
  const reasoningTokens = async (effort: 'none' | 'low' | 'medium' | 'high') => {
    const completion = await openai.chat.completions
      .stream({
        model: 'sim-reasoning',
        messages: [{ role: 'user', content: QUESTION }],
        reasoning_effort: effort,
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    return completion.usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  };

  it('thinks more at a higher effort, and not at all at none', async () => {
    const [none, low, medium, high] = await Promise.all(
      (['none', 'low', 'medium', 'high'] as const).map(reasoningTokens),
    );
    expect(none).toBe(0);
    expect(low).toBeGreaterThan(0);
    expect(medium).toBeGreaterThan(low ?? 0);
    expect(high).toBeGreaterThan(medium ?? 0);
  });

  it('refuses reasoning_content sent back in an assistant message, as DeepSeek-style backends do', async () => {
    const error = await failure(
      openai.chat.completions.create({
        model: 'sim-reasoning',
        messages: [
          { role: 'user', content: QUESTION },
          // Not in OpenAI's types: exactly what a client must not send.
          { role: 'assistant', content: 'Sunny.', reasoning_content: 'I thought.' } as never,
          { role: 'user', content: 'Thanks' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe('messages[1].reasoning_content');
  });

  it('refuses an effort it does not know', async () => {
    const error = await failure(
      openai.chat.completions.create({
        model: 'sim-reasoning',
        messages: [{ role: 'user', content: QUESTION }],
        reasoning_effort: 'enormous' as never,
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe('reasoning_effort');
  });
});

describe('Responses: reasoning {effort, summary}, encrypted reasoning items sent back', () => {
  const tools = [{ type: 'function' as const, name: 'get_weather', parameters: schema, strict: false }];
  const stateless = {
    model: 'sim-reasoning',
    store: false,
    include: ['reasoning.encrypted_content' as const],
    reasoning: { effort: 'high' as const, summary: 'auto' as const },
    tools,
  };

  /** A stateless tool call and what its follow-up must send: every output item, then the result. */
  async function toolCall() {
    const added: ResponseReasoningItem[] = [];
    const stream = openai.responses.stream({ ...stateless, input: QUESTION });
    stream.on('response.output_item.added', (e) => e.item.type === 'reasoning' && added.push(e.item));
    const response = await stream.finalResponse();
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    const call = response.output.find((item) => item.type === 'function_call');
    if (reasoning?.type !== 'reasoning' || call?.type !== 'function_call') throw new Error('no tool call');
    const followUp = (items: ResponseInputItem[]): ResponseInputItem[] => [
      { role: 'user', content: QUESTION },
      ...items,
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: RESULT },
    ];
    return { reasoning, added: added[0], followUp };
  }

  it('streams no reasoning text without a summary, yet reasons and bills for it', async () => {
    let summaryDeltas = 0;
    const stream = openai.responses.stream({
      model: 'sim-reasoning',
      input: QUESTION,
      reasoning: { effort: 'low' },
    });
    stream.on('response.reasoning_summary_text.delta', () => summaryDeltas++);
    const response = await stream.finalResponse();
    const item = response.output[0];
    expect(item?.type === 'reasoning' && item.summary).toEqual([]);
    expect(item?.type === 'reasoning' && item.encrypted_content).toBeUndefined();
    expect(summaryDeltas).toBe(0);
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('thinks more at a higher effort', async () => {
    const tokens = await Promise.all(
      (['none', 'low', 'medium', 'high'] as const).map(async (effort) => {
        const response = await openai.responses.create({
          model: 'sim-reasoning',
          input: QUESTION,
          reasoning: { effort },
        });
        return response.usage?.output_tokens_details.reasoning_tokens ?? 0;
      }),
    );
    expect(tokens[0]).toBe(0);
    expect(tokens[1]).toBeGreaterThan(0);
    expect(tokens[2]).toBeGreaterThan(tokens[1] ?? 0);
    expect(tokens[3]).toBeGreaterThan(tokens[2] ?? 0);
  });

  it('hands out encrypted content when asked, the final item’s differing from the in-progress one', async () => {
    const { reasoning, added } = await toolCall();
    expect(reasoning.id).toMatch(/^rs_/);
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(reasoning.summary[0]?.text).toMatch(/^\*\*Understanding the request\*\*/);
    expect(added?.encrypted_content).toMatch(/^gAAAAAB/);
    expect(added?.encrypted_content).not.toBe(reasoning.encrypted_content);
  });

  it('completes a stateless follow-up that sends the reasoning item back', async () => {
    const { reasoning, followUp } = await toolCall();
    const response = await openai.responses.create({ ...stateless, input: followUp([reasoning]) });
    expect(response.status).toBe('completed');
    expect(response.output_text).toContain(RESULT);
  });

  it('refuses a stateless follow-up without the turn’s reasoning item, naming it', async () => {
    const { reasoning, followUp } = await toolCall();
    const error = await failure(openai.responses.create({ ...stateless, input: followUp([]) }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain(
      `without its required 'reasoning' item: '${reasoning.id}'`,
    );
  });

  it('refuses altered encrypted content, and the in-progress item’s', async () => {
    const { reasoning, added, followUp } = await toolCall();
    const content = reasoning.encrypted_content ?? '';
    const altered = `${content.slice(0, 40)}${content[40] === 'A' ? 'B' : 'A'}${content.slice(41)}`;
    for (const encrypted of [altered, added?.encrypted_content]) {
      const error = await failure(
        openai.responses.create({
          ...stateless,
          input: followUp([{ ...reasoning, encrypted_content: encrypted }]),
        }),
      );
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).code).toBe('invalid_encrypted_content');
    }
  });

  it('answers 404 for a reasoning item without encrypted content when nothing is stored', async () => {
    const { reasoning, followUp } = await toolCall();
    const error = await failure(
      openai.responses.create({ ...stateless, input: followUp([{ ...reasoning, encrypted_content: null }]) }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toContain(`Item with id '${reasoning.id}' not found`);
  });

  it('refuses a reasoning item with nothing after it', async () => {
    const { reasoning } = await toolCall();
    const error = await failure(
      openai.responses.create({ ...stateless, input: [{ role: 'user', content: QUESTION }, reasoning] }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain('was provided without its required following item');
  });

  it('asks nothing back for calls it made without encrypted reasoning (nothing could be sent)', async () => {
    const first = await openai.responses.create({
      model: 'sim-reasoning',
      input: QUESTION,
      tools,
      store: false,
    });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('no tool call');
    const response = await openai.responses.create({
      ...stateless,
      input: [
        { role: 'user', content: QUESTION },
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: RESULT },
      ],
    });
    expect(response.status).toBe('completed');
  });
});

describe('Messages: thinking with a budget, signed blocks sent back', () => {
  const tools = [{ name: 'get_weather', input_schema: schema }];
  const thinking = { type: 'enabled' as const, budget_tokens: 16384 };
  const request = { model: 'sim-reasoning', max_tokens: 20480, thinking, tools };

  /** A tool call with thinking, and its follow-up's messages with the assistant content as given. */
  async function toolCall(question = QUESTION) {
    const message = await anthropic.messages
      .stream({ ...request, messages: [{ role: 'user', content: question }] })
      .finalMessage();
    const use = message.content.find((b) => b.type === 'tool_use');
    if (use?.type !== 'tool_use') throw new Error('no tool call');
    const followUp = (content: ContentBlockParam[]): MessageParam[] => [
      { role: 'user', content: question },
      { role: 'assistant', content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: RESULT }] },
    ];
    return { content: message.content as ContentBlockParam[], followUp };
  }

  it('thinks more with a larger budget, and not at all without thinking', async () => {
    const tokens = await Promise.all(
      [undefined, 1024, 8192, 16384].map(async (budget) => {
        const message = await anthropic.messages.create({
          model: 'sim-reasoning',
          max_tokens: 20480,
          ...(budget && { thinking: { type: 'enabled' as const, budget_tokens: budget } }),
          messages: [{ role: 'user', content: QUESTION }],
        });
        const block = message.content[0];
        return block?.type === 'thinking' ? block.thinking.length : 0;
      }),
    );
    expect(tokens[0]).toBe(0);
    expect(tokens[1]).toBeGreaterThan(0);
    expect(tokens[2]).toBeGreaterThan(tokens[1] ?? 0);
    expect(tokens[3]).toBeGreaterThan(tokens[2] ?? 0);
  });

  it('completes a follow-up that sends the thinking block back with its signature', async () => {
    const { content, followUp } = await toolCall();
    expect(content[0]?.type).toBe('thinking');
    const message = await anthropic.messages.create({ ...request, messages: followUp(content) });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]?.type).toBe('thinking');
  });

  it('refuses a tool loop’s follow-up without its thinking block, as the real API does', async () => {
    const { content, followUp } = await toolCall();
    const error = await failure(
      anthropic.messages.create({
        ...request,
        messages: followUp(content.filter((b) => b.type !== 'thinking')),
      }),
    );
    expect(error).toBeInstanceOf(AnthropicBadRequestError);
    expect((error as AnthropicBadRequestError).message).toContain(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`.',
    );
    // With thinking off for the follow-up, the same history is fine.
    const { thinking: _off, ...withoutThinking } = request;
    const message = await anthropic.messages.create({
      ...withoutThinking,
      messages: followUp(content.filter((b) => b.type !== 'thinking')),
    });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('refuses an altered signature, and a signature kept over altered thinking', async () => {
    const { content, followUp } = await toolCall();
    const [block, ...rest] = content;
    if (block?.type !== 'thinking') throw new Error('no thinking block');
    const flipped = block.signature.startsWith('A')
      ? `B${block.signature.slice(1)}`
      : `A${block.signature.slice(1)}`;
    for (const changed of [
      { ...block, signature: flipped },
      { ...block, thinking: `${block.thinking} ` },
    ]) {
      const error = await failure(
        anthropic.messages.create({ ...request, messages: followUp([changed, ...rest]) }),
      );
      expect(error).toBeInstanceOf(AnthropicBadRequestError);
      expect((error as AnthropicBadRequestError).message).toContain(
        'messages.1.content.0: Invalid `signature` in `thinking` block',
      );
    }
  });

  it('answers with a redacted_thinking block for the trigger string, and takes it back unchanged only', async () => {
    const question = `${QUESTION} ${REDACTED_THINKING_TRIGGER}`;
    const { content, followUp } = await toolCall(question);
    const [block, ...rest] = content;
    expect(block?.type).toBe('redacted_thinking');
    if (block?.type !== 'redacted_thinking') return;
    const message = await anthropic.messages.create({ ...request, messages: followUp(content) });
    expect(message.stop_reason).toBe('end_turn');
    const error = await failure(
      anthropic.messages.create({
        ...request,
        messages: followUp([{ ...block, data: `${block.data.slice(0, -4)}AAA=` }, ...rest]),
      }),
    );
    expect((error as AnthropicBadRequestError).message).toContain(
      'Invalid `data` in `redacted_thinking` block',
    );
  });

  it.each([
    [
      'a budget at max_tokens',
      { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } },
      'must be greater than `thinking.budget_tokens`',
    ],
    [
      'a budget under 1024',
      { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 512 } },
      'greater than or equal to 1024',
    ],
    [
      'a custom temperature',
      { max_tokens: 4096, temperature: 0.5, thinking: { type: 'enabled', budget_tokens: 1024 } },
      '`temperature` may only be set to 1 when thinking is enabled',
    ],
  ] as const)('refuses thinking with %s', async (_label, params, message) => {
    const error = await failure(
      anthropic.messages.create({
        model: 'sim-reasoning',
        messages: [{ role: 'user', content: QUESTION }],
        ...params,
      }),
    );
    expect(error).toBeInstanceOf(AnthropicBadRequestError);
    expect((error as AnthropicBadRequestError).status).toBe(400);
    expect((error as AnthropicBadRequestError).message).toContain(message);
  });
});
