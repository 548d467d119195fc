import type { Context } from 'hono';

/** A request body over the size a route takes. */
export class BodyTooLarge extends Error {}

/**
 * A request's body, read up to `maxBytes` and no further (whatever its Content-Length says, sent in chunks
 * or not). Read from the stream itself: the server's requests are not the global `Request`, so a body
 * cannot be buffered into a new one (as hono's `bodyLimit` does) and read again.
 */
export async function readBody(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw new BodyTooLarge();
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(read.value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/** The body as JSON (SyntaxError when it is not), read as `readBody` reads it. */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  return JSON.parse(new TextDecoder().decode(await readBody(c, maxBytes)));
}
