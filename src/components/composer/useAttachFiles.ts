import { type ClipboardEvent, type DragEvent, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import type { AttachmentProblem } from '../../state/domain/attachmentFiles.ts';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { attachmentUses } from '../../state/storage/attachmentBlobs.ts';
import { readAttachments } from './readAttachments.ts';

/** Where files go: the list they join (as it is when they have been read) and how to add to it. */
export interface AttachTarget {
  current(): readonly AttachmentRef[];
  add(files: readonly AttachmentRef[]): void;
  /** Takes back files `add` gave when their bytes could not be stored. */
  takeBack(ids: ReadonlySet<string>): void;
}

/** Whether a drag carries files (not text or a link being dragged about the page). */
export const carriesFiles = (event: DragEvent | globalThis.DragEvent) =>
  event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Attaching files, for the composer and the edit box alike: picked, pasted or dropped files are read,
 * checked against the limits beside the files already there, and their bytes stored at once (so a reload
 * keeps a draft's files); what cannot be attached is kept in `problems`, naming the file. Handlers made
 * in a render add to that render's `target`: files still being read when the box shows another
 * conversation go to the one they were attached to.
 */
export function useAttachFiles(target: AttachTarget) {
  const { stores, session } = useServices();
  const [problems, setProblems] = useState<AttachmentProblem[]>([]);
  const [reading, setReading] = useState(0);
  const [dragging, setDragging] = useState(false);

  async function attach(files: readonly File[]) {
    if (files.length === 0) return;
    setReading((n) => n + 1);
    try {
      const { added, problems: refused } = await readAttachments(files, target.current);
      // Added at once (the next files are checked beside them); Send waits until they are stored.
      if (added.length) target.add(added.map((a) => a.ref));
      try {
        await session.attachments.put(added);
        setProblems(refused);
      } catch (error) {
        target.takeBack(new Set(added.map((a) => a.ref.id)));
        const said = error instanceof Error ? error.message : String(error);
        setProblems([
          ...refused,
          ...added.map((a) => ({ code: 'not_stored' as const, name: a.ref.name, error: said })),
        ]);
      }
    } finally {
      setReading((n) => n - 1);
    }
  }

  /** Deletes the bytes of files taken out of a draft, unless a message sent refers to them (an edit's originals). */
  function discard(ids: readonly string[]) {
    const sent = attachmentUses(Object.values(stores.conversations.getState().conversations));
    const unsent = ids.filter((id) => !sent.has(id));
    session.attachments
      .remove(unsent)
      .catch((error: unknown) => console.warn('Could not delete attachments', error));
  }

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    // Text copied along with the files (a spreadsheet's cells) is pasted too; a bare file is not text.
    if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
    void attach(files);
  };

  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  /** The handlers of the element files may be dropped on (`dragging` says when they are over it). */
  const dropZone = {
    onDragEnter: onDragOver,
    onDragOver,
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      void attach([...event.dataTransfer.files]);
    },
  };

  return { attach, discard, problems, setProblems, reading: reading > 0, dragging, dropZone, onPaste };
}
