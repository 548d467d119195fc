import type { AttachmentRef } from './types.ts';

/**
 * What may be attached to a message, decided before anything is stored or sent: images the three APIs all
 * take (PNG, JPEG, WebP, GIF, told by their first bytes, which is what the APIs check too), and text or code
 * files in UTF-8. Every refusal names the file and says why by a code and its figures; the UI words it.
 */

export const attachmentLimits = {
  files: 10,
  /** Base64 makes it 5 MB: Anthropic's cap for one image. */
  imageBytes: 3_750_000,
  /** About 125,000 tokens of text. */
  textBytes: 500_000,
  /** All files of one message; base64 makes it 20 MB, well inside a 32 MB request. */
  messageBytes: 15_000_000,
} as const;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

/** How many first bytes `classifyFile` looks at. */
export const sniffBytes = 4096;

const imageExtensions = new Set([
  'png',
  'jpg',
  'jpeg',
  'webp',
  'gif',
  'heic',
  'heif',
  'avif',
  'bmp',
  'tif',
  'tiff',
  'ico',
  'jxl',
]);

const textExtensions = new Set([
  'txt',
  'md',
  'markdown',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'yaml',
  'yml',
  'toml',
  'ini',
  'xml',
  'html',
  'css',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'tsx',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'swift',
  'c',
  'h',
  'cpp',
  'hpp',
  'cs',
  'php',
  'sh',
  'bash',
  'zsh',
  'sql',
  'log',
  'env',
  'svg',
  'tex',
  'lua',
  'r',
  'scala',
  'vue',
]);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

/** The image type the first bytes announce, or null. */
export function sniffImage(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (
    startsWith(head, [0x47, 0x49, 0x46, 0x38]) &&
    (head[4] === 0x37 || head[4] === 0x39) &&
    head[5] === 0x61
  )
    return 'image/gif';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return null;
}

/**
 * Whether the bytes are UTF-8 text: valid, with no NUL byte (which no text file has and most binary files
 * do). `cut`: the bytes are a file's beginning, so a character split at the end is fine.
 */
export function isUtf8Text(bytes: Uint8Array, cut = false): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cut });
    return true;
  } catch {
    return false;
  }
}

export interface FileFacts {
  name: string;
  /** The type the browser declared (often empty, sometimes wrong: `.ts` is said to be video). */
  type: string;
  size: number;
}

/** Why a file is refused, naming it: sizes and limits in bytes, `extension` upper case (or empty). */
export type AttachmentProblem =
  | { code: 'empty' | 'not_utf8' | 'unsupported'; name: string }
  | {
      code: 'image_too_large' | 'text_too_large' | 'message_too_large';
      name: string;
      bytes: number;
      limit: number;
    }
  | { code: 'image_kind'; name: string; extension: string }
  | { code: 'too_many'; name: string; limit: number }
  /** The browser could not read it (moved or deleted since it was picked): `error` is the browser's own words. */
  | { code: 'unreadable'; name: string; error: string }
  /** Read, but the browser would not store it (its storage full): `error` is the browser's own words. */
  | { code: 'not_stored'; name: string; error: string };

export type Classified =
  | { ok: true; kind: 'image'; mimeType: ImageType }
  | { ok: true; kind: 'text'; mimeType: string }
  | { ok: false; problem: AttachmentProblem };

/** What a person is told when a text file's content turns out not to be UTF-8 text. */
export function notTextProblem({ name }: Pick<FileFacts, 'name'>): AttachmentProblem {
  return { code: textExtensions.has(extensionOf(name)) ? 'not_utf8' : 'unsupported', name };
}

/** Image or text, from the file's first `sniffBytes` bytes (and its name for the message), within its kind's size. */
export function classifyFile(file: FileFacts, head: Uint8Array): Classified {
  const { name, size } = file;
  if (size === 0) return { ok: false, problem: { code: 'empty', name } };
  const image = sniffImage(head);
  const { imageBytes, textBytes } = attachmentLimits;
  if (image)
    return size > imageBytes
      ? { ok: false, problem: { code: 'image_too_large', name, bytes: size, limit: imageBytes } }
      : { ok: true, kind: 'image', mimeType: image };
  const extension = extensionOf(name);
  if ((file.type.startsWith('image/') && file.type !== 'image/svg+xml') || imageExtensions.has(extension))
    return { ok: false, problem: { code: 'image_kind', name, extension: extension.toUpperCase() } };
  if (!isUtf8Text(head, size > head.length)) return { ok: false, problem: notTextProblem(file) };
  if (size > textBytes)
    return { ok: false, problem: { code: 'text_too_large', name, bytes: size, limit: textBytes } };
  return { ok: true, kind: 'text', mimeType: file.type.startsWith('text/') ? file.type : 'text/plain' };
}

/**
 * Which of `incoming` (already classified, in order) fit beside the files already attached: at most
 * `attachmentLimits.files`, at most `attachmentLimits.messageBytes` together. The rest are refused, by name.
 */
export function admitFiles<T extends Pick<AttachmentRef, 'name' | 'size'>>(
  current: readonly Pick<AttachmentRef, 'size'>[],
  incoming: readonly T[],
): { admitted: T[]; problems: AttachmentProblem[] } {
  const { files, messageBytes } = attachmentLimits;
  let count = current.length;
  let total = current.reduce((sum, f) => sum + f.size, 0);
  const admitted: T[] = [];
  const problems: AttachmentProblem[] = [];
  for (const file of incoming) {
    if (count >= files) problems.push({ code: 'too_many', name: file.name, limit: files });
    else if (total + file.size > messageBytes)
      problems.push({
        code: 'message_too_large',
        name: file.name,
        bytes: total + file.size,
        limit: messageBytes,
      });
    else {
      admitted.push(file);
      count++;
      total += file.size;
    }
  }
  return { admitted, problems };
}
