import type { AttachmentRef, UserMessage } from '../../state/domain/types.ts';

/** A message being written or edited: its text and its files (references: their bytes are stored). */
export interface MessageDraft {
  text: string;
  attachments: readonly AttachmentRef[];
}

/** What Send sends, or null when there is nothing to send: no words (spaces are none) and no files. */
export function draftToSend(draft: MessageDraft): MessageDraft | null {
  return draft.text.trim() === '' && draft.attachments.length === 0 ? null : draft;
}

/**
 * Where an edit of `message` starts: the edit kept for the tab if there is one, else the message as it is.
 * Kept files mean an edit in progress, so its text is kept even when emptied; a text kept alone (from
 * before files were kept) still counts when it is not empty.
 */
export function editStart(
  message: Pick<UserMessage, 'text' | 'attachments'>,
  keptText: string,
  keptFiles: readonly AttachmentRef[] | null,
): MessageDraft {
  if (keptFiles !== null) return { text: keptText, attachments: keptFiles };
  return { text: keptText || message.text, attachments: message.attachments ?? [] };
}
