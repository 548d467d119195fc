import type { AssistantMessage, Attempt, Conversation } from '../state/domain/types.ts';

/** An answer the server is running, as a conversation holds it: its message and the attempt in flight. */
export interface RelayedAnswer {
  message: AssistantMessage;
  attempt: Attempt;
}

/** The answers of `conversation` whose newest attempt the server runs and that still stream. */
export function relayedAnswers(conversation: Conversation): RelayedAnswer[] {
  const found: RelayedAnswer[] = [];
  for (const message of conversation.messages) {
    if (message.role !== 'assistant') continue;
    const attempt = message.attempts.at(-1);
    if (attempt?.relayed && attempt.turn.status === 'streaming') found.push({ message, attempt });
  }
  return found;
}
