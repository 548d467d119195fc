import type { AttachmentRef } from '../../state/domain/types.ts';

/**
 * Unsent messages, one per conversation, kept for the tab (sessionStorage): a reload keeps the draft,
 * and switching conversations neither carries it along nor sends it to the wrong one. A draft's files
 * are kept as references beside its text; their bytes are already in the database (stored when attached).
 */
const prefix = 'hopbase-chat:draft:';
const filesPrefix = 'hopbase-chat:draft-files:';

export function readDraft(key: string): string {
  try {
    return sessionStorage.getItem(prefix + key) ?? '';
  } catch {
    return '';
  }
}

export function writeDraft(key: string, text: string): void {
  write(prefix + key, text === '' ? null : text);
}

function write(name: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(name);
    else sessionStorage.setItem(name, value);
  } catch {
    // Storage full or disabled: the draft simply is not kept across reloads.
  }
}

const isRef = (value: unknown): value is AttachmentRef => {
  const ref = value as Partial<AttachmentRef> | null;
  return (
    typeof ref?.id === 'string' &&
    typeof ref.name === 'string' &&
    typeof ref.mimeType === 'string' &&
    typeof ref.size === 'number' &&
    (ref.kind === 'image' || ref.kind === 'text')
  );
};

/** A draft's files; null when none were kept (a kept empty list is an edit that removed them all). */
export function readDraftFiles(key: string): AttachmentRef[] | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(filesPrefix + key) ?? 'null');
    return Array.isArray(value) ? value.filter(isRef) : null;
  } catch {
    return null;
  }
}

/** Keeps a draft's files (null: forgets them). */
export function writeDraftFiles(key: string, files: readonly AttachmentRef[] | null): void {
  write(filesPrefix + key, files === null ? null : JSON.stringify(files));
}

/** Every attachment a draft of this tab holds, by id. */
export function draftAttachmentIds(): string[] {
  try {
    return Object.keys(sessionStorage)
      .filter((name) => name.startsWith(filesPrefix))
      .flatMap((name) => readDraftFiles(name.slice(filesPrefix.length)) ?? [])
      .map((ref) => ref.id);
  } catch {
    return [];
  }
}
