import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import * as v from 'valibot';
import type { TeamAuth } from '../auth/teamAuth.ts';
import type { ChangeEvent } from '../db/changes.ts';
import type { ChangedConversation, PageCursor } from '../db/conversations.ts';
import { TooLarge } from '../db/limits.ts';
import type { Storage } from '../db/storage.ts';
import { BodyTooLarge, readJson } from './body.ts';
import { type ApiEnv, signedIn } from './signedIn.ts';

/** What waits to be written on a change stream: a change, a resync, or a keepalive comment. */
type Queued = ChangeEvent | { type: 'keepalive' };

/** Above the largest conversation the storage takes: its own limit answers with the clearer 413. */
const MAX_JSON_BODY = 12_000_000;
/** How often a quiet change stream says it is alive (proxies close idle connections). */
const KEEPALIVE_MS = 15_000;
/** Open change streams per person: every tab of every device holds one. */
const MAX_STREAMS_PER_PERSON = 32;
/** Conversations read in one request. */
const MAX_BATCH = 100;

const writeBody = v.object({
  baseVersion: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  record: v.unknown(),
});
const settingsBody = v.object({
  baseVersion: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  settings: v.record(v.string(), v.unknown()),
});

/** `<updatedAt>.<id>`, as `next` is written: anything else starts no page (a cursor is the client's to send back). */
function readCursor(text: string | undefined): PageCursor | undefined | null {
  if (text === undefined || text === '') return undefined;
  const dot = text.indexOf('.');
  const updatedAt = Number(text.slice(0, dot));
  return dot > 0 && Number.isSafeInteger(updatedAt) ? { updatedAt, id: text.slice(dot + 1) } : null;
}
const writeCursor = (cursor: PageCursor | undefined) => (cursor ? `${cursor.updatedAt}.${cursor.id}` : null);

/** A change said on the stream: what changed, never its content (the page reads that). */
function changeMessage(change: {
  kind: 'conversation' | 'settings';
  id: string;
  version: number;
  change: number;
  deleted: boolean;
}) {
  const { kind, id, version, deleted } = change;
  return { id: String(change.change), event: 'change', data: JSON.stringify({ kind, id, version, deleted }) };
}

/**
 * A page of missed changes as one event, each with its place (`change`): a new device catching up on a
 * long history hears one event per thousand changes, not one per change.
 */
function changesMessage(page: readonly ChangedConversation[]) {
  const changes = page.map(({ id, version, deleted, change }) => ({
    kind: 'conversation',
    id,
    version,
    deleted,
    change,
  }));
  return { id: String(page.at(-1)!.change), event: 'changes', data: JSON.stringify(changes) };
}

/**
 * A person's data in team mode (`/api/*`): their conversations (paged, searched in the database, written from
 * the version they were made from), their settings, and a stream of their changes. Every route knows the
 * person only from their session: no id in a path or body can name someone else's data. Anything that
 * changes something comes from the app's own page.
 */
export function apiRoutes(auth: TeamAuth, storage: Storage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const streams = new Map<string, number>();

  app.use('/api/*', signedIn(auth, storage));
  app.onError((error, c) => {
    if (error instanceof TooLarge) return c.json({ error: `Too large to keep: ${error.message}.` }, 413);
    if (error instanceof BodyTooLarge) return c.json({ error: 'The request is too large.' }, 413);
    if (v.isValiError(error) || error instanceof SyntaxError)
      return c.json({ error: `Not a valid request: ${error.message}` }, 400);
    throw error;
  });

  app.get('/api/conversations', async (c) => {
    const after = readCursor(c.req.query('after'));
    if (after === null) return c.json({ error: 'Not a page cursor: ask again without `after`.' }, 400);
    const limit = c.req.query('limit') === undefined ? undefined : Number(c.req.query('limit'));
    const query = c.req.query('q')?.trim();
    const { conversations } = c.get('person');
    if (!query) {
      const page = await conversations.list({ limit, after });
      return c.json({ items: page.items, next: writeCursor(page.next) });
    }
    // A search says how many match in all, as the sidebar does; the first page comes with it.
    const [page, total] = await Promise.all([
      conversations.search(query, { limit, after }),
      after ? undefined : conversations.searchCount(query),
    ]);
    return c.json({ items: page.items, next: writeCursor(page.next), ...(total !== undefined && { total }) });
  });

  app.get('/api/conversations/:id', async (c) => {
    const state = await c.get('person').conversations.get(c.req.param('id'));
    if (!state) return c.json({ error: 'No such conversation.' }, 404);
    return c.json(state);
  });

  /** Several conversations at once (a device catching up reads what changed in pages, not one by one). */
  app.get('/api/conversation-records', async (c) => {
    const ids = c.req.queries('id') ?? [];
    if (ids.length > MAX_BATCH) return c.json({ error: `At most ${MAX_BATCH} conversations at once.` }, 400);
    const { conversations } = c.get('person');
    const found = await Promise.all([...new Set(ids)].map((id) => conversations.get(id)));
    return c.json({ items: found.filter((state) => state !== undefined) });
  });

  app.put('/api/conversations/:id', async (c) => {
    const { baseVersion, record } = v.parse(writeBody, await readJson(c, MAX_JSON_BODY));
    const id = c.req.param('id');
    if ((record as { id?: unknown } | null)?.id !== id)
      return c.json({ error: 'The record’s id is not the one in the address.' }, 400);
    const written = await c
      .get('person')
      .conversations.put(v.parse(v.looseObject({}), record) as never, baseVersion);
    if (written.ok) return c.json({ version: written.version, change: written.change });
    // Another device wrote first (or it was deleted): the client merges with what is stored and writes again.
    return written.current
      ? c.json({ error: 'Changed elsewhere since.', current: written.current }, 409)
      : c.json({ error: 'No such conversation at that version.' }, 404);
  });

  app.delete('/api/conversations/:id', async (c) => {
    const deleted = await c.get('person').conversations.delete(c.req.param('id'));
    return deleted ? c.json(deleted) : c.json({ error: 'Already deleted.' }, 404);
  });

  app.get('/api/settings', async (c) => {
    const stored = await c.get('person').settings.get();
    return stored ? c.json(stored) : c.json({ version: 0, change: 0, document: {} });
  });

  app.put('/api/settings', async (c) => {
    const { baseVersion, settings } = v.parse(settingsBody, await readJson(c, MAX_JSON_BODY));
    // The gateway key stays in the browser that holds it: never on the server, never on another device.
    const { apiKey: _key, ...kept } = settings;
    const written = await c.get('person').settings.put(kept, baseVersion);
    if (written.ok) return c.json({ version: written.version, change: written.change });
    return c.json({ error: 'Changed elsewhere since.', current: written.current ?? null }, 409);
  });

  /**
   * The person's changes as Server-Sent Events, each with its place in the order of changes as its `id`:
   * a reconnecting page (`Last-Event-ID`, or `?since=`) first gets what it missed, then the live ones.
   * With `?batch=1` what it missed comes in `changes` events, a page of them each (a page that asks knows
   * them; one that does not, an older one, still hears each change on its own).
   */
  app.get('/api/changes', async (c) => {
    const person = c.get('person');
    const open = streams.get(person.userId) ?? 0;
    if (open >= MAX_STREAMS_PER_PERSON)
      return c.json({ error: 'Too many open change streams.' }, 429, { 'retry-after': '30' });
    const since = Number(c.req.header('last-event-id') ?? c.req.query('since') ?? 0);
    if (!Number.isSafeInteger(since) || since < 0) return c.json({ error: 'Not a change number.' }, 400);
    const batched = c.req.query('batch') === '1';
    streams.set(person.userId, open + 1);
    return streamSSE(c, async (stream) => {
      let sent = since;
      const queue: Queued[] = [];
      let wake: (() => void) | undefined;
      // Following first, reading after: a change committed in between is heard (and sent once).
      const stop = storage.changes.subscribe(person.userId, (event) => {
        queue.push(event);
        wake?.();
      });
      const keepalive = setInterval(() => {
        queue.push({ type: 'keepalive' });
        wake?.();
      }, KEEPALIVE_MS);
      stream.onAbort(() => wake?.());
      try {
        for (let page = await person.conversations.changesSince(sent); page.length; ) {
          if (batched) await stream.writeSSE(changesMessage(page));
          else
            for (const change of page)
              await stream.writeSSE(changeMessage({ kind: 'conversation', ...change }));
          sent = page.at(-1)!.change;
          page = page.length >= 1_000 ? await person.conversations.changesSince(sent) : [];
        }
        await stream.writeSSE({ event: 'ready', data: '{}' });
        while (!stream.aborted) {
          const event = queue.shift();
          if (!event) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
            continue;
          }
          if (event.type === 'keepalive') await stream.write(': keepalive\n\n');
          // The feed's connection was lost and is back: what it missed, the page reads again.
          else if (event.type === 'resync') await stream.writeSSE({ event: 'resync', data: '{}' });
          else if (event.change > sent) {
            await stream.writeSSE(changeMessage(event));
            sent = event.change;
          }
        }
      } finally {
        stop();
        clearInterval(keepalive);
        const left = (streams.get(person.userId) ?? 1) - 1;
        if (left > 0) streams.set(person.userId, left);
        else streams.delete(person.userId);
      }
    });
  });

  return app;
}
