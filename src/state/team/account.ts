import * as v from 'valibot';
import { jsonOf } from './json.ts';

/**
 * Who the page is for, asked before the first screen: all of team mode the page needs before it knows
 * that it is in team mode. The rest (`teamApi.ts`, the sync) is fetched only when it is.
 */

const person = v.object({
  email: v.string(),
  name: v.nullish(v.string()),
  admin: v.boolean(),
});
export type Person = { email: string; name: string | null; admin: boolean };

const authMode = v.picklist(['oidc', 'header']);
type AuthMode = v.InferOutput<typeof authMode>;

/** Who the page is for: single-person mode, or team mode signed in or not. */
export type Account = { mode: 'single' } | { mode: 'team'; auth: AuthMode; person: Person | null };

const me = v.object({ mode: authMode, user: person });
const notSignedIn = v.object({ mode: authMode });

/**
 * Who this page is for. A server without team mode has no `/api/me` (404, or the app's own page from a
 * dev server): single-person mode. Team mode answers JSON, 401 with its mode when nobody is signed in.
 */
export async function accountHere(
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
): Promise<Account> {
  let response: Response;
  try {
    response = await fetchFn('/api/me', { headers: { accept: 'application/json' } });
  } catch {
    return { mode: 'single' };
  }
  const body = await jsonOf(response);
  if (response.ok) {
    const read = v.safeParse(me, body);
    if (read.success) return { mode: 'team', auth: read.output.mode, person: personOf(read.output.user) };
  }
  if (response.status === 401) {
    const read = v.safeParse(notSignedIn, body);
    if (read.success) return { mode: 'team', auth: read.output.mode, person: null };
  }
  return { mode: 'single' };
}

function personOf(user: v.InferOutput<typeof person>): Person {
  return { email: user.email, name: user.name ?? null, admin: user.admin };
}
