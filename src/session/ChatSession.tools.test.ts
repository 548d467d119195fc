/**
 * A conversation offers its own tools; a call whose tool has a result template is answered with it and
 * the conversation goes on by itself, at most `maxAutomaticRounds` answers in a row; without a template
 * the person answers.
 */
import { beforeEach, expect, it, vi } from 'vitest';
import { maxAutomaticRounds } from '../core/index.ts';
import type { AssistantMessage } from '../state/domain/types.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';

let app: TestApp;
let bodies: Record<string, unknown>[];

/** A Chat Completions answer that calls `lookup` with `{"symbol":"ACME"}`. */
const toolCall = (n: number) =>
  `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_${n}","type":"function","function":{"name":"lookup","arguments":"{\\"symbol\\":\\"ACME\\"}"}}]},"finish_reason":null}]}\n\n` +
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n';

beforeEach(() => {
  app = createTestApp();
  bodies = [];
  app.setFetch(
    vi.fn<typeof fetch>(async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(toolCall(bodies.length), { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
});

const conversations = () => app.stores.conversations.getState();
const active = () => conversations().conversations[conversations().activeId!]!;
const parameters = { type: 'object', properties: { symbol: { type: 'string' } } };

it('answers by the template until the limit, then leaves the calls to the person and says so', async () => {
  const id = conversations().newConversation();
  conversations().setToolSetup(id, {
    tools: [{ name: 'lookup', parameters, resultTemplate: '{"price": 12, "of": "{{symbol}}"}' }],
    choice: { kind: 'required' },
  });
  await app.session.send('Price?', 'chat');
  expect(bodies).toHaveLength(maxAutomaticRounds + 1);
  expect(bodies[0]).toMatchObject({ tool_choice: 'required', tools: [{ function: { name: 'lookup' } }] });
  expect(bodies[1]!.messages).toContainEqual({
    role: 'tool',
    tool_call_id: 'call_1',
    content: '{"price": 12, "of": "ACME"}',
  });
  const last = active().messages.at(-1) as AssistantMessage;
  expect(last.role).toBe('assistant');
  expect(last.automaticLimit).toBe(true);
});

it('without a template, the call waits for the person', async () => {
  const id = conversations().newConversation();
  conversations().setToolSetup(id, { tools: [{ name: 'lookup', parameters }] });
  await app.session.send('Price?', 'chat');
  expect(bodies).toHaveLength(1);
  expect(active().messages.at(-1)).toMatchObject({ role: 'assistant' });
});

it('a new chat offers the tools Settings offers, and keeps them', async () => {
  await app.session.send('Weather?', 'chat');
  expect(bodies[0]).toMatchObject({ tools: [{ function: { name: 'get_weather' } }] });
  expect(active().toolSetup?.tools.map((t) => t.name)).toEqual(['get_weather']);
});
