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
    ['chat/openai-finish-length.sse', 'The answer hit the output token limit (length)'],
    [
      'synthetic/responses/incomplete-max-output-tokens.sse',
      'The answer hit the output token limit (max_output_tokens)',
    ],
    [
      'synthetic/chat/finish-content-filter.sse',
      "The provider's content filter stopped the answer (content_filter)",
    ],
    ['anthropic/pause-turn-web-search.sse', 'The model paused its turn (pause_turn)'],
    ['synthetic/anthropic/refusal-after-partial-text.sse', 'The model declined to go on (refusal)'],
  ])('%s → %s', async (name, title) => {
    expect(finishNotice(await turnOf(name))?.title).toBe(title);
  });

  it('says when the token limit cut a tool call, which then cannot be run', async () => {
    const notice = finishNotice(await turnOf('anthropic/tool-input-cut-by-max-tokens.sse'));
    expect(notice?.title).toBe('The answer hit the output token limit (max_tokens)');
    expect(notice?.advice).toMatch(/^Its last tool call was cut off too/);
    const plain = finishNotice(await turnOf('chat/openai-finish-length.sse'));
    expect(plain?.advice).not.toMatch(/tool call/);
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

  it('gives any other ending its raw reason', () => {
    const turn: Turn = {
      ...emptyTurn,
      status: 'complete',
      finishReason: 'other',
      rawFinishReason: 'a_reason_added_later',
    };
    expect(finishNotice(turn)?.title).toBe('The answer ended early (a_reason_added_later)');
  });
});
