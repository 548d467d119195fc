/**
 * A protocol is its adapter: one made here, registered nowhere else, gets its request built, its credentials
 * and its model list from the same functions the three real ones go through.
 *
 * It cannot be put in `adapters` itself: that record is the app's one registration, a constant keyed by the
 * `Protocol` union (stored conversations, settings and the UI name protocols by it), and no module holds
 * state a test could add to. `buildRequest`, `authHeaders` and `requestProblem` are lookups in it followed
 * by exactly these functions (checked last).
 */
import { describe, expect, it } from 'vitest';
import type { TurnRequest } from '../conversation.ts';
import type { Turn } from '../turn.ts';
import {
  credentialHeaders,
  httpRequest,
  modelListRequest,
  type ProtocolAdapter,
  redactedCredentialHeaders,
} from './adapter.ts';
import {
  adapters,
  authHeaders,
  buildRequest,
  protocols,
  redactedAuthHeaders,
  requestProblem,
} from './index.ts';

type EchoEvent = { text: string };

const reduce = (turn: Turn, event: EchoEvent): Turn => ({ ...turn, text: turn.text + event.text });

/** A made-up protocol: its own path, header, key header, model list shape and one constraint. */
const echo: ProtocolAdapter<EchoEvent> = {
  label: 'Echo',
  path: '/echo',
  headers: { 'echo-version': '1' },
  credentials: {
    family: 'echo',
    key: (apiKey) => ({ 'x-echo-key': apiKey }),
    direct: { 'x-echo-cors': '1' },
  },
  models: {
    path: '/echo/models',
    read: (body) => (body as { names: string[] }).names.map((id) => ({ id })),
  },
  parameters: { numbers: { temperature: { field: 'heat', min: 0, max: 1 } } },
  sdk: {
    python: 'echo',
    npm: 'echo-sdk',
    client: 'Echo',
    create: 'say.create',
    params: 'Echo.SayParams',
    addsV1: false,
  },
  buildBody: (request) => ({
    body: { say: request.messages.map((m) => (m.role === 'tool' ? m.content : m.text)) },
    reasoningPaused: request.reasoning !== undefined,
  }),
  decode: (data) => ({ text: data }),
  reduce,
  recognizes: (sse) => sse.includes('"echo"'),
  newStepper: () => ({ step: (turn, data) => reduce(turn, { text: data }) }),
  requestProblem: (request) =>
    request.temperature === undefined
      ? null
      : { code: 'temperature_while_thinking', values: { temperature: 0 } },
};

const request: TurnRequest = {
  model: 'm',
  messages: [{ role: 'user', text: 'Hi' }],
  reasoning: { effort: 'low', budgetTokens: 2048 },
};

describe('a fourth adapter', () => {
  it('gets its request built', () => {
    expect(httpRequest(echo, request)).toEqual({
      method: 'POST',
      path: '/echo',
      headers: { 'content-type': 'application/json', 'echo-version': '1' },
      body: { say: ['Hi'] },
      reasoningPaused: true,
    });
  });

  it('gets its credentials (its direct header only across origins), none without a key, and them redacted', () => {
    expect(credentialHeaders(echo, 'k', true)).toEqual({ 'x-echo-key': 'k', 'x-echo-cors': '1' });
    expect(credentialHeaders(echo, 'k', false)).toEqual({ 'x-echo-key': 'k' });
    expect(credentialHeaders(echo, '', true)).toEqual({});
    expect(redactedCredentialHeaders(echo, 'k', true)).toEqual({
      'x-echo-key': '[redacted]',
      'x-echo-cors': '1',
    });
  });

  it('gets its model list asked for and read', () => {
    expect(modelListRequest(echo, 'https://gw.example/v1', 'k', false)).toEqual({
      url: 'https://gw.example/v1/echo/models',
      headers: { 'x-echo-key': 'k' },
    });
    expect(echo.models.read({ names: ['a', 'b'] })).toEqual([{ id: 'a' }, { id: 'b' }]);
  });
});

describe('the registered protocols go through the same functions', () => {
  it.each(protocols)('%s', (protocol) => {
    const adapter = adapters[protocol];
    expect(buildRequest(protocol, request)).toEqual(httpRequest(adapter, request));
    expect(authHeaders(protocol, 'sk-secret', true)).toEqual(credentialHeaders(adapter, 'sk-secret', true));
    const shown = redactedAuthHeaders(protocol, 'sk-secret', true);
    expect(Object.keys(shown)).toEqual(Object.keys(authHeaders(protocol, 'sk-secret', true)));
    expect(JSON.stringify(shown)).not.toContain('sk-secret');
    expect(requestProblem(protocol, { ...request, temperature: 0.5 })).toEqual(
      adapter.requestProblem?.({ ...request, temperature: 0.5 }) ?? null,
    );
  });
});

describe('credential families', () => {
  it('the OpenAI protocols share one (one model list), Anthropic has its own', () => {
    expect(adapters.chat.credentials.family).toBe(adapters.responses.credentials.family);
    expect(adapters.messages.credentials.family).not.toBe(adapters.chat.credentials.family);
  });

  it('every registered protocol reads the gateway list', () => {
    const body = { data: [{ id: 'sim-echo', description: 'Echo', owned_by: 'x' }, { id: 'sim-long' }] };
    for (const protocol of protocols)
      expect(adapters[protocol].models.read(body)).toEqual([
        { id: 'sim-echo', description: 'Echo' },
        { id: 'sim-long', description: undefined },
      ]);
  });
});
