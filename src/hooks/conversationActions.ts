import {
  adviseFailure,
  authHeaders,
  automaticRetryDelayMs,
  buildRequest,
  emptyTurn,
  maxAutomaticRetries,
  type Protocol,
  startWatch,
} from '../core/index.ts';
import { toConversationMessages, useConversationStore } from '../state/conversationStore.ts';
import { newId } from '../state/ids.ts';
import { useLiveStore } from '../state/liveStore.ts';
import { useSettingsStore } from '../state/settingsStore.ts';
import { isReplayRequest } from '../state/traceExport.ts';
import type { Attempt, SentRequest } from '../state/types.ts';
import { createFrameBatcher } from './frameBatcher.ts';
import { gatewayBase } from './gateway.ts';
import { type AttemptProgress, emptyTrace, runAttempt } from './runAttempt.ts';

/**
 * What a person can do to a conversation, as plain functions over the stores: the hooks bind them,
 * tests call them directly. One streaming mechanism serves all three protocols; the protocol only
 * picks the request builder and the event reducer inside the core.
 */

const controllers = new Map<string, AbortController>();

export interface ActionDeps {
  fetchImpl?: typeof fetch;
  random?: () => number;
}

/** The credential headers as the inspector and exports show them: named, never with their value. */
function redacted(credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(credentials).map(([name, value]) => [
      name,
      name.startsWith('anthropic-') ? value : '[redacted]',
    ]),
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A request sent to another origin than the page's own (absolute URL): CORS rules and browser headers apply. */
function isCrossOrigin(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

/** Streams attempts into one assistant message until one ends or automatic retries run out. */
async function stream(
  conversationId: string,
  messageId: string,
  protocol: Protocol,
  request: SentRequest,
  deps: ActionDeps,
): Promise<void> {
  controllers.get(messageId)?.abort('retry');
  const controller = new AbortController();
  controllers.set(messageId, controller);
  // A stream superseded by a retry must not write over its successor's live state.
  const current = () => controllers.get(messageId) === controller;
  const conversations = useConversationStore.getState();
  const live = useLiveStore.getState();
  const direct = isCrossOrigin(request.url);
  let retries = 0;
  try {
    for (;;) {
      const attemptId = newId('att');
      const settings = useSettingsStore.getState().settings;
      const credentials = authHeaders(protocol, settings.apiKey, direct);
      const attempt: Attempt = {
        id: attemptId,
        startedAt: Date.now(),
        request,
        sentHeaders: { ...request.headers, ...redacted(credentials) },
        turn: emptyTurn,
        httpError: null,
        trace: emptyTrace(),
      };
      conversations.addAttempt(conversationId, messageId, attempt);
      live.put(messageId, { conversationId, attemptId, watch: startWatch(performance.now()), retryAt: null });

      const batcher = createFrameBatcher<AttemptProgress>(({ turn, trace, watch }) => {
        // The recorder appends to its item list in place: the store gets a copy, so what it holds never changes.
        const snapshot = { ...trace, items: trace.items.slice() };
        conversations.updateAttempt(conversationId, messageId, attemptId, (a) => ({
          ...a,
          turn,
          trace: snapshot,
        }));
        if (current()) live.put(messageId, { conversationId, attemptId, watch, retryAt: null });
      });
      const outcome = await runAttempt({
        protocol,
        request,
        authHeaders: credentials,
        direct,
        signal: controller.signal,
        onProgress: batcher.push,
        fetchImpl: deps.fetchImpl,
      });
      batcher.cancel();
      conversations.updateAttempt(conversationId, messageId, attemptId, (a) => ({
        ...a,
        turn: outcome.turn,
        trace: outcome.trace,
        httpError: outcome.httpError,
      }));

      // Automatic only while nothing was produced: after output, a retry re-bills and the person decides.
      const nothingProduced = outcome.turn.parts.length === 0;
      const retryable = adviseFailure(outcome.turn, outcome.httpError)?.retryable ?? false;
      if (controller.signal.aborted || !settings.autoRetry || !nothingProduced || !retryable) return;
      const delay = automaticRetryDelayMs(retries, outcome.httpError?.retryAfterSeconds ?? null, deps.random);
      if (delay === null) return;
      retries++;
      live.put(messageId, {
        conversationId,
        attemptId,
        watch: startWatch(performance.now()),
        retryAt: Date.now() + delay,
        retryAttempt: retries + 1,
        retryOf: maxAutomaticRetries + 1,
      });
      await sleep(delay, controller.signal);
      if (controller.signal.aborted) return;
    }
  } finally {
    if (current()) {
      controllers.delete(messageId);
      live.remove(messageId);
    }
  }
}

// A deleted conversation's answers stop streaming (and retrying): nobody can see or use them any more.
useConversationStore.subscribe((state, previous) => {
  if (state.conversations === previous.conversations) return;
  for (const [messageId, stream] of Object.entries(useLiveStore.getState().streams)) {
    if (!state.conversations[stream.conversationId]) controllers.get(messageId)?.abort('deleted');
  }
});

/** Builds the request for the conversation as it stands and streams the answer into a new message. */
export function continueConversation(
  conversationId: string,
  protocol: Protocol,
  deps: ActionDeps = {},
): Promise<void> {
  const conversation = useConversationStore.getState().conversations[conversationId];
  if (!conversation) return Promise.resolve();
  const settings = useSettingsStore.getState().settings;
  const spec = buildRequest(protocol, {
    model: settings.model,
    system: settings.systemPrompt || undefined,
    messages: toConversationMessages(conversation.messages),
    tools: settings.offerTools ? settings.tools : undefined,
    maxOutputTokens: settings.maxOutputTokens ?? undefined,
    temperature: settings.temperature ?? undefined,
  });
  const request: SentRequest = {
    url: gatewayBase(settings) + spec.path,
    path: spec.path,
    headers: spec.headers,
    body: spec.body,
  };
  const messageId = useConversationStore
    .getState()
    .addAssistantMessage(conversationId, protocol, settings.model);
  return stream(conversationId, messageId, protocol, request, deps);
}

/** Streams a request of the caller's making (a replayed recording) into a new message of its own. */
export function streamInto(
  conversationId: string,
  protocol: Protocol,
  model: string,
  request: SentRequest,
  deps: ActionDeps = {},
): Promise<void> {
  const messageId = useConversationStore.getState().addAssistantMessage(conversationId, protocol, model);
  return stream(conversationId, messageId, protocol, request, deps);
}

export function sendMessage(text: string, protocol: Protocol, deps: ActionDeps = {}): Promise<void> {
  const store = useConversationStore.getState();
  const conversationId = store.activeId ?? store.newConversation();
  store.addUserMessage(conversationId, text);
  return continueConversation(conversationId, protocol, deps);
}

/**
 * Sends the last attempt's exact request again, into the same message as a new attempt: Retry after a
 * failure (partial output cannot be resumed) and Regenerate after a finished answer.
 */
export function retryMessage(
  conversationId: string,
  messageId: string,
  deps: ActionDeps = {},
): Promise<void> {
  const message = useConversationStore
    .getState()
    .conversations[conversationId]?.messages.find((m) => m.id === messageId);
  const last = message?.role === 'assistant' ? message.attempts[message.attempts.length - 1] : undefined;
  if (message?.role !== 'assistant' || !last || isReplayRequest(last.request)) return Promise.resolve();
  return stream(conversationId, messageId, message.protocol, last.request, deps);
}

export function stopMessage(messageId: string): void {
  controllers.get(messageId)?.abort('stopped');
}

/**
 * Records the person's result for one tool call; once every call of that answer has a result, the
 * conversation continues on its own, in the protocol currently chosen.
 */
export function submitToolResult(
  conversationId: string,
  toolCallId: string,
  name: string,
  content: string,
  protocol: Protocol,
  deps: ActionDeps = {},
): Promise<void> {
  const store = useConversationStore.getState();
  store.addToolResult(conversationId, toolCallId, name, content);
  const messages = useConversationStore.getState().conversations[conversationId]?.messages ?? [];
  const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  const owner = messages.findLast(
    (m) => m.role === 'assistant' && m.attempts.at(-1)?.turn.toolCalls.some((c) => c.id === toolCallId),
  );
  const calls = owner?.role === 'assistant' ? (owner.attempts.at(-1)?.turn.toolCalls ?? []) : [];
  const allAnswered = calls.every((c) => answered.has(c.id));
  return allAnswered ? continueConversation(conversationId, protocol, deps) : Promise.resolve();
}
