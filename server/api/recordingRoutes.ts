import { Hono } from 'hono';
import { compress } from 'hono/compress';
import * as v from 'valibot';
import type { TeamAuth } from '../auth/teamAuth.ts';
import type { Storage } from '../db/storage.ts';
import { type ApiEnv, signedIn } from './signedIn.ts';
import { bodyJson, refused, uploadErrors } from './uploads.ts';

/** `?conversation=<id>`: the attempt's conversation, whose deletion takes the attempt's records with it. */
const attemptQuery = v.object(
  { conversation: v.string() },
  '?conversation= naming the conversation the attempt is in',
);
/** The browser's `request:<attemptId>` record (`StoredRequest`); the storage checks the body. */
const storedRequest = v.object({ body: v.unknown() });

/**
 * The records of a person's attempts, as the browser's own hold them (`src/state/formats/records.ts`):
 * `/api/recordings/:attemptId`, the recording of its stream (`StoredTrace`, `{items, raw}`), which may grow
 * while the attempt streams; `/api/requests/:attemptId`, the body it sent (`StoredRequest`, `{body}`),
 * written once. Either may be sent gzip-compressed and is read back compressed when the client accepts it:
 * a recording is mostly repeated event names and JSON keys.
 */
export function recordingRoutes(auth: TeamAuth, storage: Storage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const guard = signedIn(auth, storage);
  app.use('/api/recordings/*', guard, compress());
  app.use('/api/requests/*', guard, compress());
  app.onError(uploadErrors);

  app.put('/api/recordings/:attemptId', async (c) => {
    const { conversation } = v.parse(attemptQuery, c.req.query());
    const sent = await bodyJson(c, storage.limits, 'recordingBytes');
    if (sent instanceof Response) return sent;
    const written = await c.get('person').recordings.put(c.req.param('attemptId'), conversation, sent.json);
    return written.ok ? c.body(null, 204) : refused(c, written, 'recording');
  });

  app.get('/api/recordings/:attemptId', async (c) => {
    const stored = await c.get('person').recordings.get(c.req.param('attemptId'));
    return stored
      ? c.json({ items: stored.items, raw: stored.raw })
      : c.json({ error: 'No such recording.' }, 404);
  });

  app.put('/api/requests/:attemptId', async (c) => {
    const { conversation } = v.parse(attemptQuery, c.req.query());
    const sent = await bodyJson(c, storage.limits, 'requestBytes');
    if (sent instanceof Response) return sent;
    const { body } = v.parse(storedRequest, sent.json);
    const written = await c.get('person').requests.put(c.req.param('attemptId'), conversation, body);
    return written.ok ? c.body(null, 204) : refused(c, written, 'request body');
  });

  app.get('/api/requests/:attemptId', async (c) => {
    const body = await c.get('person').requests.get(c.req.param('attemptId'));
    return body ? c.json({ body }) : c.json({ error: 'No such request body.' }, 404);
  });

  return app;
}
