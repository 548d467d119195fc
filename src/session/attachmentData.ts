import { textFileBlock } from '../core/index.ts';
import { placeholderPattern, placeholderToken } from '../state/domain/attachmentPlaceholders.ts';
import { toBase64 } from '../state/domain/base64.ts';
import type { AttachmentRef } from '../state/domain/types.ts';
import type { AttachmentBlobs } from '../state/storage/attachmentBlobs.ts';

/** Why a request with attachments cannot go out: one of its files is no longer stored here. */
export class AttachmentMissing extends Error {
  readonly code = 'attachment_missing';
}

/** A string as it stands inside JSON text, quotes left off: JSON escapes character by character. */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * The request body as sent: JSON, each attachment's placeholder replaced by its bytes (an image's base64)
 * or its text (a text file's block, its fence fitted to the real text), read from `blobs` each time. The
 * same blobs give the same bytes, so a retry sends what the first attempt sent. Rejects with
 * `AttachmentMissing` naming the file when a blob is gone. A body with no attachment is ready at once, a
 * string rather than a promise: its request leaves in the same task as the send, before the page draws
 * the message it answers.
 */
export function bodyWithAttachments(
  body: Record<string, unknown>,
  refOf: (id: string) => AttachmentRef | undefined,
  blobs: AttachmentBlobs,
): string | Promise<string> {
  const json = JSON.stringify(body);
  const ids = new Set([...json.matchAll(placeholderPattern)].map((match) => match[1] as string));
  return ids.size === 0 ? json : withAttachments(json, ids, refOf, blobs);
}

async function withAttachments(
  json: string,
  ids: ReadonlySet<string>,
  refOf: (id: string) => AttachmentRef | undefined,
  blobs: AttachmentBlobs,
): Promise<string> {
  let sent = json;
  for (const id of ids) {
    const ref = refOf(id);
    const blob = await blobs.get(id);
    if (!ref || !blob)
      throw new AttachmentMissing(
        `${ref ? ref.name : 'An attached file'} is no longer stored in this browser (its storage was full when it was sent, or has been cleared since), so this request cannot be sent. Send the message again with the file attached.`,
      );
    const token = placeholderToken(id);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    // Replaced by functions: a replacement string would read `$&` and the like in the file as patterns.
    if (ref.kind === 'image') {
      const data = toBase64(bytes);
      sent = sent.replaceAll(token, () => data);
    } else {
      const text = new TextDecoder().decode(bytes);
      const block = inJson(textFileBlock(ref.name, text));
      const escaped = inJson(text);
      sent = sent
        .replaceAll(inJson(textFileBlock(ref.name, token)), () => block)
        .replaceAll(token, () => escaped);
    }
  }
  return sent;
}
