import { mergeConversation, sameContent, withOwnChoices } from '../domain/merge.ts';
import type { Conversation } from '../domain/types.ts';
import { conversationPrefix, readConversationRecord, readSettingsRecord } from '../formats/records.ts';
import { type ConversationRecord, recordOf, withLocalRecordings } from '../storage/storedConversation.ts';
import { bodiesIn, withBodies } from '../storage/storedRequests.ts';
import { defaultSettings, type Settings } from '../stores/settingsStore.ts';

/**
 * The server's copies and this page's, side by side: what is sent (a conversation's record: its
 * recordings' figures, no request bodies; the settings without the gateway key), and what a copy read
 * from the server becomes here. Pure, so that every case is a line of a test.
 */

/** What the server keeps of a conversation: its record, as IndexedDB keeps it. */
export function serverRecordOf(conversation: Conversation): ConversationRecord {
  return recordOf(conversation);
}

/** A record from the server read as IndexedDB's are (every field checked), or why it cannot be. */
export function readServerRecord(id: string, record: unknown): Conversation | { unreadable: string } {
  const read = readConversationRecord(conversationPrefix + id, record);
  return read.kind === 'conversation' ? read.conversation : { unreadable: read.reason };
}

/**
 * What this page shows of a copy from the server. `local` unchanged since the last copy from the server
 * (`changedHere` false) follows it, keeping this page's choice at each fork; changed here, the two are
 * joined (`base`: the copy both came from) and the result is written back. Either way this page's
 * recordings and request bodies, which the record does not hold, are kept.
 */
export function takeServerCopy(
  remote: Conversation,
  local: Conversation | undefined,
  changedHere: boolean,
  base: Conversation | null,
): Conversation {
  const withOwnParts = withLocalRecordings(withBodies(remote, bodiesIn(local)), local);
  if (!local) return withOwnParts;
  if (changedHere) return mergeConversation(local, withOwnParts, base);
  return withOwnChoices(withOwnParts, local);
}

/** Whether `conversation` holds nothing the server's copy (its record) lacks. */
export function sameAsServer(conversation: Conversation, record: ConversationRecord | null): boolean {
  return record !== null && sameContent(serverRecordOf(conversation), record);
}

/** Settings that belong to one browser: the gateway key never leaves it, nor the choice to keep it. */
const deviceFields: ReadonlySet<string> = new Set<keyof Settings>(['apiKey', 'rememberKey']);

/** The settings as the server keeps them: every field but this browser's own. */
export function settingsDocument(settings: Settings): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([key]) => !deviceFields.has(key)));
}

/**
 * The settings with the server's document taken in (each field checked as a stored record's is: one of
 * the wrong type keeps this page's value), this browser's own fields kept.
 */
export function settingsWithServer(local: Settings, document: Record<string, unknown>): Settings {
  const read = readSettingsRecord(document)?.settings ?? {};
  const taken = Object.fromEntries(
    Object.entries(read).filter(([key]) => !deviceFields.has(key) && key in defaultSettings),
  );
  const next = { ...local, ...taken };
  return sameContent(next, local) ? local : next;
}

/** The fields of `document` that differ from `base` (what this page changed since the server's copy). */
export function changedFields(
  document: Record<string, unknown>,
  base: Record<string, unknown> | null,
): Record<string, unknown> {
  if (!base) return document;
  return Object.fromEntries(
    Object.entries(document).filter(([key, value]) => !sameContent(value, base[key])),
  );
}
