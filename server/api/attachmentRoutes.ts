import { Hono } from 'hono';
import * as v from 'valibot';
import type { TeamAuth } from '../auth/teamAuth.ts';
import type { Storage } from '../db/storage.ts';
import { type ApiEnv, signedIn } from './signedIn.ts';
import { bodyBytes, refused, uploadErrors } from './uploads.ts';

/** Shown in the page when opened: the image types the app attaches. Not SVG, which may hold script. */
const shownInline = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/**
 * However a stored file is opened (a link, a new tab, another site's `<img>`), nothing in it runs in this
 * origin: no script or plugin, a unique origin of its own (sandbox), no framing, no type sniffed into
 * another (an HTML file stored as `image/png` stays an image), and no other site may embed it.
 */
const fileHeaders = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

/** `Content-Disposition` with the file's name: in ASCII for old clients, exact in RFC 8187's form. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** `?conversation=<id>&name=<file name>` (the storage checks the id). */
const uploadQuery = v.object(
  { conversation: v.string(), name: v.optional(v.string(), '') },
  '?conversation= naming the conversation the file is attached in',
);

/**
 * A person's attached files (`/api/attachments/:id`): the bytes as the body, their type as
 * `Content-Type`; read back as they were stored, never able to run in the app's origin.
 */
export function attachmentRoutes(auth: TeamAuth, storage: Storage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('/api/attachments/*', signedIn(auth, storage));
  app.onError(uploadErrors);

  app.put('/api/attachments/:id', async (c) => {
    const { conversation, name } = v.parse(uploadQuery, c.req.query());
    const bytes = await bodyBytes(c, storage.limits, 'attachmentBytes');
    if (bytes instanceof Response) return bytes;
    const written = await c.get('person').attachments.put({
      id: c.req.param('id'),
      conversationId: conversation,
      name,
      // The type itself: its parameters (a charset) are the reader's to work out again.
      mimeType: c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '',
      bytes,
    });
    return written.ok ? c.json(written.info) : refused(c, written, 'file');
  });

  app.get('/api/attachments/:id', async (c) => {
    const file = await c.get('person').attachments.file(c.req.param('id'));
    if (!file) return c.json({ error: 'No such file.' }, 404);
    const { info, bytes } = file;
    // The database drivers' buffers are never shared memory.
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      ...fileHeaders,
      'content-type': info.mimeType,
      'content-disposition': disposition(
        shownInline.has(info.mimeType) ? 'inline' : 'attachment',
        info.name || info.id,
      ),
      etag: `"${info.sha256}"`,
    });
  });

  app.delete('/api/attachments/:id', async (c) =>
    (await c.get('person').attachments.delete(c.req.param('id')))
      ? c.body(null, 204)
      : c.json({ error: 'No such file.' }, 404),
  );

  return app;
}
