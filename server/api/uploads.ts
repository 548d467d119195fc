import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Context, ErrorHandler } from 'hono';
import * as v from 'valibot';
import type { Refused } from '../db/database.ts';
import { type StorageLimits, TooLarge } from '../db/limits.ts';
import { BodyTooLarge, readBody } from './body.ts';
import type { ApiEnv } from './signedIn.ts';

/**
 * What the routes that keep a person's files, recordings and request bodies share: bodies read up to the
 * storage's own limits (`server/db/limits.ts`), gzip welcome, and refusals in words.
 */

const unzip = promisify(gunzip);

/** What each limit weighs, as a 413 names it. */
const pieces: Record<keyof StorageLimits, string> = {
  conversationBytes: 'a conversation',
  recordingBytes: 'a recording',
  requestBytes: 'a request body',
  attachmentBytes: 'a file',
  settingsBytes: 'the settings',
};

function tooLarge(c: Context<ApiEnv>, what: keyof StorageLimits, limit: number) {
  return c.json({ error: `Too large to keep: ${pieces[what]} may be at most ${limit} bytes.` }, 413);
}

/** What the storage refuses in a request: too large (413), or not of its shape (400). */
export const uploadErrors: ErrorHandler<ApiEnv> = (error, c) => {
  if (error instanceof TooLarge) return tooLarge(c, error.what, error.limit);
  if (v.isValiError(error)) return c.json({ error: `Not a valid request: ${error.message}` }, 400);
  throw error;
};

/**
 * The body's bytes, at most the storage's limit for `what` as sent (past it, 413 before the rest is read),
 * unzipped when sent with `Content-Encoding: gzip` (a recording is a tenth of its size so), and never past
 * the limit unzipped either: a small bomb stays small. A Response: the body is refused.
 */
export async function bodyBytes(
  c: Context<ApiEnv>,
  limits: StorageLimits,
  what: keyof StorageLimits,
): Promise<Uint8Array | Response> {
  let sent: Uint8Array;
  try {
    sent = await readBody(c, limits[what]);
  } catch (error) {
    if (error instanceof BodyTooLarge) return tooLarge(c, what, limits[what]);
    throw error;
  }
  const encoding = c.req.header('content-encoding')?.trim().toLowerCase() || 'identity';
  if (encoding === 'identity') return sent;
  if (encoding !== 'gzip')
    return c.json({ error: 'Send the body as it is, or gzip-compressed (Content-Encoding: gzip).' }, 415);
  try {
    return new Uint8Array(await unzip(sent, { maxOutputLength: limits[what] }));
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE'
      ? tooLarge(c, what, limits[what])
      : c.json({ error: 'Not a valid request: the body is not gzip data.' }, 400);
  }
}

/** The body as JSON (see `bodyBytes`), or a Response: refused. */
export async function bodyJson(
  c: Context<ApiEnv>,
  limits: StorageLimits,
  what: keyof StorageLimits,
): Promise<{ json: unknown } | Response> {
  const bytes = await bodyBytes(c, limits, what);
  if (bytes instanceof Response) return bytes;
  try {
    return { json: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return c.json({ error: 'Not a valid request: the body is not JSON in UTF-8.' }, 400);
  }
}

/**
 * A write refused: 409 when another is kept under the id (nothing is written over), 410 when its
 * conversation was deleted.
 */
export function refused(c: Context<ApiEnv>, { reason }: Refused, what: string) {
  return reason === 'different'
    ? c.json({ error: `A different ${what} is stored under this id.` }, 409)
    : c.json({ error: `Its conversation was deleted: the ${what} is not kept.` }, 410);
}
