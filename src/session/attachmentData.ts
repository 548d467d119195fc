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
 * same blobs give the same bytes, so a retry sends what the first attempt sent. Throws `AttachmentMissing`
 * naming the file when a blob is gone.
 */
export async function bodyWithAttachments(
  body: Record<string, unknown>,
  refOf: (id: string) => AttachmentRef | undefined,
  blobs: AttachmentBlobs,
): Promise<string> {
  let json = JSON.stringify(body);
  const ids = new Set([...json.matchAll(placeholderPattern)].map((match) => match[1] as string));
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
      json = json.replaceAll(token, () => data);
    } else {
      const text = new TextDecoder().decode(bytes);
      const block = inJson(textFileBlock(ref.name, text));
      const escaped = inJson(text);
      json = json
        .replaceAll(inJson(textFileBlock(ref.name, token)), () => block)
        .replaceAll(token, () => escaped);
    }
  }
  return json;
}
