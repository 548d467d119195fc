import type { Conversation } from './types.ts';

/**
 * What a conversation is called, for the UI to word: the title it has (from its first message, or one the
 * person gave), or none yet, or the recording it replays. Untitled and replayed conversations store an
 * empty title, so that the words around them follow the person's language.
 */
export type ConversationName =
  | { kind: 'titled'; title: string }
  | { kind: 'untitled' }
  | { kind: 'replay'; file: string };

export function conversationName(conversation: Conversation): ConversationName {
  const title = conversation.title.trim();
  if (title) return { kind: 'titled', title };
  const first = conversation.messages[0];
  if (first?.role === 'assistant' && first.source.kind === 'replay')
    return { kind: 'replay', file: first.source.file };
  return { kind: 'untitled' };
}

/** Records from before titles were worded by the UI stored these English words for "no title yet". */
const legacyUntitled = 'New chat';

export function storedTitle(title: string): string {
  return title === legacyUntitled ? '' : title;
}
