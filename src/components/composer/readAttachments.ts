import {
  type AttachmentProblem,
  admitFiles,
  classifyFile,
  isUtf8Text,
  notTextProblem,
  sniffBytes,
} from '../../state/domain/attachmentFiles.ts';
import { newId } from '../../state/domain/ids.ts';
import type { AttachmentRef } from '../../state/domain/types.ts';
import type { NewAttachment } from '../../state/storage/attachmentBlobs.ts';

export interface ReadAttachments {
  added: NewAttachment[];
  /** Why each file was refused, naming it. */
  problems: AttachmentProblem[];
}

/** The bytes of a file, or why they could not be read (a file moved or deleted since it was picked). */
async function bytesOf(blob: Blob, name: string): Promise<Uint8Array | AttachmentProblem> {
  try {
    return new Uint8Array(await blob.arrayBuffer());
  } catch (error) {
    return { code: 'unreadable', name, error: error instanceof Error ? error.message : String(error) };
  }
}

const isProblem = (read: object): read is AttachmentProblem => 'code' in read;

/** One file as an attachment, or why it cannot be one: its first bytes decide its kind, a text file is read whole. */
async function readOne(file: File): Promise<NewAttachment | AttachmentProblem> {
  const head = await bytesOf(file.slice(0, sniffBytes), file.name);
  if (isProblem(head)) return head;
  const kind = classifyFile(file, head);
  if (!kind.ok) return kind.problem;
  if (kind.kind === 'text' && file.size > head.length) {
    const all = await bytesOf(file, file.name);
    if (isProblem(all)) return all;
    if (!isUtf8Text(all)) return notTextProblem(file);
  }
  return {
    ref: { id: newId('file'), name: file.name, mimeType: kind.mimeType, size: file.size, kind: kind.kind },
    // Typed as what its bytes are: an image goes to the API with this type.
    blob: file.slice(0, file.size, kind.mimeType),
  };
}

/**
 * Reads picked, pasted or dropped files: those that may be attached beside `current()` (the files already
 * attached when the reading is done), and why each of the others was refused.
 */
export async function readAttachments(
  files: readonly File[],
  current: () => readonly AttachmentRef[],
): Promise<ReadAttachments> {
  const read = await Promise.all(files.map(readOne));
  const problems = read.filter(isProblem);
  const candidates = read.filter((r): r is NewAttachment => !isProblem(r));
  const { admitted, problems: refused } = admitFiles(
    current(),
    candidates.map((c) => ({ ...c.ref, attachment: c })),
  );
  return { added: admitted.map((a) => a.attachment), problems: [...problems, ...refused] };
}
