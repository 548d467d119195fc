import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  type ConversationMessage,
  keptParameters,
  type Protocol,
  reasoningStateOf,
  type SamplingParameters,
  type Turn,
} from '../../core/index.ts';
import { placeholderContent } from '../domain/attachmentPlaceholders.ts';
import { chooseVersion, nextParentId, parentOf, shownBranch, withParents } from '../domain/branches.ts';
import { idRecord, withIds } from '../domain/idRecord.ts';
import { newId } from '../domain/ids.ts';
import { sameContent } from '../domain/merge.ts';
import type {
  AnswerSource,
  AssistantMessage,
  AttachmentRef,
  Attempt,
  ChatMessage,
  Conversation,
  ConversationChoices,
  ToolSetup,
} from '../domain/types.ts';
import { sumUsage, type UsageTotals } from '../domain/usage.ts';
import type { Settings } from './settingsStore.ts';

/**
 * Where a conversation new to this tab goes in the list: at the top, as it would had it been made here
 * (another tab's new one); or by date (an older one read after the first screen).
 */
export type NewPlacement = 'top' | 'byDate';

/** `order` with `added` (newest first) put in by date: both merged as two lists sorted newest first. */
function mergedByDate(
  order: readonly string[],
  added: readonly Conversation[],
  conversations: Readonly<Record<string, Conversation>>,
): string[] {
  const sorted = [...added].sort((a, b) => b.updatedAt - a.updatedAt);
  const merged: string[] = [];
  let next = 0;
  for (const id of order) {
    const updatedAt = conversations[id]?.updatedAt ?? 0;
    while (next < sorted.length && sorted[next]!.updatedAt > updatedAt) merged.push(sorted[next++]!.id);
    merged.push(id);
  }
  for (; next < sorted.length; next++) merged.push(sorted[next]!.id);
  return merged;
}

export interface ConversationState {
  conversations: Record<string, Conversation>;
  /** Newest first, as the sidebar lists them. */
  order: string[];
  activeId: string | null;
  /** False until persisted conversations have been loaded. */
  hydrated: boolean;
  /**
   * The ids the last `hydrate` or `takeStored` brought in (a load, another tab, another device): a new
   * array each time, so that a watcher of arrivals looks at those, not at every conversation.
   */
  arrived: readonly string[];
  /**
   * The ids whose conversation the last change of `conversations` put in or took out (null: any of them,
   * as after a load): a watcher of every change looks at those, not at thousands of others.
   */
  touched: readonly string[] | null;

  hydrate(conversations: Conversation[], activeId: string | null): void;
  /**
   * Copies from storage (another tab's, or recordings read back), already joined with this tab's: each
   * replaces the one of its id or is added where `placement` says; `removed` are gone. The active
   * conversation stays unless removed.
   */
  takeStored(
    conversations: readonly Conversation[],
    removed?: readonly string[],
    placement?: NewPlacement,
  ): void;
  /** Starts a conversation (untitled unless a title is given) and makes it the active one. */
  newConversation(title?: string): string;
  selectConversation(id: string): void;
  /** Shows no conversation (a new chat's empty screen), as when the address names one that is not here. */
  selectNone(): void;
  renameConversation(id: string, title: string): void;
  deleteConversation(id: string): void;
  /** The person's message, after the last message shown. */
  addUserMessage(conversationId: string, text: string, attachments?: AttachmentRef[]): void;
  /**
   * An edit of the person's message `messageId`: a new version beside it with `attachments` (the original's
   * when not given), shown from now on; the earlier version and what followed it stay. Returns its id (null:
   * nothing to edit).
   */
  addUserVersion(
    conversationId: string,
    messageId: string,
    text: string,
    attachments?: readonly AttachmentRef[],
  ): string | null;
  /** An answer after the last message shown; returns its id. */
  addAssistantMessage(
    conversationId: string,
    protocol: Protocol,
    model: string,
    source?: AnswerSource,
    notes?: AnswerNotes,
  ): string;
  /** Remembers the toolbar's choices with the conversation (not a change to its content: order stays). */
  setChoices(conversationId: string, choices: ConversationChoices): void;
  /** The system prompt the conversation's requests send from now on (its order in the list stays). */
  setSystemPrompt(conversationId: string, systemPrompt: string): void;
  /** The sampling parameters the conversation's requests send from now on (its order in the list stays). */
  setParameters(conversationId: string, parameters: SamplingParameters): void;
  /** The tools the conversation's requests offer from now on (its order in the list stays). */
  setToolSetup(conversationId: string, setup: ToolSetup): void;
  /** A tool result, after the last message shown; `automatic`: written by the tool's result template. */
  addToolResult(
    conversationId: string,
    toolCallId: string,
    name: string,
    content: string,
    automatic?: boolean,
  ): void;
  /** The answer's tool calls are left to the person: too many answers in a row were answered by templates. */
  noteAutomaticLimit(conversationId: string, messageId: string): void;
  /**
   * Regenerate: a new, empty answer beside `messageId` to the same request (same protocol, model, source
   * and notes), shown from now on. Returns its id (null: no such answer).
   */
  addAnswerVersion(conversationId: string, messageId: string): string | null;
  /**
   * An answer to the message `parentId` as a branch beside the answers it has (a compared model's): the branch
   * shown stays as it was (the first answer there is shown). Returns its id (null: no such message).
   */
  addAnswerBranch(
    conversationId: string,
    parentId: string,
    protocol: Protocol,
    model: string,
    source?: AnswerSource,
    notes?: AnswerNotes,
  ): string | null;
  /** Shows `messageId` at its fork, and from there the branch through it. */
  selectVersion(conversationId: string, messageId: string): void;
  addAttempt(conversationId: string, messageId: string, attempt: Attempt): void;
  updateAttempt(
    conversationId: string,
    messageId: string,
    attemptId: string,
    update: (a: Attempt) => Attempt,
  ): void;
}

/** What an answer's request had to do differently about reasoning, shown with the answer. */
export type AnswerNotes = Pick<AssistantMessage, 'reasoningLeftOut' | 'thinkingPaused'>;

/** No title yet: the UI words it (see conversationTitle.ts). */
const untitled = '';
const gatewaySource: AnswerSource = { kind: 'gateway' };

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || untitled;
}

function touch(conversation: Conversation, messages: ChatMessage[]): Conversation {
  return { ...conversation, messages, updatedAt: Date.now() };
}

/** The title the shown branch's first message gives. */
function titleOf(conversation: Conversation): string {
  const first = shownBranch(conversation).find((m) => m.role === 'user');
  // A message of files alone is named after them.
  return first ? titleFrom(first.text || (first.attachments ?? []).map((a) => a.name).join(', ')) : untitled;
}

/**
 * A title taken from the first message follows it when another version of that message is shown; a title
 * the person chose stays.
 */
function retitled(before: Conversation, after: Conversation): Conversation {
  return before.title === titleOf(before) ? { ...after, title: titleOf(after) } : after;
}

/**
 * `conversation` with `message` added (its parent named) and chosen at its fork: the branch ends with it.
 * Messages from before branches get their parent named first, so that their place never depends on order.
 */
function place(conversation: Conversation, message: ChatMessage): Conversation {
  const next = touch(conversation, [...withParents(conversation.messages), message]);
  return retitled(conversation, { ...next, selected: chooseVersion(next, message.id) });
}

/**
 * `conversation` with `message` added beside its fork's other children, the one shown there kept chosen
 * (none yet: `message` is the one shown).
 */
function placeBeside(conversation: Conversation, message: ChatMessage): Conversation {
  const placed = { ...conversation, messages: withParents(conversation.messages) };
  const shown = shownBranch(placed).find((m) => m.parentId === (message.parentId ?? null));
  const selected = shown ? chooseVersion(placed, shown.id) : placed.selected;
  return touch({ ...placed, ...(selected && { selected }) }, [...placed.messages, message]);
}

/** A message as its caller gives it: the store names, dates and places it. */
type NewMessage<M extends ChatMessage = ChatMessage> = M extends unknown
  ? Omit<M, 'id' | 'createdAt' | 'parentId'>
  : never;

export type ConversationStore = StoreApi<ConversationState>;

/** `conversations` with `set` put in and `removed` taken out, and the ids so touched. */
function changed(
  conversations: Readonly<Record<string, Conversation>>,
  set: readonly (readonly [string, Conversation])[],
  removed: readonly string[] = [],
): Pick<ConversationState, 'conversations' | 'touched'> {
  return {
    conversations: withIds(conversations, set, removed),
    touched: [...set.map(([id]) => id), ...removed],
  };
}

/** The ids whose conversation may differ between `previous` and `state`: every one when not known. */
export function touchedIds(state: ConversationState, previous: ConversationState): readonly string[] {
  if (state.conversations === previous.conversations) return [];
  if (state.touched !== null) return state.touched;
  const ids = new Set(Object.keys(state.conversations));
  for (const id of Object.keys(previous.conversations)) ids.add(id);
  return [...ids];
}

export function createConversationStore(): ConversationStore {
  return createStore<ConversationState>()((set, get) => {
    /** Applies `change` to one conversation; unknown ids are ignored (it may have been deleted meanwhile). */
    const patch = (id: string, change: (c: Conversation) => Conversation) =>
      set((state) => {
        const current = state.conversations[id];
        const next = current && change(current);
        return next && next !== current ? changed(state.conversations, [[id, next]]) : state;
      });

    const patchAssistant = (
      conversationId: string,
      messageId: string,
      change: (m: AssistantMessage) => AssistantMessage,
    ) =>
      patch(conversationId, (c) =>
        touch(
          c,
          c.messages.map((m) => (m.id === messageId && m.role === 'assistant' ? change(m) : m)),
        ),
      );

    /**
     * Adds `message` (a new id, dated now) under the parent `parentIn` names, chosen at its fork (or, by
     * `placeBeside`, not); returns its id.
     */
    const add = (
      conversationId: string,
      parentIn: (c: Conversation) => string | null,
      message: NewMessage,
      placing = place,
    ): string => {
      const id = newId('msg');
      patch(conversationId, (c) =>
        placing(c, { ...message, id, createdAt: Date.now(), parentId: parentIn(c) }),
      );
      return id;
    };

    return {
      conversations: idRecord(),
      order: [],
      activeId: null,
      hydrated: false,
      arrived: [],
      touched: null,

      hydrate(conversations, activeId) {
        const sorted = [...conversations].sort((a, b) => b.updatedAt - a.updatedAt);
        set({
          conversations: idRecord(sorted.map((c) => [c.id, c])),
          order: sorted.map((c) => c.id),
          activeId: activeId && sorted.some((c) => c.id === activeId) ? activeId : (sorted[0]?.id ?? null),
          hydrated: true,
          arrived: sorted.map((c) => c.id),
          touched: null,
        });
      },

      takeStored(stored, removed = [], placement = 'top') {
        if (!stored.length && !removed.length) return;
        set((state) => {
          const added = stored.filter((c) => !state.conversations[c.id]);
          const next = changed(
            state.conversations,
            stored.map((c) => [c.id, c]),
            removed,
          );
          const { conversations } = next;
          const order = (
            placement === 'top'
              ? [...added.map((c) => c.id).reverse(), ...state.order]
              : mergedByDate(state.order, added, conversations)
          ).filter((id) => conversations[id]);
          const activeId =
            state.activeId !== null && !conversations[state.activeId] ? (order[0] ?? null) : state.activeId;
          return { ...next, order, activeId, arrived: stored.map((c) => c.id) };
        });
      },

      newConversation(title = untitled) {
        const now = Date.now();
        const conversation: Conversation = {
          id: newId('conv'),
          title,
          createdAt: now,
          updatedAt: now,
          messages: [],
        };
        set((state) => ({
          ...changed(state.conversations, [[conversation.id, conversation]]),
          order: [conversation.id, ...state.order],
          activeId: conversation.id,
        }));
        return conversation.id;
      },

      selectConversation(id) {
        if (get().conversations[id]) set({ activeId: id });
      },

      selectNone() {
        set({ activeId: null });
      },

      renameConversation(id, title) {
        const trimmed = title.trim();
        if (trimmed) patch(id, (c) => ({ ...c, title: trimmed }));
      },

      deleteConversation(id) {
        set((state) => {
          const order = state.order.filter((other) => other !== id);
          return {
            ...changed(state.conversations, [], [id]),
            order,
            activeId: state.activeId === id ? (order[0] ?? null) : state.activeId,
          };
        });
      },

      addUserMessage(conversationId, text, attachments) {
        add(conversationId, nextParentId, {
          role: 'user',
          text,
          ...(attachments?.length && { attachments }),
        });
      },

      addUserVersion(conversationId, messageId, text, attachments) {
        const original = get().conversations[conversationId]?.messages.find((m) => m.id === messageId);
        if (original?.role !== 'user') return null;
        return add(conversationId, (c) => parentOf(c, messageId), {
          role: 'user',
          text,
          ...(attachments
            ? attachments.length > 0 && { attachments: [...attachments] }
            : original.attachments && { attachments: original.attachments }),
        });
      },

      addAssistantMessage(conversationId, protocol, model, source = gatewaySource, notes = {}) {
        return add(conversationId, nextParentId, {
          role: 'assistant',
          protocol,
          model,
          source,
          attempts: [],
          ...notes,
        });
      },

      addAnswerVersion(conversationId, messageId) {
        const original = get().conversations[conversationId]?.messages.find((m) => m.id === messageId);
        if (original?.role !== 'assistant') return null;
        const { protocol, model, source, reasoningLeftOut, thinkingPaused } = original;
        return add(conversationId, (c) => parentOf(c, messageId), {
          role: 'assistant',
          protocol,
          model,
          source,
          attempts: [],
          ...(reasoningLeftOut && { reasoningLeftOut }),
          ...(thinkingPaused && { thinkingPaused }),
        });
      },

      addAnswerBranch(conversationId, parentId, protocol, model, source = gatewaySource, notes = {}) {
        if (!get().conversations[conversationId]?.messages.some((m) => m.id === parentId)) return null;
        return add(
          conversationId,
          () => parentId,
          { role: 'assistant', protocol, model, source, attempts: [], ...notes },
          placeBeside,
        );
      },

      selectVersion(conversationId, messageId) {
        patch(conversationId, (c) =>
          // Shown already, or not in this conversation: nothing to choose.
          shownBranch(c).some((m) => m.id === messageId) || !c.messages.some((m) => m.id === messageId)
            ? c
            : retitled(c, { ...c, selected: chooseVersion(c, messageId) }),
        );
      },

      setChoices(conversationId, choices) {
        patch(conversationId, (c) => (c.choices && sameChoices(c.choices, choices) ? c : { ...c, choices }));
      },

      setSystemPrompt(conversationId, systemPrompt) {
        patch(conversationId, (c) => (c.systemPrompt === systemPrompt ? c : { ...c, systemPrompt }));
      },

      setParameters(conversationId, parameters) {
        const kept = keptParameters(parameters);
        patch(conversationId, (c) =>
          c.parameters && sameContent(c.parameters, kept) ? c : { ...c, parameters: kept },
        );
      },

      setToolSetup(conversationId, toolSetup) {
        patch(conversationId, (c) =>
          c.toolSetup && sameContent(c.toolSetup, toolSetup) ? c : { ...c, toolSetup },
        );
      },

      addToolResult(conversationId, toolCallId, name, content, automatic) {
        add(conversationId, nextParentId, {
          role: 'tool',
          toolCallId,
          name,
          content,
          ...(automatic && { automatic }),
        });
      },

      noteAutomaticLimit(conversationId, messageId) {
        patchAssistant(conversationId, messageId, (m) => ({ ...m, automaticLimit: true }));
      },

      addAttempt(conversationId, messageId, attempt) {
        patchAssistant(conversationId, messageId, (m) => ({ ...m, attempts: [...m.attempts, attempt] }));
      },

      updateAttempt(conversationId, messageId, attemptId, update) {
        patchAssistant(conversationId, messageId, (m) => ({
          ...m,
          attempts: m.attempts.map((a) => (a.id === attemptId ? update(a) : a)),
        }));
      },
    };
  });
}

/** The attempt a conversation continues from: the newest one. */
export function currentAttempt(message: AssistantMessage): Attempt | undefined {
  return message.attempts[message.attempts.length - 1];
}

export function currentTurn(message: AssistantMessage): Turn | undefined {
  return currentAttempt(message)?.turn;
}

/**
 * The history in neutral form, for a request of `protocol`: tool calls and results included, and each
 * answer's reasoning state when `protocol` produced it. Another protocol's state cannot be replayed (its
 * signatures and encrypted content are bound to that provider): it is left out, as it is with no protocol
 * given. Reasoning text is never part of the history.
 */
export function toConversationMessages(messages: ChatMessage[], protocol?: Protocol): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user')
      out.push({
        role: 'user',
        text: m.text,
        ...(m.attachments?.length && { attachments: m.attachments.map(placeholderContent) }),
      });
    else if (m.role === 'tool')
      out.push({ role: 'tool', toolCallId: m.toolCallId, name: m.name, content: m.content });
    // A replayed recording is not something this model said: it is never sent as history.
    else if (m.source.kind === 'gateway') {
      const turn = currentTurn(m);
      if (turn && (turn.text || turn.toolCalls.length)) {
        const reasoningState = reasoningStateOf(turn).filter((entry) => entry.protocol === protocol);
        out.push({
          role: 'assistant',
          text: turn.text,
          toolCalls: turn.toolCalls,
          ...(reasoningState.length > 0 && { reasoningState }),
        });
      }
    }
  }
  return out;
}

/**
 * The protocols whose reasoning state a request of `protocol` leaves out, named only on the first answer
 * after a switch (the latest answer came from another protocol): later ones would only repeat it.
 */
export function reasoningLeftOut(messages: ChatMessage[], protocol: Protocol): Protocol[] {
  const answers = messages.filter(
    (m): m is AssistantMessage => m.role === 'assistant' && m.source.kind === 'gateway',
  );
  if (answers.length === 0 || answers.at(-1)?.protocol === protocol) return [];
  const left = new Set<Protocol>();
  for (const answer of answers) {
    const turn = currentTurn(answer);
    if (!turn || !(turn.text || turn.toolCalls.length)) continue;
    for (const entry of reasoningStateOf(turn)) if (entry.protocol !== protocol) left.add(entry.protocol);
  }
  return [...left];
}

function sameChoices(a: ConversationChoices, b: ConversationChoices): boolean {
  return a.protocol === b.protocol && a.model === b.model && a.reasoning === b.reasoning;
}

/**
 * The system prompt `conversation` sends: its own, or `defaultPrompt` (Settings') while it has none, before
 * its first request and in records from before it was remembered.
 */
export function systemPromptOf(conversation: Conversation | undefined, defaultPrompt: string): string {
  return conversation?.systemPrompt ?? defaultPrompt;
}

/** The defaults for a new chat's parameters: the two Settings holds (the rest unset). */
export function defaultParameters(
  settings: Pick<Settings, 'temperature' | 'maxOutputTokens'>,
): SamplingParameters {
  return keptParameters({
    temperature: settings.temperature ?? undefined,
    maxOutputTokens: settings.maxOutputTokens ?? undefined,
  });
}

/**
 * The sampling parameters `conversation` sends: its own, or the defaults from Settings while it has none
 * (before its first request, and in records from before they were kept).
 */
export function parametersOf(
  conversation: Conversation | undefined,
  settings: Pick<Settings, 'temperature' | 'maxOutputTokens'>,
): SamplingParameters {
  return conversation?.parameters ?? defaultParameters(settings);
}

/**
 * The tools `conversation` offers: its own, or Settings' (those it offers every new chat) while it has
 * none (before its first request, and in records from before they were kept).
 */
export function toolSetupOf(
  conversation: Conversation | undefined,
  settings: Pick<Settings, 'offerTools' | 'tools'>,
): ToolSetup {
  return conversation?.toolSetup ?? { tools: settings.offerTools ? settings.tools : [] };
}

/**
 * The protocol, model and reasoning level a conversation uses: its own `choices`, kept once its first
 * request went out or the person chose them in it; else (a new chat, records from before they were kept)
 * the settings' defaults.
 */
export function choicesFor(
  choices: ConversationChoices | undefined,
  defaults: Pick<Settings, 'protocol' | 'model' | 'reasoning'>,
): ConversationChoices {
  // Stored choices this version cannot use were left out when the record was read (`recordSchemas.ts`).
  if (choices) return choices;
  const { protocol, model, reasoning } = defaults;
  return { protocol, model, reasoning };
}

/**
 * Tokens billed over the whole conversation: every attempt of every answer counts, failed ones and those on
 * branches not shown included.
 */
export function conversationUsage(conversation: Conversation): UsageTotals {
  return sumUsage(conversation.messages.flatMap((m) => (m.role === 'assistant' ? m.attempts : [])));
}
