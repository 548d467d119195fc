/**
 * The reasoning state the reducers keep for the next request (docs/protocols.md §5.1, §6.1): Anthropic's
 * signed thinking and redacted blocks, Responses' reasoning items; byte for byte what the official SDKs
 * accumulate from the same recorded streams.
 */
import { describe, expect, it } from 'vitest';
import { readTurn } from '../readTurn.ts';
import type { ReasoningState } from '../reasoning.ts';
import { loadStreamFixtures, streamFromBytes } from '../testing/fixtures.ts';
import { sdkFinal } from '../testing/sdkOracle.ts';
import type { Protocol, Turn } from '../turn.ts';

const encoder = new TextEncoder();

/** A stream of `events` (objects, sent as `data:` lines) read to its turn. */
function read(protocol: Protocol, events: unknown[]): Promise<Turn> {
  const text = events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
  return readTurn(protocol, streamFromBytes(encoder.encode(text)));
}

const fixtures = loadStreamFixtures();

describe('byte for byte what the official SDKs accumulate, on every recorded stream', () => {
  const withState = fixtures.filter((f) => f.protocol !== 'chat');

  it.each(withState.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const turn = await readTurn(f.protocol, streamFromBytes(f.bytes));
    const final = await sdkFinal(f.protocol, streamFromBytes(f.bytes)).catch(() => null);
    if (final === null || turn.status !== 'complete') return;
    if (f.protocol === 'messages') {
      const blocks = (final as { content: { type: string; signature?: string }[] }).content.filter(
        (b) => (b.type === 'thinking' && b.signature) || b.type === 'redacted_thinking',
      );
      expect((turn.reasoningState ?? []).map((e) => (e.protocol === 'messages' ? e.block : null))).toEqual(
        blocks,
      );
    } else {
      const items = (final as { output: { type: string; id?: string }[] }).output.filter(
        (item) => item.type === 'reasoning' && typeof item.id === 'string',
      );
      expect((turn.reasoningState ?? []).map((e) => (e.protocol === 'responses' ? e.item : null))).toEqual(
        items,
      );
    }
  });

  it('finds state in the recordings that have it (so the comparison above is not vacuous)', async () => {
    const turnOf = async (name: string) => {
      const f = fixtures.find((x) => x.name === name)!;
      return readTurn(f.protocol, streamFromBytes(f.bytes));
    };
    const thinking = (await turnOf('anthropic/thinking-then-text.sse')).reasoningState ?? [];
    expect(thinking.map((e) => e.protocol === 'messages' && e.block.type)).toEqual(['thinking']);
    const redacted = (await turnOf('anthropic/redacted-thinking.sse')).reasoningState ?? [];
    expect(redacted.map((e) => e.protocol === 'messages' && e.block.type)).toEqual([
      'redacted_thinking',
      'redacted_thinking',
    ]);
    const items = (await turnOf('responses/openai-reasoning-message-function-call.sse')).reasoningState ?? [];
    expect(items).toHaveLength(1);
    expect(items[0]?.protocol === 'responses' && items[0].item.encrypted_content).toMatch(/^gAAAAAB/);
  });

  it('keeps none on Chat Completions, whose reasoning is text only', async () => {
    for (const f of fixtures.filter((x) => x.protocol === 'chat'))
      expect((await readTurn('chat', streamFromBytes(f.bytes))).reasoningState).toBeUndefined();
  });
});

describe('Anthropic Messages', () => {
  const start = {
    type: 'message_start',
    message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 3 } },
  };
  const thinkingStart = {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'thinking', thinking: '', signature: '' },
  };
  const thinkingDelta = (thinking: string) => ({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking },
  });
  const signature = {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'signature_delta', signature: 'EuwJ+/=' },
  };
  const stop = (index: number) => ({ type: 'content_block_stop', index });
  const end = [{ type: 'message_delta', delta: { stop_reason: 'end_turn' } }, { type: 'message_stop' }];

  it('keeps a thinking block with its signature, the text as streamed (padding and escapes decoded)', async () => {
    const turn = await read('messages', [
      start,
      thinkingStart,
      thinkingDelta('Let me think: '),
      // The per-delta fast path reads this one: the text it appends is what goes back.
      '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"caf\\u00e9 \\"42\\""}}   ',
      signature,
      stop(0),
      ...end,
    ]);
    expect(turn.reasoning).toBe('Let me think: café "42"');
    expect(turn.reasoningState).toEqual([
      {
        protocol: 'messages',
        key: '0',
        block: { type: 'thinking', thinking: 'Let me think: café "42"', signature: 'EuwJ+/=' },
      },
    ] satisfies ReasoningState[]);
  });

  it('sends back the final text when thinking arrives after the signature', async () => {
    const turn = await read('messages', [
      start,
      thinkingStart,
      thinkingDelta('a'),
      signature,
      thinkingDelta('b'),
      stop(0),
    ]);
    const [entry] = turn.reasoningState ?? [];
    expect(entry?.protocol === 'messages' && entry.block).toEqual({
      type: 'thinking',
      thinking: 'ab',
      signature: 'EuwJ+/=',
    });
  });

  it('keeps nothing for a thinking block cut before its signature', async () => {
    const turn = await read('messages', [start, thinkingStart, thinkingDelta('half a tho')]);
    expect(turn.status).toBe('interrupted');
    expect(turn.reasoning).toBe('half a tho');
    expect(turn.reasoningState).toBeUndefined();
  });

  it('keeps redacted thinking, complete at its start, and thinking that comes signed whole', async () => {
    const turn = await read('messages', [
      {
        ...start,
        message: {
          ...start.message,
          content: [{ type: 'thinking', thinking: 'Earlier.', signature: 'c2ln' }],
        },
      },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' },
      },
      stop(1),
      ...end,
    ]);
    expect(turn.reasoningState).toEqual([
      {
        protocol: 'messages',
        key: '0',
        block: { type: 'thinking', thinking: 'Earlier.', signature: 'c2ln' },
      },
      { protocol: 'messages', key: '1', block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' } },
    ]);
    expect(turn.reasoning).toBe('Earlier.');
  });

  it('reports a signature_delta without its signature as a malformed event', async () => {
    const turn = await read('messages', [
      start,
      thinkingStart,
      { ...signature, delta: { type: 'signature_delta' } },
    ]);
    expect(turn.error?.code).toBe('malformed_event');
  });
});

describe('Responses', () => {
  const item = {
    id: 'rs_1',
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'Plan.' }],
    encrypted_content: 'gAAAAABfinal',
    status: 'completed',
  };
  const created = {
    type: 'response.created',
    response: { id: 'resp_1', model: 'gpt', status: 'in_progress' },
  };

  it('keeps the finished reasoning item whole, not the in-progress one', async () => {
    const turn = await read('responses', [
      created,
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, summary: [], encrypted_content: 'gAAAAABearly' },
      },
      {
        type: 'response.reasoning_summary_text.delta',
        item_id: 'rs_1',
        output_index: 0,
        summary_index: 0,
        delta: 'Plan.',
      },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [item] } },
    ]);
    expect(turn.reasoning).toBe('Plan.');
    expect(turn.reasoningState).toEqual([{ protocol: 'responses', key: '0', item }]);
  });

  it('keeps an item without a summary too: its encrypted content is what matters', async () => {
    const silent = { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABsilent' };
    const turn = await read('responses', [
      created,
      { type: 'response.output_item.done', output_index: 0, item: silent },
    ]);
    expect(turn.reasoning).toBe('');
    expect(turn.reasoningState).toEqual([{ protocol: 'responses', key: '0', item: silent }]);
  });

  it('takes nothing from a failed response’s output, where items may be unfinished', async () => {
    const turn = await read('responses', [
      created,
      {
        type: 'response.failed',
        response: {
          id: 'resp_1',
          status: 'failed',
          output: [item],
          error: { code: 'server_error', message: 'x' },
        },
      },
    ]);
    expect(turn.status).toBe('error');
    expect(turn.reasoning).toBe('Plan.');
    expect(turn.reasoningState).toBeUndefined();
  });
});
