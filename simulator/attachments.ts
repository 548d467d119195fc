/**
 * Files in a user message, in any of the three protocols' forms, so the simulated model can say what it
 * received ("I see 1 image (image/png, 12 kB) and 1 file (notes.md, 2 kB).") and the request log can show
 * the parts with their data shortened.
 *
 * Images: Chat `image_url`, Responses `input_image`, Messages `image`. Files: Chat `file`, Responses
 * `input_file`, Messages `document`, and in every protocol a text part that is one file as HopBase Chat
 * sends text files: `File: <name>`, then the text in a code fence.
 */

export type Received =
  | { kind: 'image'; mimeType: string; bytes: number | null }
  | { kind: 'file'; name: string; bytes: number | null };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const dataUrl = /^data:([^;,]*)(?:;[^,]*)?,/;

/** Bytes that base64 text decodes to (null for anything else, such as a link). */
function base64Bytes(text: string): number | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/** The media type and size a data URL holds; a link has neither. */
function fromUrl(url: unknown): { mimeType: string; bytes: number | null } {
  const text = typeof url === 'string' ? url : '';
  const match = dataUrl.exec(text);
  if (!match) return { mimeType: 'a link', bytes: null };
  return { mimeType: match[1] || 'unknown type', bytes: base64Bytes(text.slice(match[0].length)) };
}

const fileBlock = /^File: ([^\n]+)\n(`{3,})\n([\s\S]*)\n\2$/;

/** One part of a user message: a file it carries, or its text (null: neither). */
function readPart(part: Json): Received | { text: string } | null {
  switch (part.type) {
    case 'text':
    case 'input_text': {
      const text = typeof part.text === 'string' ? part.text : '';
      const file = fileBlock.exec(text);
      return file
        ? { kind: 'file', name: file[1] as string, bytes: Buffer.byteLength(file[3] as string) }
        : { text };
    }
    case 'image_url':
      return { kind: 'image', ...fromUrl(isObject(part.image_url) ? part.image_url.url : undefined) };
    case 'input_image':
      return typeof part.image_url === 'string'
        ? { kind: 'image', ...fromUrl(part.image_url) }
        : { kind: 'image', mimeType: 'an uploaded file', bytes: null };
    case 'image': {
      const source = isObject(part.source) ? part.source : {};
      return source.type === 'base64'
        ? { kind: 'image', mimeType: String(source.media_type), bytes: base64Bytes(String(source.data)) }
        : { kind: 'image', mimeType: 'a link', bytes: null };
    }
    case 'file': {
      const file = isObject(part.file) ? part.file : {};
      const data = typeof file.file_data === 'string' ? file.file_data : '';
      const bytes = dataUrl.test(data) ? fromUrl(data).bytes : base64Bytes(data);
      return { kind: 'file', name: String(file.filename ?? file.file_id ?? 'file'), bytes };
    }
    case 'input_file':
      return {
        kind: 'file',
        name: String(part.filename ?? part.file_id ?? part.file_url ?? 'file'),
        bytes: typeof part.file_data === 'string' ? fromUrl(part.file_data).bytes : null,
      };
    case 'document': {
      const source = isObject(part.source) ? part.source : {};
      const data = String(source.data ?? '');
      return {
        kind: 'file',
        name: String(part.title ?? 'document'),
        bytes:
          source.type === 'text'
            ? Buffer.byteLength(data)
            : source.type === 'base64'
              ? base64Bytes(data)
              : null,
      };
    }
    default:
      return typeof part.text === 'string' ? { text: part.text } : null;
  }
}

/** A user message's content: its text (file blocks left out) and the files it carries. */
export function readUserContent(content: unknown): { text: string; received: Received[] } {
  if (typeof content === 'string') return { text: content, received: [] };
  const texts: string[] = [];
  const received: Received[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    const read = isObject(part) ? readPart(part) : null;
    if (read === null) continue;
    if ('text' in read) {
      if (read.text) texts.push(read.text);
    } else received.push(read);
  }
  return { text: texts.join('\n'), received };
}

function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function counted(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/** "I see 1 image (image/png, 12 kB) and 1 file (notes.md, 2 kB)."; empty when nothing was attached. */
export function describeReceived(received: readonly Received[]): string {
  const images = received.filter((r) => r.kind === 'image');
  const files = received.filter((r) => r.kind === 'file');
  const detail = (first: string, bytes: number | null) =>
    bytes === null ? first : `${first}, ${size(bytes)}`;
  const groups = [
    images.length
      ? `${counted(images.length, 'image')} (${images.map((i) => detail(i.mimeType, i.bytes)).join('; ')})`
      : '',
    files.length
      ? `${counted(files.length, 'file')} (${files.map((f) => detail(f.name, f.bytes)).join('; ')})`
      : '',
  ].filter(Boolean);
  return groups.length ? `I see ${groups.join(' and ')}.` : '';
}

const dataKeys = new Set(['url', 'image_url', 'data', 'file_data']);
const SHORT = 32;

/** A data URL or base64 text cut to its start and its length: `data:image/png;base64,iVBORw0K…[1,234 chars]`. */
function shortened(text: string): string | null {
  if (text.length <= 200) return null;
  const prefix = dataUrl.exec(text)?.[0] ?? '';
  const payload = text.slice(prefix.length);
  if (!/^[A-Za-z0-9+/=]+$/.test(payload.slice(0, 4096))) return null;
  return `${prefix}${payload.slice(0, SHORT)}…[${payload.length.toLocaleString('en-US')} chars]`;
}

/** `value` with every image or file's data shortened; the same object when there was none. */
export function shortenData(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(shortenData);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (!isObject(value)) return value;
  let changed = false;
  const out: Json = {};
  for (const [key, field] of Object.entries(value)) {
    const next =
      typeof field === 'string'
        ? dataKeys.has(key)
          ? (shortened(field) ?? field)
          : field
        : shortenData(field);
    changed ||= next !== field;
    out[key] = next;
  }
  return changed ? out : value;
}
