import {
  buildRequest,
  emptyTurn,
  fillTemplate,
  maxAutomaticRounds,
  notSentCode,
  type Protocol,
  type RequestProblem,
  requestProblem,
  type SamplingParameters,
  type TurnRequest,
} from '../core/index.ts';
import { pathTo, shownBranch } from '../state/domain/branches.ts';
import { newId } from '../state/domain/ids.ts';
import { loadParts } from '../state/domain/partLoads.ts';
import { emptyRecording } from '../state/domain/recordings.ts';
import type {
  AnswerSource,
  AssistantMessage,
  AttachmentRef,
  Attempt,
  ChatMessage,
  ConversationChoices,
  SentRequest,
  ToolSetup,
} from '../state/domain/types.ts';
import { type AttachmentBlobs, attachmentUses, memoryAttachments } from '../state/storage/attachmentBlobs.ts';
import { attemptsOf } from '../state/storage/storedConversation.ts';
import { answerIn } from '../state/stores/answers.ts';
import type { AppStores } from '../state/stores/appStores.ts';
import {
  type AnswerNotes,
  choicesFor,
  parametersOf,
  reasoningLeftOut,
  systemPromptOf,
  toConversationMessages,
  toolSetupOf,
} from '../state/stores/conversationStore.ts';
import { type AnswerLocks, answerLockName, pageLocks } from './answerLocks.ts';
import { AnswerStream } from './answerStream.ts';
import { bodyWithAttachments } from './attachmentData.ts';
import { type BlockedConnections, watchBlockedConnections } from './blockedConnections.ts';
import { createFrameScheduler, type FrameScheduler, type PageVisibility } from './frameBatcher.ts';
import { gatewayBase, resendable } from './gateway.ts';
import { relayedAnswers } from './relayedAnswers.ts';
import type { ReplaySpeed } from './replay.ts';
import { sleep } from './sleep.ts';
import { gatewaySource } from './sources/gatewaySource.ts';
import { type NetworkEvents, type RelayAccess, windowNetwork } from './sources/relayedBody.ts';
import { resumeSource } from './sources/resumeSource.ts';
import type { StreamSource } from './sources/streamSource.ts';

export interface ChatSessionOptions {
  stores: AppStores;
  /** How requests go out; tests pass a fake. */
  fetch?: typeof fetch;
  /** Jitter for automatic retries; tests pass a fixed one. */
  random?: () => number;
  /** Where attached files' bytes are kept (the app's database); in memory when not given. */
  attachments?: AttachmentBlobs;
  /**
   * The page: its visibility decides between animation frames and timers, and it reports the
   * connections its security policy refused.
   */
  page?: PageVisibility;
  /** Which tab of this browser reads an answer the server runs (the browser's Web Locks); this page's own when not given. */
  locks?: AnswerLocks;
  /** The browser's online and offline events (the window's when not given). */
  network?: NetworkEvents;
}

/** A request built from the history and the settings of the moment, and whether it may go out. */
interface BuiltRequest {
  request: SentRequest;
  /** Why the API would refuse it (the reasoning constraints): then it is not sent, and this names what to change. */
  problem: RequestProblem | null;
  /** Messages: thinking was asked for, but this request continues tool calls made without it. */
  thinkingPaused: boolean;
}

/**
 * What a person can do to conversations, and the streams that do it: one instance per running app (made
 * at startup, handed down through React context), owning its abort controllers, its frame batching and
 * the fetch it uses. One streaming mechanism serves all three protocols; the protocol only picks the
 * request builder and the event reducer inside the core.
 */
export class ChatSession {
  private readonly stores: AppStores;
  /** The bytes of attached files, read again for each request that carries them (and to show them). */
  readonly attachments: AttachmentBlobs;
  private readonly fetch: typeof fetch;
  private readonly random: (() => number) | undefined;
  private readonly frames: FrameScheduler;
  private readonly refused: BlockedConnections;
  /** Each answer in flight, by assistant message id. */
  private readonly streams = new Map<string, AnswerStream>();
  private readonly stopWatchingDeletions: () => void;
  private readonly stopWatchingRelayed: () => void;
  private readonly locks: AnswerLocks;
  private readonly relay: RelayAccess;
  /** Attempts the server runs that this page waits to pick up (another tab of this browser may read them). */
  private readonly pickingUp = new Set<string>();

  constructor(options: ChatSessionOptions) {
    this.stores = options.stores;
    this.attachments = options.attachments ?? memoryAttachments();
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.random = options.random;
    this.frames = createFrameScheduler(options.page);
    this.refused = watchBlockedConnections(options.page);
    this.locks = options.locks ?? pageLocks();
    const network = options.network ?? (typeof window === 'undefined' ? undefined : windowNetwork(window));
    this.relay = { fetch: this.fetch, wait: sleep, network };
    // A deleted conversation's answers stop streaming (and retrying): nobody can see or use them any more.
    this.stopWatchingDeletions = this.stores.conversations.subscribe((state, previous) => {
      if (state.conversations === previous.conversations) return;
      for (const stream of this.streams.values())
        if (!state.conversations[stream.conversationId]) stream.stop('deleted');
    });
    // An answer the server runs goes on while no page reads it: one stored as streaming (a reload, another
    // device's) is picked up where it is, whenever it arrives in the store.
    this.stopWatchingRelayed = this.stores.conversations.subscribe((state, previous) => {
      if (state.arrived !== previous.arrived) for (const id of state.arrived) this.pickUpRelayed(id);
    });
    for (const id of Object.keys(this.stores.conversations.getState().conversations)) this.pickUpRelayed(id);
  }

  /** Stops every stream and lets go of the page. */
  dispose(): void {
    this.stopWatchingDeletions();
    this.stopWatchingRelayed();
    for (const stream of this.streams.values()) stream.stop('disposed');
    this.frames.dispose();
    this.refused.dispose();
  }

  /** Whether the page's security policy refused a connection to `url`'s origin (after a failed request). */
  refusedByPolicy(url: string): Promise<boolean> {
    return this.refused.blocked(url);
  }

  /** A request to the gateway other than an answer's (the model list), through the fetch this session owns. */
  fetchGateway(url: string, init: RequestInit): Promise<Response> {
    return this.fetch(url, init);
  }

  /** `attachments`: files whose bytes are already in `this.attachments` (stored when they were attached). */
  send(text: string, protocol: Protocol, attachments: readonly AttachmentRef[] = []): Promise<void> {
    const store = this.stores.conversations.getState();
    const conversationId = store.activeId ?? store.newConversation();
    store.addUserMessage(conversationId, text, [...attachments]);
    return this.continueConversation(conversationId, protocol);
  }

  /**
   * An edit of the person's message `messageId`: the new text and `attachments` (stored already; the
   * original's when not given) as a new version beside it, and its answer streamed. The earlier version and
   * all that followed it stay. Nothing happens while this conversation's answer streams.
   */
  edit(
    conversationId: string,
    messageId: string,
    text: string,
    protocol: Protocol,
    attachments?: readonly AttachmentRef[],
  ): Promise<void> {
    if (this.answering(conversationId)) return Promise.resolve();
    const added = this.stores.conversations
      .getState()
      .addUserVersion(conversationId, messageId, text, attachments);
    return added ? this.continueConversation(conversationId, protocol) : Promise.resolve();
  }

  /**
   * Builds the request for the conversation as shown and streams the answer into a new message. The
   * conversation remembers the protocol, model and reasoning level it was sent with.
   */
  async continueConversation(conversationId: string, protocol: Protocol): Promise<void> {
    const conversations = this.stores.conversations.getState();
    const conversation = conversations.conversations[conversationId];
    if (!conversation) return;
    const { model, reasoning } = choicesFor(conversation.choices, this.stores.settings.getState().settings);
    conversations.setChoices(conversationId, { protocol, model, reasoning });
    const added: { id?: string } = {};
    await this.answer(
      conversationId,
      { protocol, model, reasoning },
      shownBranch(conversation),
      (notes, source) => {
        added.id = conversations.addAssistantMessage(conversationId, protocol, model, source, notes);
        return added.id;
      },
    );
    // A compared round's answers are the person's to keep first: only a conversation's own goes on by itself.
    if (added.id) return this.answerByTemplates(conversationId, added.id, protocol);
  }

  /**
   * One prompt to every column of the comparison at once: the person's message after the last one shown,
   * and each column's answer a branch beside the others (the first one shown until another is kept),
   * streamed side by side, each with its own faults and Retry. The round goes to the compare store.
   */
  compare(text: string, attachments: readonly AttachmentRef[] = []): Promise<void> {
    const store = this.stores.conversations.getState();
    const conversationId = store.activeId ?? store.newConversation();
    store.addUserMessage(conversationId, text, [...attachments]);
    const conversation = this.stores.conversations.getState().conversations[conversationId];
    const history = conversation ? shownBranch(conversation) : [];
    const promptId = history.at(-1)?.id;
    if (!promptId) return Promise.resolve();
    const answers: Record<string, { messageId: string; choices: ConversationChoices }> = {};
    const streams = this.stores.compare.getState().columns.map(({ id, choices }) =>
      this.answer(conversationId, choices, history, (notes, source) => {
        const messageId = this.stores.conversations
          .getState()
          .addAnswerBranch(conversationId, promptId, choices.protocol, choices.model, source, notes);
        if (messageId) answers[id] = { messageId, choices };
        return messageId;
      }),
    );
    this.stores.compare.getState().startRound({ conversationId, promptId, answers });
    return Promise.all(streams).then(() => {});
  }

  /**
   * Keeps a compared answer as the conversation's answer (its branch shown, like a version chosen), and the
   * conversation goes on with the protocol, model and reasoning level that asked it.
   */
  keep(messageId: string): void {
    const round = this.stores.compare.getState().round;
    const kept = round && Object.values(round.answers).find((a) => a.messageId === messageId);
    if (!round || !kept) return;
    const conversations = this.stores.conversations.getState();
    conversations.selectVersion(round.conversationId, messageId);
    conversations.setChoices(round.conversationId, kept.choices);
  }

  /**
   * The one way an answer is asked for: the request for `history` with `choices` built and streamed into the
   * message `add` places. The conversation keeps the system prompt and parameters it was started with.
   */
  private answer(
    conversationId: string,
    choices: ConversationChoices,
    history: ChatMessage[],
    add: (notes: AnswerNotes, source: AnswerSource) => string | null,
  ): Promise<void> {
    const conversations = this.stores.conversations.getState();
    const conversation = conversations.conversations[conversationId];
    const settings = this.stores.settings.getState().settings;
    const system = systemPromptOf(conversation, settings.systemPrompt);
    conversations.setSystemPrompt(conversationId, system);
    const parameters = parametersOf(conversation, settings);
    conversations.setParameters(conversationId, parameters);
    // So are its tools.
    const tools = toolSetupOf(conversation, settings);
    conversations.setToolSetup(conversationId, tools);
    const { protocol } = choices;
    const built = this.build(conversationId, history, choices, system, parameters, tools);
    const leftOut = reasoningLeftOut(history, protocol);
    const notes: AnswerNotes = {
      ...(leftOut.length > 0 && { reasoningLeftOut: leftOut }),
      ...(built.thinkingPaused && { thinkingPaused: true }),
    };
    const source = this.gateway(protocol, built.request);
    const messageId = add(notes, source.source);
    return messageId ? this.sendBuilt(conversationId, messageId, protocol, built, source) : Promise.resolve();
  }

  /**
   * The request for the history `messages` of `conversationId`, with `choices` (protocol, model, reasoning
   * level), the system prompt, the conversation's parameters (the protocol takes those it has) and tools,
   * and the settings of this moment.
   */
  private build(
    conversationId: string,
    messages: ChatMessage[],
    choices: ConversationChoices,
    system: string,
    parameters: SamplingParameters,
    tools: ToolSetup,
  ): BuiltRequest {
    const settings = this.stores.settings.getState().settings;
    const { protocol, model, reasoning: level } = choices;
    const turnRequest: TurnRequest = {
      ...parameters,
      conversationId,
      model,
      system: system || undefined,
      messages: toConversationMessages(messages, protocol),
      tools: tools.tools.length > 0 ? tools.tools : undefined,
      toolChoice: tools.choice,
      outputSchema: tools.output,
      reasoning:
        level === 'off' ? undefined : { effort: level, budgetTokens: settings.thinkingBudgets[level] },
    };
    const spec = buildRequest(protocol, turnRequest);
    return {
      request: {
        url: gatewayBase(settings) + spec.path,
        path: spec.path,
        headers: spec.headers,
        body: spec.body,
      },
      problem: requestProblem(protocol, turnRequest),
      thinkingPaused: spec.reasoningPaused,
    };
  }

  /**
   * Streams a built request into `messageId`; one the API would refuse is not sent at all: the answer gets
   * an attempt that failed before sending, with what to change (Retry builds it again from the settings).
   */
  private sendBuilt(
    conversationId: string,
    messageId: string,
    protocol: Protocol,
    built: BuiltRequest,
    source: StreamSource,
  ): Promise<void> {
    if (built.problem === null)
      return this.stream(conversationId, messageId, protocol, built.request, source);
    this.stores.conversations.getState().addAttempt(conversationId, messageId, {
      id: newId('att'),
      startedAt: Date.now(),
      request: built.request,
      sentHeaders: {},
      turn: {
        ...emptyTurn,
        status: 'error',
        error: { code: notSentCode, message: built.problem.code, values: built.problem.values },
      },
      httpError: null,
      trace: emptyRecording(),
    });
    return Promise.resolve();
  }

  /**
   * Retry after a failure: the last attempt's request again, into the same message as a new attempt
   * (partial output cannot be resumed). A replayed recording has nothing to send again.
   */
  retry(conversationId: string, messageId: string): Promise<void> {
    const message = this.resendable(conversationId, messageId);
    return message ? this.resend(conversationId, messageId, message) : Promise.resolve();
  }

  /**
   * Regenerate a finished answer: its last attempt's request again, into a new answer beside it (a version
   * of its own; both stay, both billed). Nothing happens while this conversation's answer streams.
   */
  regenerate(conversationId: string, messageId: string): Promise<void> {
    const message = this.answering(conversationId) ? null : this.resendable(conversationId, messageId);
    const versionId =
      message && this.stores.conversations.getState().addAnswerVersion(conversationId, messageId);
    return message && versionId ? this.resend(conversationId, versionId, message) : Promise.resolve();
  }

  /** A gateway answer with an attempt to send again, or null. */
  private resendable(conversationId: string, messageId: string): AssistantMessage | null {
    const message = this.stores.conversations
      .getState()
      .conversations[conversationId]?.messages.find((m) => m.id === messageId);
    return message?.role === 'assistant' && message.attempts.length > 0 && message.source.kind === 'gateway'
      ? message
      : null;
  }

  /**
   * Sends `message`'s last request again, into `targetId` (the message itself or a new version of it). The
   * exact body goes to the gateway in Settings now, with that gateway's key: the key there is only ever
   * sent to its own gateway. A request never sent, or whose body is no longer stored, is built again.
   */
  private async resend(conversationId: string, targetId: string, message: AssistantMessage): Promise<void> {
    const last = message.attempts.at(-1)!;
    const stored =
      last.turn.error?.code === notSentCode ? null : await this.sentRequest(conversationId, last);
    const sent = stored && resendable(message.protocol, stored);
    if (!sent) {
      // Never sent, no longer stored, or not a request this app sends (a file's): built again from the
      // branch before it and the settings now (they may have been fixed), rather than sending it.
      const conversation = this.stores.conversations.getState().conversations[conversationId];
      const before = conversation ? pathTo(conversation, message.id).slice(0, -1) : [];
      const settings = this.stores.settings.getState().settings;
      const { reasoning } = choicesFor(conversation?.choices, settings);
      const built = this.build(
        conversationId,
        before,
        { protocol: message.protocol, model: message.model, reasoning },
        systemPromptOf(conversation, settings.systemPrompt),
        parametersOf(conversation, settings),
        toolSetupOf(conversation, settings),
      );
      return this.sendBuilt(
        conversationId,
        targetId,
        message.protocol,
        built,
        this.gateway(message.protocol, built.request),
      );
    }
    const base = gatewayBase(this.stores.settings.getState().settings);
    const request = { ...sent, url: base + sent.path };
    return this.stream(
      conversationId,
      targetId,
      message.protocol,
      request,
      this.gateway(message.protocol, request),
    );
  }

  /**
   * The request `attempt` sent, its body read first when this browser lacks it (team mode: sent from
   * another device, kept on the server); null when its body is not stored anywhere.
   */
  private async sentRequest(conversationId: string, attempt: Attempt): Promise<SentRequest | null> {
    let { request } = attempt;
    if (request.bodyMissing === 'missing') {
      await loadParts(this.stores.bodies, [attempt.id]);
      const conversation = this.stores.conversations.getState().conversations[conversationId];
      const read = conversation && attemptsOf(conversation).find((a) => a.id === attempt.id);
      request = read?.request ?? request;
    }
    return request.bodyMissing ? null : request;
  }

  /**
   * The JSON text of the body `request` sent: each attachment's bytes in place of its placeholder, as every
   * send puts them (View code shows exactly that). Rejects with `AttachmentMissing` when a file is gone.
   */
  async bodyAsSent(request: SentRequest): Promise<string> {
    return bodyWithAttachments(request.body, (id) => this.attachmentRef(id), this.attachments);
  }

  /** Whether an answer of this conversation is streaming (or waiting to retry on its own). */
  private answering(conversationId: string): boolean {
    return answerIn(this.stores.answers.getState(), conversationId) !== null;
  }

  stop(messageId: string): void {
    this.streams.get(messageId)?.stop('stopped');
  }

  /** Stops every answer of the conversation in flight (compared columns stream side by side). */
  stopAnswers(conversationId: string): void {
    for (const stream of this.streams.values())
      if (stream.conversationId === conversationId) stream.stop('stopped');
  }

  /**
   * Applies what a streaming answer has received since the last frame now, instead of at the next one: an
   * export or the inspector's figures then cover every byte received so far.
   */
  flushProgress(messageId: string): void {
    this.streams.get(messageId)?.flush();
  }

  /**
   * Records the person's result for one tool call; once every call of that answer has a result, the
   * conversation continues on its own, in the protocol given.
   */
  submitToolResult(
    conversationId: string,
    toolCallId: string,
    name: string,
    content: string,
    protocol: Protocol,
  ): Promise<void> {
    this.stores.conversations.getState().addToolResult(conversationId, toolCallId, name, content);
    const conversation = this.stores.conversations.getState().conversations[conversationId];
    const messages = conversation ? shownBranch(conversation) : [];
    const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
    const owner = messages.findLast(
      (m) => m.role === 'assistant' && m.attempts.at(-1)?.turn.toolCalls.some((c) => c.id === toolCallId),
    );
    const calls = owner?.role === 'assistant' ? (owner.attempts.at(-1)?.turn.toolCalls ?? []) : [];
    const allAnswered = calls.every((c) => answered.has(c.id));
    return allAnswered ? this.continueConversation(conversationId, protocol) : Promise.resolve();
  }

  /**
   * Answers the tool calls `messageId` ended with by their tools' result templates, and the conversation
   * goes on; not when a call's tool has no template (the person answers it), nor after `maxAutomaticRounds`
   * answers in a row were answered so (the answer then says so, and the person decides).
   */
  private async answerByTemplates(
    conversationId: string,
    messageId: string,
    protocol: Protocol,
  ): Promise<void> {
    const conversation = this.stores.conversations.getState().conversations[conversationId];
    const branch = conversation ? shownBranch(conversation) : [];
    const message = branch.at(-1);
    const turn =
      message?.id === messageId && message.role === 'assistant' ? message.attempts.at(-1)?.turn : undefined;
    if (!conversation || turn?.status !== 'complete' || turn.toolCalls.length === 0) return;
    const { tools } = toolSetupOf(conversation, this.stores.settings.getState().settings);
    const templates = turn.toolCalls.map((call) => tools.find((t) => t.name === call.name)?.resultTemplate);
    if (templates.some((template) => template === undefined)) return;
    // Rounds since the person last spoke whose results the templates wrote.
    const since = branch.slice(branch.findLastIndex((m) => m.role === 'user') + 1);
    const rounds = since.filter(
      (m, i) => m.role === 'tool' && m.automatic && since[i - 1]?.role === 'assistant',
    ).length;
    const conversations = this.stores.conversations.getState();
    if (rounds >= maxAutomaticRounds) {
      conversations.noteAutomaticLimit(conversationId, messageId);
      return;
    }
    for (const [i, call] of turn.toolCalls.entries())
      conversations.addToolResult(
        conversationId,
        call.id,
        call.name,
        fillTemplate(templates[i]!, call.arguments),
        true,
      );
    return this.continueConversation(conversationId, protocol);
  }

  /**
   * Replays a recorded stream (`.sse` as exported, or a JSON trace) through the same reader and protocol
   * adapter as a live answer, in a conversation of its own. Rejects, storing nothing, when the file is not
   * a recording.
   */
  async replay(fileName: string, text: string, speed: ReplaySpeed, fallback: Protocol): Promise<void> {
    // Fetched with the first replay: the first screen needs none of it.
    const { readRecording, recordingSource } = await import('./replay.ts');
    const recording = readRecording(text, speed, fallback);
    const store = this.stores.conversations.getState();
    // A conversation of its own: a recording is not part of any exchange with a model.
    // Untitled: the list names it after the file it replays, in the person's language.
    const conversationId = store.newConversation();
    const source = recordingSource(recording, speed, fileName);
    const messageId = store.addAssistantMessage(
      conversationId,
      recording.protocol,
      `replay: ${fileName}`,
      source.source,
    );
    const request: SentRequest = { url: '', path: '', headers: {}, body: { replayOf: fileName, speed } };
    return this.stream(conversationId, messageId, recording.protocol, request, source);
  }

  /** An attachment as the messages that carry it name it. */
  private attachmentRef(id: string): AttachmentRef | undefined {
    return attachmentUses(Object.values(this.stores.conversations.getState().conversations)).get(id)?.ref;
  }

  /** The gateway in Settings, with the credentials of the moment each attempt is sent. */
  private gateway(protocol: Protocol, request: SentRequest): StreamSource {
    return gatewaySource(protocol, request, {
      fetch: this.fetch,
      apiKey: () => this.stores.settings.getState().settings.apiKey,
      attachments: this.attachments,
      attachmentRef: (id) => this.attachmentRef(id),
      refused: this.refused,
      relay: this.relay,
    });
  }

  /**
   * Picks up each answer of `conversationId` that the server runs and that no stream here reads, once no
   * other tab of this browser reads it: from the server's first piece, with no new request to the gateway.
   */
  private pickUpRelayed(conversationId: string): void {
    const conversation = this.stores.conversations.getState().conversations[conversationId];
    if (!conversation) return;
    for (const { message, attempt } of relayedAnswers(conversation)) {
      if (this.streams.has(message.id) || this.pickingUp.has(attempt.id)) continue;
      this.pickingUp.add(attempt.id);
      this.locks.whenFree(answerLockName(attempt.id), async () => {
        try {
          // Another tab may have read it to its end meanwhile: then there is nothing left to pick up.
          const now = this.stores.conversations.getState().conversations[conversationId];
          const still = now && relayedAnswers(now).find((found) => found.attempt.id === attempt.id);
          if (!still || this.streams.has(message.id)) return;
          await this.stream(
            conversationId,
            message.id,
            message.protocol,
            still.attempt.request,
            resumeSource(still.attempt, this.relay),
            still.attempt,
          );
        } finally {
          this.pickingUp.delete(attempt.id);
        }
      });
    }
  }

  /**
   * Streams `request` into one assistant message, as the one answer in flight there; `resume`: an attempt
   * the server runs, picked up again.
   */
  private async stream(
    conversationId: string,
    messageId: string,
    protocol: Protocol,
    request: SentRequest,
    source: StreamSource,
    resume?: Attempt,
  ): Promise<void> {
    this.streams.get(messageId)?.supersede();
    let over = () => {};
    const ended = new Promise<void>((resolve) => {
      over = resolve;
    });
    const stream = new AnswerStream({
      conversationId,
      messageId,
      protocol,
      request,
      source,
      conversations: this.stores.conversations,
      answers: this.stores.answers,
      frames: this.frames,
      autoRetry: () => this.stores.settings.getState().settings.autoRetry,
      random: this.random,
      resume,
      // The other tabs of this browser leave it to this one while it reads it.
      relayed: (attemptId) => this.locks.hold(answerLockName(attemptId), ended),
    });
    this.streams.set(messageId, stream);
    try {
      await stream.run();
    } finally {
      over();
      if (this.streams.get(messageId) === stream) this.streams.delete(messageId);
    }
  }
}
