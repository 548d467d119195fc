import type { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { parse } from 'hono/utils/cookie';
import type { User } from '../db/users.ts';
import { mayServePersonalData, requestSource } from '../security.ts';
import { safeReturnPath } from './identity.ts';
import type { TeamAuth } from './teamAuth.ts';

export type AuthEnv = { Bindings: HttpBindings };

const noStore = { 'cache-control': 'no-store' };

/** What the page shows of a person (never their ids at the provider). */
function profile(user: User) {
  return { email: user.email, name: user.displayName, admin: user.isAdmin };
}

/** A short page for the browser, in plain words: these URLs are opened by people, not by the app's code. */
function page(c: Context, status: 400 | 502, text: string) {
  const escaped = text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return c.html(
    `<!doctype html><meta charset="utf-8"><title>HopBase Chat</title><p>${escaped}</p><p><a href="/auth/sign-in">Sign in again</a></p>`,
    status,
    noStore,
  );
}

/**
 * Sign-in, sign-out and "who am I" (`/auth/*`, `/api/me`), and `signedIn`, the guard of every route that
 * serves a person's data. The session cookie is `HttpOnly` (no script reads it), `SameSite=Lax` (no other
 * site's form or fetch sends it), `Secure` behind HTTPS.
 */
export function authRoutes(auth: TeamAuth, log: (line: string) => void): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const token = (c: Context<AuthEnv>) => getCookie(c, auth.cookieName);
  const cookieOptions = { httpOnly: true, sameSite: 'Lax', path: '/', secure: auth.secureCookie } as const;

  app.get('/auth/sign-in', async (c) => {
    const returnTo = safeReturnPath(c.req.query('return'));
    // Behind an authenticating proxy, whoever reaches this is signed in already.
    if (!auth.oidc) return c.redirect(returnTo, 303);
    try {
      const { url, pending } = await auth.oidc.begin(returnTo);
      await auth.storage.signIns.put(pending);
      c.header('cache-control', 'no-store');
      return c.redirect(url.href, 302);
    } catch (error) {
      log(`sign-in: the OpenID provider could not be reached (${String(error)})`);
      return page(c, 502, 'The sign-in provider could not be reached. Try again in a moment.');
    }
  });

  app.get('/auth/callback', async (c) => {
    if (!auth.oidc || auth.config.mode !== 'oidc') return c.notFound();
    const pending = await auth.storage.signIns.take(c.req.query('state') ?? '');
    if (!pending) return page(c, 400, 'This sign-in has expired or was already used.');
    // The provider's answer, checked against the address it was sent back to (the configured one).
    const callback = new URL(auth.config.oidc.redirectUri);
    callback.search = new URL(c.req.url).search;
    let identity: Awaited<ReturnType<typeof auth.oidc.finish>>;
    try {
      identity = await auth.oidc.finish(callback, pending);
    } catch (error) {
      log(
        `sign-in refused: ${String(error)}${error instanceof Error && error.cause ? ` (${String(error.cause)})` : ''}`,
      );
      return page(c, 400, 'The sign-in could not be completed.');
    }
    const { token: fresh } = await auth.signIn(identity, token(c));
    setCookie(c, auth.cookieName, fresh, {
      ...cookieOptions,
      maxAge: Math.floor(auth.config.sessionMs / 1000),
    });
    c.header('cache-control', 'no-store');
    return c.redirect(pending.returnTo, 303);
  });

  app.post('/auth/sign-out', async (c) => {
    if (requestSource(c.env.incoming) !== 'same-origin')
      return c.json({ error: 'Cross-site request refused.' }, 403);
    const current = token(c);
    if (current) await auth.storage.sessions.revoke(current);
    deleteCookie(c, auth.cookieName, cookieOptions);
    return c.body(null, 204, noStore);
  });

  app.get('/api/me', async (c) => {
    const user = await personOf(auth, c.env.incoming);
    if (!user) return c.json({ error: 'Not signed in.', mode: auth.config.mode }, 401, noStore);
    if (!mayServePersonalData(c.env.incoming))
      return c.json({ error: 'Cross-site request refused.' }, 403, noStore);
    return c.json({ mode: auth.config.mode, user: profile(user) }, 200, noStore);
  });

  return app;
}

/** The person a request is from, if signed in. */
export function personOf(auth: TeamAuth, incoming: IncomingMessage): Promise<User | undefined> {
  const cookies = parse(incoming.headers.cookie ?? '', auth.cookieName);
  return auth.personOf(incoming.socket.remoteAddress, incoming.headers, cookies[auth.cookieName]);
}
