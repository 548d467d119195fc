/**
 * Reasoning through the session: the level and budgets in Settings become each protocol's parameters,
 * requests the API would refuse are not sent (Retry builds them again), each conversation remembers its
 * choices, and answers say when reasoning state stayed behind or thinking was paused.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  assessStall,
  defaultStallThresholds,
  emptyTurn,
  type Protocol,
  type ReasoningState,
  type SamplingParameters,
  type Turn,
} from '../core/index.ts';
import { fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import { emptyRecording } from '../state/domain/recordings.ts';
import type { AssistantMessage, Attempt, ChatMessage } from '../state/domain/types.ts';
import { choicesFor } from '../state/stores/conversationStore.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';
import { runAttempt } from './runAttempt.ts';

let app: TestApp;
let bodies: Record<string, unknown>[];

/** Each protocol's shortest complete answer: "ok". */
const streams: Record<string, string> = {
  '/chat/completions':
    'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
  '/responses':
    'data: {"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"ok"}\n\n' +
    'data: {"type":"response.completed","response":{"id":"r","status":"completed","output":[]}}\n\n',
  '/messages':
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}\n\n' +
    'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\ndata: {"type":"message_stop"}\n\n',
};

/** A gateway that answers every request with "ok" in its protocol, keeping the bodies it was sent. */
function answering(): typeof fetch {
  return vi.fn<typeof fetch>(async (url, init) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const path = Object.keys(streams).find((p) => String(url).endsWith(p)) ?? '';
    return new Response(streams[path], { headers: { 'content-type': 'text/event-stream' } });
  });
}

beforeEach(() => {
  app = createTestApp();
  bodies = [];
  app.setFetch(answering());
});

const settings = () => app.stores.settings.getState();
const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;
const answers = () => active().messages.filter((m): m is AssistantMessage => m.role === 'assistant');

describe('the reasoning level in requests', () => {
  it.each([
    ['chat', { reasoning_effort: 'high' }],
    [
      'responses',
      { reasoning: { effort: 'high', summary: 'auto' }, include: ['reasoning.encrypted_content'] },
    ],
    ['messages', { thinking: { type: 'enabled', budget_tokens: 20000 }, max_tokens: 24096 }],
  ] as const)('%s: sends the level, and for Messages the budget set for it', async (protocol, expected) => {
    settings().update({ reasoning: 'high', thinkingBudgets: { low: 1024, medium: 4096, high: 20000 } });
    await app.session.send('Think hard', protocol);
    expect(bodies[0]).toMatchObject(expected);
  });

  it('sends no reasoning parameter when Off', async () => {
    for (const protocol of ['chat', 'responses', 'messages'] as const) await app.session.send('Hi', protocol);
    for (const body of bodies)
      for (const key of ['reasoning_effort', 'reasoning', 'include', 'thinking'])
        expect(body).not.toHaveProperty(key);
  });
});

describe('a request the API would refuse', () => {
  it('is not sent: the answer says what to change, and Retry sends it once the parameters are fixed', async () => {
    settings().update({ reasoning: 'high', maxOutputTokens: 4000 });
    await app.session.send('Think hard', 'messages');
    expect(bodies).toHaveLength(0);
    const [answer] = answers();
    const attempt = answer!.attempts[0]!;
    expect(attempt.turn.status).toBe('error');
    expect(attempt.turn.error).toEqual({
      code: 'not_sent',
      message: 'limit_not_above_budget',
      values: { limit: 4000, effort: 'high', budget: 16384 },
    });

    // The conversation's own parameters, no longer the defaults in Settings, are what a retry sends.
    settings().update({ maxOutputTokens: null });
    const setParameters = (p: SamplingParameters) =>
      app.stores.conversations.getState().setParameters(active().id, p);
    setParameters({ temperature: 0.5 });
    await app.session.retry(active().id, answer!.id);
    expect(bodies).toHaveLength(0);
    expect(answers()[0]!.attempts.at(-1)!.turn.error).toMatchObject({
      message: 'temperature_while_thinking',
      values: { temperature: 0.5 },
    });

    setParameters({});
    await app.session.retry(active().id, answer!.id);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 16384 },
      max_tokens: 20480,
    });
    // Into the same answer, built from the history before it: one user message, no duplicate.
    expect(bodies[0]?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Think hard' }] }]);
    expect(answers()).toHaveLength(1);
    expect(answers()[0]!.attempts.map((a) => a.turn.status)).toEqual(['error', 'error', 'complete']);
  });

  it('goes out on the OpenAI protocols, which take these settings', async () => {
    settings().update({ reasoning: 'high', maxOutputTokens: 4000, temperature: 0.5 });
    await app.session.send('Think', 'chat');
    await app.session.send('Think', 'responses');
    expect(bodies).toHaveLength(2);
  });
});

describe('choices per conversation', () => {
  it('remembers the protocol, model and level each conversation was sent with, and keeps them its own', async () => {
    settings().update({ model: 'sim-reasoning', reasoning: 'high' });
    await app.session.send('First', 'messages');
    const first = active().id;
    expect(active().choices).toEqual({ protocol: 'messages', model: 'sim-reasoning', reasoning: 'high' });

    conversations().newConversation();
    // A new chat starts from the settings' defaults.
    expect(choicesFor(active().choices, settings().settings)).toMatchObject({
      model: 'sim-reasoning',
      reasoning: 'high',
    });
    settings().update({ protocol: 'chat', model: 'sim-echo', reasoning: 'off' });
    await app.session.send('Second', 'chat');
    const second = active().id;
    expect(active().choices).toEqual({ protocol: 'chat', model: 'sim-echo', reasoning: 'off' });

    // Going back changes nothing in the settings: each conversation's choices are its own.
    conversations().selectConversation(first);
    expect(settings().settings).toMatchObject({ protocol: 'chat', model: 'sim-echo', reasoning: 'off' });
    expect(choicesFor(active().choices, settings().settings)).toEqual({
      protocol: 'messages',
      model: 'sim-reasoning',
      reasoning: 'high',
    });
    // Its next request goes out with them, whatever the defaults became.
    await app.session.send('More', 'messages');
    expect(active().choices).toEqual({ protocol: 'messages', model: 'sim-reasoning', reasoning: 'high' });
    expect(bodies.at(-1)).toMatchObject({ model: 'sim-reasoning', thinking: { type: 'enabled' } });
    expect(conversations().conversations[second]!.choices?.model).toBe('sim-echo');
  });
});

describe('notes on an answer', () => {
  const thinking: ReasoningState = {
    protocol: 'messages',
    key: '0',
    block: { type: 'thinking', thinking: 'Call it.', signature: 'c2ln' },
  };

  /** A conversation whose one answer (in `protocol`, with `state`) called a tool, now answered. */
  function toolLoop(protocol: Protocol, state: ReasoningState[]): string {
    const id = conversations().newConversation();
    const turn = {
      ...emptyTurn,
      status: 'complete',
      text: 'Checking.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      reasoningState: state,
    } as Turn;
    const attempt: Attempt = {
      id: 'att_1',
      startedAt: 0,
      request: { url: '', path: '', headers: {}, body: {} },
      sentHeaders: {},
      turn,
      httpError: null,
      trace: emptyRecording(),
    };
    const messages: ChatMessage[] = [
      { id: 'u1', role: 'user', text: 'Weather?', createdAt: 0 },
      {
        id: 'a1',
        role: 'assistant',
        protocol,
        model: 'm',
        source: { kind: 'gateway' },
        createdAt: 0,
        attempts: [attempt],
      },
      { id: 't1', role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: 'sunny', createdAt: 0 },
    ];
    app.stores.conversations.setState((s) => ({
      conversations: { ...s.conversations, [id]: { ...s.conversations[id]!, messages } },
    }));
    return id;
  }

  it('names the protocol whose reasoning state stayed behind after a switch', async () => {
    const id = toolLoop('messages', [thinking]);
    await app.session.continueConversation(id, 'responses');
    expect(answers().at(-1)?.reasoningLeftOut).toEqual(['messages']);
    expect(JSON.stringify(bodies[0])).not.toContain('c2ln');
  });

  it('says nothing when the state can go back, and sends it', async () => {
    const id = toolLoop('messages', [thinking]);
    settings().update({ reasoning: 'medium' });
    await app.session.continueConversation(id, 'messages');
    expect(answers().at(-1)).not.toHaveProperty('reasoningLeftOut');
    expect(answers().at(-1)).not.toHaveProperty('thinkingPaused');
    const [, assistant] = (bodies[0]?.messages ?? []) as { content: unknown[] }[];
    expect(assistant?.content[0]).toEqual(thinking.block);
    expect(bodies[0]?.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
  });

  it('pauses thinking for a tool loop that began without it, and says so', async () => {
    const id = toolLoop('chat', []);
    settings().update({ reasoning: 'high' });
    await app.session.continueConversation(id, 'messages');
    expect(bodies[0]).not.toHaveProperty('thinking');
    expect(answers().at(-1)?.thinkingPaused).toBe(true);
  });
});

describe('reasoning state through a tool loop, from recorded streams', () => {
  /** Serves `fixture` for the first request, then "ok" for every later one. */
  function servingFirst(fixture: string) {
    const base = answering();
    let first = true;
    app.setFetch(async (url, init) => {
      if (!first) return base(url, init);
      first = false;
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(streamFromBytes(fixtureBytes(fixture)), {
        headers: { 'content-type': 'text/event-stream' },
      });
    });
  }

  /** Answers every tool call of the last answer, which continues the conversation. */
  async function answerTools(protocol: Protocol) {
    const turn = answers().at(-1)!.attempts.at(-1)!.turn;
    for (const call of turn.toolCalls)
      await app.session.submitToolResult(active().id, call.id, call.name, '{"ok":true}', protocol);
    return turn;
  }

  it('Messages: the follow-up starts the assistant turn with the thinking block, signature and all; Retry re-sends it unchanged', async () => {
    servingFirst('synthetic/anthropic/thinking-text-parallel-tool-use.sse');
    settings().update({ reasoning: 'low' });
    await app.session.send('Weather in two cities?', 'messages');
    const turn = await answerTools('messages');
    const [state] = turn.reasoningState ?? [];
    expect(state?.protocol === 'messages' && state.block.type).toBe('thinking');
    const followUp = bodies.at(-1)!;
    const [, assistant] = followUp.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(assistant?.content[0]).toEqual(state?.protocol === 'messages' ? state.block : null);
    expect(assistant?.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(followUp.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });

    await app.session.retry(active().id, answers().at(-1)!.id);
    expect(JSON.stringify(bodies.at(-1))).toBe(JSON.stringify(followUp));
  });

  it('Responses: the follow-up sends the reasoning item with its encrypted content before the call', async () => {
    servingFirst('responses/openai-reasoning-message-function-call.sse');
    settings().update({ reasoning: 'medium' });
    await app.session.send('Capital of PotatoLand?', 'responses');
    const turn = await answerTools('responses');
    const [state] = turn.reasoningState ?? [];
    const followUp = bodies.at(-1)!;
    const input = followUp.input as Record<string, unknown>[];
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'reasoning',
      'assistant',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toEqual(state?.protocol === 'responses' ? state.item : null);
    expect(input[1]?.encrypted_content).toMatch(/^gAAAAAB/);
  });

  it('switching protocol mid-loop: the state stays behind, the reasoning text stays on screen', async () => {
    servingFirst('synthetic/anthropic/thinking-text-parallel-tool-use.sse');
    settings().update({ reasoning: 'high' });
    await app.session.send('Weather in two cities?', 'messages');
    const turn = await answerTools('chat');
    expect(turn.reasoning).not.toBe('');
    expect(JSON.stringify(bodies.at(-1))).not.toMatch(/signature|"thinking"/);
    expect(answers().at(-1)?.reasoningLeftOut).toEqual(['messages']);
    // The earlier answer still holds its reasoning and its state.
    expect(answers()[0]!.attempts[0]!.turn.reasoningState).toHaveLength(1);
  });
});

describe('the stall watch while the model thinks', () => {
  it('counts reasoning deltas as output: no stall while they flow', async () => {
    const outputAt: (number | null)[] = [];
    let clock = 0;
    const events = [
      { type: 'message_start', message: { id: 'msg_1', model: 'claude' } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ', let me see' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2ln' } },
    ];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const e of events)
          controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(e)}\n\n`));
        controller.close();
      },
    });
    await runAttempt({
      protocol: 'messages',
      open: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      crossOrigin: false,
      signal: new AbortController().signal,
      // Every reading of the clock is 20 s later: only output resets the model's silence.
      now: () => (clock += 20_000),
      onProgress: ({ watch }) => outputAt.push(watch.lastOutputAt),
    });
    const distinct = [...new Set(outputAt.filter((t) => t !== null))];
    // The block start (empty), and each thinking delta, moved the last output forward; the signature did not.
    expect(distinct.length).toBeGreaterThanOrEqual(2);
    const last = outputAt.at(-1)!;
    expect(
      assessStall(
        { startedAt: 0, lastOutputAt: last, lastByteAt: last, lastKeepaliveAt: null },
        last + 1000,
        defaultStallThresholds,
      ).kind,
    ).toBe('flowing');
  });
});
