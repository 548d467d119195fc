import { describe, expect, it } from 'vitest';
import { finishNotice } from './finishNotice.ts';
import { readTurn } from './readTurn.ts';
import { loadStreamFixtures, streamFromBytes } from './testing/fixtures.ts';
import { emptyTurn, type Turn } from './turn.ts';

const fixtures = loadStreamFixtures();

async function turnOf(name: string): Promise<Turn> {
  const fixture = fixtures.find((f) => f.name === name);
  if (!fixture) throw new Error(`no fixture ${name}`);
  return readTurn(fixture.protocol, streamFromBytes(fixture.bytes));
}

describe('finishNotice, on recorded endings', () => {
  it.each([
    ['chat/openai-finish-length.sse', 'output_limit', 'length'],
    ['synthetic/responses/incomplete-max-output-tokens.sse', 'output_limit', 'max_output_tokens'],
    ['synthetic/chat/finish-content-filter.sse', 'content_filter', 'content_filter'],
    ['anthropic/pause-turn-web-search.sse', 'pause_turn', 'pause_turn'],
    ['synthetic/anthropic/refusal-after-partial-text.sse', 'refusal', 'refusal'],
  ])('%s → %s (%s)', async (name, code, raw) => {
    expect(finishNotice(await turnOf(name))).toMatchObject({ code, rawFinishReason: raw });
  });

  it('says when the token limit cut a tool call, which then cannot be run', async () => {
    const notice = finishNotice(await turnOf('anthropic/tool-input-cut-by-max-tokens.sse'));
    expect(notice).toMatchObject({ code: 'output_limit', rawFinishReason: 'max_tokens', toolCallCut: true });
    const plain = finishNotice(await turnOf('chat/openai-finish-length.sse'));
    expect(plain?.toolCallCut).toBe(false);
  });

  it('is silent for plain stops, tool calls, worded refusals and unfinished turns', async () => {
    const silent = [
      'chat/openai-parallel-tool-calls.sse', // tool_calls
      'chat/openai-refusal-logprobs.sse', // refusal with its words, shown as such
      'synthetic/responses/refusal.sse',
      'responses/openai-text.sse', // stop
      'synthetic/anthropic/hopbase-stream-interrupted.sse', // error: the interruption banner speaks
    ];
    for (const name of silent) expect(finishNotice(await turnOf(name)), name).toBeNull();
    expect(finishNotice({ ...emptyTurn, finishReason: 'length' })).toBeNull(); // still streaming
  });

  it('speaks of the context window, not the token limit, when the context is full', () => {
    const turn: Turn = {
      ...emptyTurn,
      status: 'complete',
      finishReason: 'length',
      rawFinishReason: 'model_context_window_exceeded',
    };
    expect(finishNotice(turn)).toEqual({
      code: 'context_window',
      rawFinishReason: 'model_context_window_exceeded',
      outputShown: false,
      toolCallCut: false,
    });
  });

  it('says output was shown only when something came before', () => {
    const filtered: Turn = { ...emptyTurn, status: 'complete', finishReason: 'content_filter' };
    expect(finishNotice(filtered)).toEqual({
      code: 'content_filter',
      rawFinishReason: null,
      outputShown: false,
      toolCallCut: false,
    });
    expect(finishNotice({ ...filtered, text: 'Partial' })?.outputShown).toBe(true);
    const call = { id: 'c', name: 'f', arguments: '{}' };
    expect(finishNotice({ ...filtered, toolCalls: [call] })?.outputShown).toBe(true);
  });

  it('says nothing for a reason it does not know: compatible servers have their own words for a stop', () => {
    const turn: Turn = { ...emptyTurn, status: 'complete', finishReason: 'other', rawFinishReason: 'eos' };
    expect(finishNotice(turn)).toBeNull();
  });
});
