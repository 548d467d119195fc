import type { IncomingMessage, ServerResponse } from 'node:http';

/** A connect-style handler; without `next`, paths it does not serve get a 404. */
export type Handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface Body {
  text: string;
  size: number;
  tooLarge: boolean;
}

/** Reads the whole body, keeping at most `limit` bytes; the rest is drained so the socket stays usable. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  const tooLarge = size > limit;
  return { text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), size, tooLarge };
}

export function isJsonContentType(value: string | undefined): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

const ALLOWED_HEADERS =
  'authorization, content-type, x-api-key, anthropic-version, anthropic-beta, ' +
  'anthropic-dangerous-direct-browser-access, openai-organization, openai-project';

/** Lets a page on another origin call the gateway and read the headers a client needs for retries. */
export function applyCors(res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', 'retry-after, x-request-id, request-id, x-should-retry');
}

export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    // Echo what the browser asks for: the SDKs add x-stainless-* headers that change between versions.
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? ALLOWED_HEADERS,
    'access-control-max-age': '86400',
  });
  res.end();
}
