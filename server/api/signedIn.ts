import type { MiddlewareHandler } from 'hono';
import { type AuthEnv, personOf } from '../auth/routes.ts';
import type { TeamAuth } from '../auth/teamAuth.ts';
import type { Person, Storage } from '../db/storage.ts';
import { mayServePersonalData } from '../security.ts';

export type ApiEnv = AuthEnv & { Variables: { person: Person } };

const noStore = { 'cache-control': 'no-store' };

/**
 * The guard of every route that serves a person's data (`/api/*`): the person is known only from their
 * session (the cookie, or the trusted proxy's header) and their repositories are bound to them, so no id
 * in a path or body can name someone else's data. Another site's page gets nothing, and whatever changes
 * something comes from the app's own page. Nothing personal is kept by a cache.
 */
export function signedIn(auth: TeamAuth, storage: Storage): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const user = await personOf(auth, c.env.incoming);
    if (!user) return c.json({ error: 'Not signed in.' }, 401, noStore);
    if (!mayServePersonalData(c.env.incoming))
      return c.json({ error: 'Cross-site request refused.' }, 403, noStore);
    c.set('person', storage.forUser(user.id));
    c.header('cache-control', 'no-store');
    await next();
  };
}
