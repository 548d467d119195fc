import type { HttpRequestSpec, TurnRequest } from '../conversation.ts';
import { keepShape } from '../keepShape.ts';
import { type ParameterIssue, type ParameterSupport, parameterIssues } from '../parameters.ts';
import type { RequestProblem } from '../reasoning.ts';
import type { Protocol, Turn } from '../turn.ts';
import {
  credentialHeaders,
  httpRequest,
  type ProtocolAdapter,
  redactedCredentialHeaders,
} from './adapter.ts';
import { chatAdapter } from './chat/adapter.ts';
import { messagesAdapter } from './messages/adapter.ts';
import type { MessagesReasoningState } from './messages/reasoning.ts';
import { responsesAdapter } from './responses/adapter.ts';
import type { ResponsesReasoningState } from './responses/reasoning.ts';

export type { ProtocolAdapter, Stepper } from './adapter.ts';

/**
 * The protocols, each one folder: this record (in the order the UI lists them) is their one registration.
 * The event type differs per protocol; callers only ever pass a value from `decode` back to `reduce`.
 */
export const adapters: Readonly<Record<Protocol, ProtocolAdapter<unknown>>> = {
  chat: chatAdapter as ProtocolAdapter<unknown>,
  responses: responsesAdapter as ProtocolAdapter<unknown>,
  messages: messagesAdapter as ProtocolAdapter<unknown>,
};

/**
 * One piece of an answer's reasoning state, bound to the protocol that produced it: signatures and
 * encrypted content are only valid with that provider. `key` is where it sat in the answer, so a later
 * event about the same piece replaces it.
 */
export type ReasoningState = MessagesReasoningState | ResponsesReasoningState;

// One stepper of each kind kept for good (see README, Performance).
for (const adapter of Object.values(adapters)) keepShape(adapter.newStepper());

export const protocols = Object.keys(adapters) as Protocol[];

/** Which protocol a recorded stream speaks (null: none it recognizes). */
export function recognizeProtocol(sse: string): Protocol | null {
  return protocols.find((protocol) => adapters[protocol].recognizes(sse)) ?? null;
}

export function buildRequest(protocol: Protocol, request: TurnRequest): HttpRequestSpec {
  return httpRequest(adapters[protocol], request);
}

/** Credentials in each protocol's own headers. */
export function authHeaders(protocol: Protocol, apiKey: string, direct: boolean): Record<string, string> {
  return credentialHeaders(adapters[protocol], apiKey, direct);
}

/** The same headers as the inspector and exports show them. */
export function redactedAuthHeaders(
  protocol: Protocol,
  apiKey: string,
  direct: boolean,
): Record<string, string> {
  return redactedCredentialHeaders(adapters[protocol], apiKey, direct);
}

/** The sampling parameters `protocol` takes, and their ranges. */
export function parameterSupport(protocol: Protocol): ParameterSupport {
  return adapters[protocol].parameters;
}

function parameterProblem(api: string, issue: ParameterIssue): RequestProblem {
  if (issue.kind === 'stops')
    return { code: 'too_many_stop_sequences', values: { api, max: issue.max, count: issue.count } };
  const { name, value, range } = issue;
  return {
    code: 'parameter_out_of_range',
    values: { api, name, value, min: range.min, max: range.max ?? 'none', whole: range.whole ? 'yes' : 'no' },
  };
}

/**
 * What stops a request from being sent, or null when nothing does: a parameter out of the protocol's range,
 * or the reasoning constraints the APIs answer with a 400, caught before anything is sent.
 */
export function requestProblem(protocol: Protocol, request: TurnRequest): RequestProblem | null {
  const adapter = adapters[protocol];
  const [issue] = parameterIssues(adapter.parameters, request);
  if (issue) return parameterProblem(adapter.label, issue);
  return adapter.requestProblem?.(request) ?? null;
}

/** Whether `value` is reasoning state as this version writes it (stored answers are read defensively). */
function isReasoningState(value: unknown): value is ReasoningState {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  if (typeof entry.key !== 'string' || !protocols.includes(entry.protocol as Protocol)) return false;
  return adapters[entry.protocol as Protocol].isReasoningState?.(entry) ?? false;
}

/** An answer's reasoning state, in the order it streamed; anything malformed (an old or damaged record) is left out. */
export function reasoningStateOf(turn: Turn): ReasoningState[] {
  const state = (turn as { reasoningState?: unknown }).reasoningState;
  return Array.isArray(state) ? state.filter(isReasoningState) : [];
}
