import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConversationMessage, Protocol, Turn } from '../core/index.ts';
import { newId } from './ids.ts';
import type { AnswerSource, AssistantMessage, Attempt, ChatMessage, Conversation } from './types.ts';
import { sumUsage, type UsageTotals } from './usage.ts';

export interface ConversationState {
  conversations: Record<string, Conversation>;
  /** Newest first, as the sidebar lists them. */
  order: string[];
  activeId: string | null;
  /** False until persisted conversations have been loaded. */
  hydrated: boolean;

  hydrate(conversations: Conversation[], activeId: string | null): void;
  /** Starts a conversation (untitled unless a title is given) and makes it the active one. */
  newConversation(title?: string): string;
  selectConversation(id: string): void;
  renameConversation(id: string, title: string): void;
  deleteConversation(id: string): void;
  addUserMessage(conversationId: string, text: string): void;
  addAssistantMessage(
    conversationId: string,
    protocol: Protocol,
    model: string,
    source?: AnswerSource,
  ): string;
  addToolResult(conversationId: string, toolCallId: string, name: string, content: string): void;
  addAttempt(conversationId: string, messageId: string, attempt: Attempt): void;
  updateAttempt(
    conversationId: string,
    messageId: string,
    attemptId: string,
    update: (a: Attempt) => Attempt,
  ): void;
}

const untitled = 'New chat';
const gatewaySource: AnswerSource = { kind: 'gateway' };

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || untitled;
}

function touch(conversation: Conversation, messages: ChatMessage[]): Conversation {
  return { ...conversation, messages, updatedAt: Date.now() };
}

export type ConversationStore = StoreApi<ConversationState>;

export function createConversationStore(): ConversationStore {
  return createStore<ConversationState>()((set, get) => {
    /** Applies `change` to one conversation; unknown ids are ignored (it may have been deleted meanwhile). */
    const patch = (id: string, change: (c: Conversation) => Conversation) =>
      set((state) => {
        const current = state.conversations[id];
        return current ? { conversations: { ...state.conversations, [id]: change(current) } } : state;
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

    return {
      conversations: {},
      order: [],
      activeId: null,
      hydrated: false,

      hydrate(conversations, activeId) {
        const sorted = [...conversations].sort((a, b) => b.updatedAt - a.updatedAt);
        set({
          conversations: Object.fromEntries(sorted.map((c) => [c.id, c])),
          order: sorted.map((c) => c.id),
          activeId: activeId && sorted.some((c) => c.id === activeId) ? activeId : (sorted[0]?.id ?? null),
          hydrated: true,
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
          conversations: { ...state.conversations, [conversation.id]: conversation },
          order: [conversation.id, ...state.order],
          activeId: conversation.id,
        }));
        return conversation.id;
      },

      selectConversation(id) {
        if (get().conversations[id]) set({ activeId: id });
      },

      renameConversation(id, title) {
        const trimmed = title.trim();
        if (trimmed) patch(id, (c) => ({ ...c, title: trimmed }));
      },

      deleteConversation(id) {
        set((state) => {
          const { [id]: _removed, ...conversations } = state.conversations;
          const order = state.order.filter((other) => other !== id);
          return {
            conversations,
            order,
            activeId: state.activeId === id ? (order[0] ?? null) : state.activeId,
          };
        });
      },

      addUserMessage(conversationId, text) {
        patch(conversationId, (c) => ({
          ...touch(c, [...c.messages, { id: newId('msg'), role: 'user', text, createdAt: Date.now() }]),
          title:
            c.title === untitled && !c.messages.some((m) => m.role === 'user') ? titleFrom(text) : c.title,
        }));
      },

      addAssistantMessage(conversationId, protocol, model, source = gatewaySource) {
        const id = newId('msg');
        patch(conversationId, (c) =>
          touch(c, [
            ...c.messages,
            { id, role: 'assistant', protocol, model, source, createdAt: Date.now(), attempts: [] },
          ]),
        );
        return id;
      },

      addToolResult(conversationId, toolCallId, name, content) {
        patch(conversationId, (c) =>
          touch(c, [
            ...c.messages,
            { id: newId('msg'), role: 'tool', toolCallId, name, content, createdAt: Date.now() },
          ]),
        );
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

/** The history in neutral form, for any protocol's request builder: tool calls and results included. */
export function toConversationMessages(messages: ChatMessage[]): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', text: m.text });
    else if (m.role === 'tool')
      out.push({ role: 'tool', toolCallId: m.toolCallId, name: m.name, content: m.content });
    // A replayed recording is not something this model said: it is never sent as history.
    else if (m.source.kind === 'gateway') {
      const turn = currentTurn(m);
      if (turn && (turn.text || turn.toolCalls.length)) {
        out.push({ role: 'assistant', text: turn.text, toolCalls: turn.toolCalls });
      }
    }
  }
  return out;
}

/** Tokens billed over the whole conversation: every attempt counts, failed ones included. */
export function conversationUsage(conversation: Conversation): UsageTotals {
  return sumUsage(conversation.messages.flatMap((m) => (m.role === 'assistant' ? m.attempts : [])));
}
