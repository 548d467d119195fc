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
    ['anthropic/pause-turn-web-search.sse', 'The model paused a long-running step (pause_turn)'],
    ['synthetic/anthropic/refusal-after-partial-text.sse', 'The model declined to answer (refusal)'],
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

  it('speaks of the context window, not the token limit, when the context is full', () => {
    const turn: Turn = {
      ...emptyTurn,
      status: 'complete',
      finishReason: 'length',
      rawFinishReason: 'model_context_window_exceeded',
    };
    expect(finishNotice(turn)).toEqual({
      title: "The conversation filled the model's context window",
      advice: 'Start a new conversation, or one with less history, to go on.',
    });
  });

  it('says "what came before is shown" only when something came before', () => {
    const filtered: Turn = { ...emptyTurn, status: 'complete', finishReason: 'content_filter' };
    expect(finishNotice(filtered)?.advice).toBe('Rephrasing the request may help.');
    expect(finishNotice({ ...filtered, text: 'Partial' })?.advice).toBe(
      'What came before is shown. Rephrasing the request may help.',
    );
    expect(finishNotice({ ...filtered, finishReason: 'refusal', rawFinishReason: 'refusal' })).toEqual({
      title: 'The model declined to answer (refusal)',
      advice: '',
    });
  });

  it('says nothing for a reason it does not know: compatible servers have their own words for a stop', () => {
    const turn: Turn = { ...emptyTurn, status: 'complete', finishReason: 'other', rawFinishReason: 'eos' };
    expect(finishNotice(turn)).toBeNull();
  });
});
