import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../simulator/http.ts';
import { isClientId } from '../db/database.ts';
import { mayServePersonalData } from '../security.ts';
import { EventStream } from './eventStream.ts';
import { lastEventId } from './events.ts';
import type { Relay } from './relay.ts';

/**
 * `/api/answers/…` (docs/relay.md): resume, stop, forget. Served in both modes (in single-person mode
 * the only `/api` there is). The person is the session's (team mode) and every answer is looked up under
 * them, so another person's id, a forgotten one and one never used all get the same 404. Another site's
 * page gets nothing, not even a read; a stop or a forget comes from the app's own page only.
 */

const PREFIX = '/api/answers/';

export function isAnswersPath(path: string): boolean {
  return path.startsWith(PREFIX) || path === '/api/answers';
}

const noStore = { 'cache-control': 'no-store' };

const ROUTES = { events: 'GET', stop: 'POST', '': 'DELETE' } as const;

/** The attempt id in a path segment: decoded, and an id at all (else it names nothing). */
function attemptIdIn(segment: string): string | undefined {
  try {
    const id = decodeURIComponent(segment);
    return isClientId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

export async function serveAnswers(
  relay: Relay,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  /** The person asking; undefined: nobody signed in (401). */
  owner: string | undefined,
): Promise<void> {
  if (owner === undefined) return sendJson(res, 401, { error: 'Not signed in.' }, noStore);
  if (!mayServePersonalData(req))
    return sendJson(res, 403, { error: 'Cross-site request refused.' }, noStore);
  const [segment = '', action = '', ...rest] = path.slice(PREFIX.length).split('/');
  const method = rest.length === 0 ? ROUTES[action as keyof typeof ROUTES] : undefined;
  if (!segment || method === undefined)
    return sendJson(res, 404, { error: 'No such address, or not with this method.' }, noStore);
  if (req.method !== method)
    return sendJson(res, 405, { error: `Use ${method} here.` }, { ...noStore, allow: method });
  const attemptId = attemptIdIn(segment);
  const key = { owner, attemptId: attemptId ?? '' };
  const none = () => sendJson(res, 404, { error: 'No such answer.' }, noStore);
  if (attemptId === undefined) return none();

  if (action === 'events') {
    const after = lastEventId(req.headers['last-event-id']);
    if (after === null)
      return sendJson(
        res,
        400,
        { error: 'Last-Event-ID must be the id of an event: a whole number from 0 to 2147483647.' },
        noStore,
      );
    const page = new EventStream(res, after);
    const stop = await relay.follow(key, after, page.send);
    if (!stop) {
      if (!res.headersSent) none();
      return;
    }
    page.open();
    page.until(stop);
    return;
  }
  if (action === 'stop') {
    const ending = await relay.stop(key);
    return ending ? sendJson(res, 200, { outcome: ending.outcome }, noStore) : none();
  }
  if (!(await relay.forget(key))) return none();
  res.writeHead(204, noStore).end();
}
