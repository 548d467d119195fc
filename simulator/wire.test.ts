import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from './sealing.ts';
import { type RunningSimulator, startSimulator } from './server.ts';
import { frames, payloads, postJson, readText } from './testing.ts';

// Raw wire checks: framing byte for byte, keepalive placement and the exact mid-stream error forms.
let sim: RunningSimulator;
const KEEPALIVE_MS = 10;
const STALL_MS = 150;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 2, keepaliveMs: KEEPALIVE_MS, stallMs: STALL_MS, apiKey: undefined });
});
afterAll(() => sim.close());

type Proto = 'chat' | 'responses' | 'messages';
const PATHS: Record<Proto, string> = {
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
  messages: '/v1/messages',
};

function request(proto: Proto, model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const text = 'Tell me about streams';
  if (proto === 'responses') return { model, stream: true, input: text, ...extra };
  const base = { model, stream: true, messages: [{ role: 'user', content: text }], ...extra };
  return proto === 'messages' ? { max_tokens: 1024, ...base } : base;
}

async function streamText(proto: Proto, model: string, extra: Record<string, unknown> = {}) {
  const res = await postJson(`${sim.url}${PATHS[proto]}`, request(proto, model, extra));
  return { res, ...(await readText(res)) };
}

const STALLED_MESSAGE = 'The model produced no output for 150 ms; the stream was stopped, please retry';
const INTERRUPTED_ANTHROPIC =
  'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"Response stream interrupted, please retry"}}\n\n';

describe('keepalive comments', () => {
  it.each(['chat', 'responses', 'messages'] as const)('appear only between events (%s)', async (proto) => {
    const { text } = await streamText(proto, 'sim-echo');
    const count = text.match(/: hopbase-keepalive/g)?.length ?? 0;
    expect(count).toBeGreaterThan(3);
    // Every comment is a whole frame of its own: at the start or after a blank line, and followed by one.
    expect(text.match(/(?:^|\n\n): hopbase-keepalive\n\n/g)?.length).toBe(count);
    expect(text).not.toMatch(/[^\n]\n: hopbase-keepalive|: hopbase-keepalive\n[^\n]/);
    expect(() => frames(text)).not.toThrow();
  });

  it('keep coming while the model is silent', async () => {
    const { text } = await streamText('messages', 'sim-stall');
    const silence = text.slice(text.lastIndexOf('text_delta'), text.indexOf('event: error'));
    const during = silence.match(/: hopbase-keepalive\n\n/g)?.length ?? 0;
    expect(during).toBeGreaterThanOrEqual(Math.floor(STALL_MS / KEEPALIVE_MS / 2));
  });
});

describe('normal streams', () => {
  it('Chat: data-only chunks, usage only with include_usage, then [DONE]', async () => {
    const { res, text } = await streamText('chat', 'sim-echo');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const all = frames(text);
    expect(all.every((f) => f.event === undefined)).toBe(true);
    expect(all.at(-1)?.data).toBe('[DONE]');
    expect(payloads(text).some((p) => 'usage' in p)).toBe(false);

    const withUsage = await streamText('chat', 'sim-echo', { stream_options: { include_usage: true } });
    const chunks = payloads(withUsage.text);
    const last = chunks.at(-1) as { choices: unknown[]; usage: Record<string, number> };
    expect(last.choices).toEqual([]);
    expect(last.usage.total_tokens).toBe(
      (last.usage.prompt_tokens ?? 0) + (last.usage.completion_tokens ?? 0),
    );
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    const first = chunks[0] as Record<string, unknown>;
    expect(Object.keys(first)).toEqual([
      'id',
      'object',
      'created',
      'model',
      'service_tier',
      'system_fingerprint',
      'usage',
      'choices',
    ]);
  });

  it('Responses: event name equals type, sequence_number counts from 0, ends with response.completed', async () => {
    const { text } = await streamText('responses', 'sim-echo');
    const all = frames(text);
    const data = all.map((f) => JSON.parse(f.data) as { type: string; sequence_number: number });
    expect(all.every((f, i) => f.event === data[i]?.type)).toBe(true);
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
    expect(data.map((d) => d.type).slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(data.at(-1)?.type).toBe('response.completed');
    expect(text).not.toContain('[DONE]');
  });

  it('Messages: message_start … message_stop with cumulative output usage', async () => {
    const { res, text } = await streamText('messages', 'sim-echo');
    expect(res.headers.get('request-id')).toMatch(/^req_011C/);
    const all = frames(text);
    const types = all.map((f) => (JSON.parse(f.data) as { type: string }).type);
    expect(all.every((f, i) => f.event === types[i])).toBe(true);
    expect(types.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const deltas = types.filter((t) => t === 'content_block_delta').length;
    const messageDelta = payloads(text).find((p) => p.type === 'message_delta') as {
      usage: { output_tokens: number };
    };
    expect(messageDelta.usage.output_tokens).toBe(deltas);
  });
});

describe('mid-stream errors', () => {
  it('Chat: one data-only error chunk with no event line and no [DONE]', async () => {
    const { text } = await streamText('chat', 'sim-interrupt');
    expect(text).not.toContain('event:');
    expect(text).not.toContain('[DONE]');
    expect(
      text.endsWith(
        'data: {"error":{"message":"Response stream interrupted, please retry","type":"server_error","param":null,"code":null}}\n\n',
      ),
    ).toBe(true);
    expect(payloads(text).filter((p) => 'error' in p)).toHaveLength(1);
    expect(
      payloads(text).some(
        (p) => (p.choices as { delta: { content?: string } }[] | undefined)?.[0]?.delta.content,
      ),
    ).toBe(true);
  });

  it('Chat: a stall ends with the data-only OpenAI error envelope, type server_error, no invented code', async () => {
    const { text } = await streamText('chat', 'sim-stall');
    const last = frames(text).at(-1);
    expect(last?.event).toBeUndefined();
    expect(JSON.parse(last?.data ?? '')).toEqual({
      error: {
        message: STALLED_MESSAGE,
        type: 'server_error',
        param: null,
        code: null,
      },
    });
  });

  it('Responses: a stall is response.failed with code server_error and says how long the model was silent', async () => {
    const { text } = await streamText('responses', 'sim-stall');
    const failed = JSON.parse(frames(text).at(-1)?.data ?? '') as { response: { error: unknown } };
    expect(failed.response.error).toEqual({ code: 'server_error', message: STALLED_MESSAGE });
  });

  it.each(['sim-interrupt', 'sim-stall'])(
    'Responses: %s ends with event: response.failed and error.code',
    async (model) => {
      const { text } = await streamText('responses', model);
      const last = frames(text).at(-1);
      expect(last?.event).toBe('response.failed');
      const failed = JSON.parse(last?.data ?? '') as { type: string; response: Record<string, unknown> };
      expect(failed.type).toBe('response.failed');
      expect(failed.response.status).toBe('failed');
      expect((failed.response.error as { code: string }).code).toBe('server_error');
      expect(failed.response.output).toEqual([
        expect.objectContaining({ type: 'message', status: 'in_progress' }),
      ]);
      expect(text).not.toContain('response.completed');
    },
  );

  it.each(['sim-interrupt', 'sim-stall'])(
    'Messages: %s ends with exactly one event: error',
    async (model) => {
      const { text } = await streamText('messages', model);
      expect(text.endsWith(INTERRUPTED_ANTHROPIC)).toBe(true);
      expect(text.match(/event: error/g)).toHaveLength(1);
      expect(text).not.toContain('message_stop');
    },
  );

  it('the stall lasts the stall timeout', async () => {
    const started = Date.now();
    await streamText('messages', 'sim-stall');
    expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_MS);
  });

  it.each(['chat', 'responses', 'messages'] as const)(
    'sim-drop cuts the connection with no terminal event (%s)',
    async (proto) => {
      const { text, cut } = await streamText(proto, 'sim-drop');
      expect(cut).toBe(true);
      expect(text.length).toBeGreaterThan(100);
      expect(text).not.toMatch(
        /\[DONE\]|response\.completed|response\.failed|message_stop|event: error|"error":\{/,
      );
    },
  );
});

describe('cached prompts (sim-cached), each protocol in its own terms', () => {
  type Counts = Record<string, number>;
  /** The usage a stream ended with. */
  const finalUsage = async (proto: Proto, model: string): Promise<Counts> => {
    const extra = proto === 'chat' ? { stream_options: { include_usage: true } } : {};
    const chunks = payloads((await streamText(proto, model, extra)).text);
    if (proto === 'chat') return chunks.at(-1)?.usage as Counts;
    const type = proto === 'responses' ? 'response.completed' : 'message_start';
    const event = chunks.find((c) => c.type === type) ?? {};
    const body = (proto === 'responses' ? event.response : event.message) as { usage: Counts };
    return body.usage;
  };
  const prompt = (usage: Counts, field: string) => usage[field] ?? Number.NaN;

  it('Chat Completions: cached tokens are part of prompt_tokens', async () => {
    const plain = await finalUsage('chat', 'sim-echo');
    const cached = await finalUsage('chat', 'sim-cached');
    expect(cached.prompt_tokens).toBe(plain.prompt_tokens);
    expect(cached.prompt_tokens_details).toMatchObject({
      cached_tokens: Math.floor(prompt(plain, 'prompt_tokens') / 2),
    });
    expect(plain.prompt_tokens_details).toMatchObject({ cached_tokens: 0 });
  });

  it('Responses: cached tokens are part of input_tokens', async () => {
    const plain = await finalUsage('responses', 'sim-echo');
    const cached = await finalUsage('responses', 'sim-cached');
    expect(cached.input_tokens).toBe(plain.input_tokens);
    expect(cached.input_tokens_details).toEqual({
      cached_tokens: Math.floor(prompt(plain, 'input_tokens') / 2),
    });
  });

  it('Anthropic Messages: reads and writes apart from input_tokens, writes split by how long', async () => {
    const all = prompt(await finalUsage('messages', 'sim-echo'), 'input_tokens');
    const cached = await finalUsage('messages', 'sim-cached');
    const read = Math.floor(all / 2);
    const written = Math.floor(all / 4);
    const hour = Math.floor(written / 2);
    expect(cached).toMatchObject({
      input_tokens: all - read - written,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written,
      cache_creation: { ephemeral_5m_input_tokens: written - hour, ephemeral_1h_input_tokens: hour },
    });
  });
});

describe('a conversation that asks for caching, each protocol in its own terms', () => {
  type Counts = Record<string, number>;
  const post = (proto: Proto, body: Record<string, unknown>) =>
    postJson(`${sim.url}${PATHS[proto]}`, { model: 'sim-echo', stream: true, ...body });
  /** The usage a stream ended with. */
  const usageOf = async (proto: Proto, body: Record<string, unknown>): Promise<Counts> => {
    const chunks = payloads((await readText(await post(proto, body))).text);
    if (proto === 'chat') return chunks.at(-1)?.usage as Counts;
    const type = proto === 'responses' ? 'response.completed' : 'message_start';
    const event = chunks.find((c) => c.type === type) ?? {};
    return ((proto === 'responses' ? event.response : event.message) as { usage: Counts }).usage;
  };
  const first = [{ role: 'user', content: 'Hello there' }];
  const second = [...first, { role: 'assistant', content: 'Hi.' }, { role: 'user', content: 'And again?' }];

  it.each([
    ['chat', 'messages', 'prompt_tokens', { stream_options: { include_usage: true } }],
    ['responses', 'input', 'input_tokens', {}],
  ] as const)(
    '%s: the second turn reads the first one’s prompt, part of its own',
    async (proto, field, count, extra) => {
      const turn = (items: unknown[], key?: string) =>
        usageOf(proto, { ...extra, [field]: items, ...(key && { prompt_cache_key: key }) });
      const details = (u: Counts) =>
        (u[proto === 'chat' ? 'prompt_tokens_details' : 'input_tokens_details'] as unknown as Counts)
          .cached_tokens;
      const one = await turn(first, 'k');
      const two = await turn(second, 'k');
      expect(details(one)).toBe(0);
      expect(details(two)).toBe(one[count]);
      expect(two[count]).toBeGreaterThan(one[count] ?? Number.NaN);
      expect(details(await turn(second))).toBe(0);
    },
  );

  it('Anthropic Messages: the first turn writes, the second reads that and writes the rest', async () => {
    const cc = { cache_control: { type: 'ephemeral' } };
    const block = (text: string, marked: boolean) => [{ type: 'text', text, ...(marked && cc) }];
    const turn = (marked: boolean, messages: { role: string; content: string }[]) =>
      usageOf('messages', {
        max_tokens: 1024,
        system: block('Be brief.', marked),
        messages: messages.map((m, i) => ({ ...m, content: block(m.content, marked && i % 2 === 0) })),
      });
    const plain = await turn(false, second);
    const one = await turn(true, first);
    const two = await turn(true, second);
    expect(one).toMatchObject({ input_tokens: 0, cache_read_input_tokens: 0 });
    const written = one.cache_creation_input_tokens ?? Number.NaN;
    expect(written).toBeGreaterThan(0);
    expect(two).toMatchObject({ input_tokens: 0, cache_read_input_tokens: written });
    expect(two.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(two.cache_creation).toEqual({
      ephemeral_5m_input_tokens: two.cache_creation_input_tokens,
      ephemeral_1h_input_tokens: 0,
    });
    expect(plain).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });

  it.each([
    [
      'messages',
      {
        max_tokens: 9,
        messages: [
          {
            role: 'user',
            content: [1, 2, 3, 4, 5].map((n) => ({
              type: 'text',
              text: `${n}`,
              cache_control: { type: 'ephemeral' },
            })),
          },
        ],
      },
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    ],
    [
      'messages',
      {
        max_tokens: 9,
        system: [{ type: 'text', text: 'S', cache_control: { type: 'persistent' } }],
        messages: first,
      },
      "system.0.cache_control.type: Input should be 'ephemeral'",
    ],
    [
      'messages',
      {
        max_tokens: 9,
        tools: [
          { name: 't', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '2h' } },
        ],
        messages: first,
      },
      "tools.0.cache_control.ttl: Input should be '5m' or '1h'",
    ],
    [
      'messages',
      {
        max_tokens: 9,
        messages: [
          ...first,
          {
            role: 'assistant',
            content: [
              {
                type: 'thinking',
                thinking: 'Hmm',
                signature: seal('messages.thinking', 'Hmm'),
                cache_control: { type: 'ephemeral' },
              },
              { type: 'text', text: 'Hi.' },
            ],
          },
          { role: 'user', content: 'More?' },
        ],
      },
      'messages.1.content.0.thinking.cache_control: Extra inputs are not permitted',
    ],
    [
      'chat',
      { messages: first, prompt_cache_key: 5 },
      "Invalid type for 'prompt_cache_key': expected a string, but got integer instead.",
    ],
    [
      'responses',
      { input: first, prompt_cache_key: [] },
      "Invalid type for 'prompt_cache_key': expected a string, but got array instead.",
    ],
  ] as const)('%s refuses what the API refuses: %j', async (proto, body, message) => {
    const res = await post(proto, body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(JSON.stringify(message).slice(1, -1));
  });
});
