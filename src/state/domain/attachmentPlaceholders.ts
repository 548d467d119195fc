import type { AttachmentContent } from '../../core/index.ts';
import type { AttachmentRef } from './types.ts';

/**
 * A request is built and stored with a short placeholder where each attachment's bytes go (an image's
 * base64, a text file's text), so a stored attempt stays small and shows in the inspector as
 * `⟦attachment:file_…⟧`. The bytes are put in when the request is sent, each time from the same blob:
 * Retry and Regenerate send exactly what was sent the first time (`src/session/attachmentData.ts`).
 */

export function placeholderToken(id: string): string {
  return `⟦attachment:${id}⟧`;
}

/** Every placeholder in a text; group 1 is the attachment's id. */
export const placeholderPattern = /⟦attachment:([\w-]+)⟧/g;

/** The attachment as a request builder takes it, with the placeholder for its bytes. */
export function placeholderContent(ref: AttachmentRef): AttachmentContent {
  return ref.kind === 'image'
    ? { kind: 'image', mimeType: ref.mimeType, data: placeholderToken(ref.id) }
    : { kind: 'text', name: ref.name, text: placeholderToken(ref.id) };
}
