import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Storage } from '../db/storage.ts';
import { startTimeout } from '../db/testing.ts';
import { authConfigFromEnv } from './config.ts';
import { authRoutes } from './routes.ts';
import { TeamAuth, type TeamConfig } from './teamAuth.ts';
import { startOidcProvider, type TestOidcProvider } from './testing/oidcProvider.ts';
import { loginAtProvider } from './testing/providerLogin.ts';

let storage: Storage;
let provider: TestOidcProvider;
const servers: Server[] = [];

/** A port of this app's own; its routes come once the settings (which name the port) are known. */
async function listen() {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function mount({ server, base }: { server: Server; base: string }, env: NodeJS.ProcessEnv) {
  const auth = new TeamAuth(authConfigFromEnv(env) as TeamConfig, storage);
  server.on('request', getRequestListener(authRoutes(auth, () => {}).fetch));
  return { base, auth };
}

async function serve(env: NodeJS.ProcessEnv) {
  return mount(await listen(), env);
}

let app: { base: string };

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith('hopbase-session='))
    ?.split(';')[0];

beforeAll(async () => {
  storage = await Storage.open({ engine: 'pglite', dataDir: null });
  // The provider must know the callback's address, so the port comes first.
  const listening = await listen();
  provider = await startOidcProvider({ redirectUris: [`${listening.base}/auth/callback`] });
  app = mount(listening, {
    HOPBASE_AUTH: 'oidc',
    HOPBASE_PUBLIC_URL: listening.base,
    HOPBASE_OIDC_ISSUER: provider.issuer,
    HOPBASE_OIDC_CLIENT_ID: provider.clientId,
    HOPBASE_OIDC_CLIENT_SECRET: provider.clientSecret,
  });
}, startTimeout);

afterAll(async () => {
  for (const server of servers) server.close();
  await provider?.close();
  await storage?.close();
});

/** Signs `login` in through the provider's page; the callback's answer. */
async function signIn(login: string, returnTo = '/', cookie?: string) {
  const begun = await fetch(`${app.base}/auth/sign-in?return=${encodeURIComponent(returnTo)}`, {
    redirect: 'manual',
  });
  expect(begun.status).toBe(302);
  const callback = await loginAtProvider(
    new URL(begun.headers.get('location') ?? ''),
    login,
    `${app.base}/auth/callback`,
  );
  const back = await fetch(callback, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { back, callback };
}

const me = (cookie?: string) => fetch(`${app.base}/api/me`, { headers: cookie ? { cookie } : {} });

describe('OpenID sign-in, sessions and sign-out', () => {
  it('signs in through the provider, with a session cookie no script can read, and back where the person was going', async () => {
    expect((await me()).status).toBe(401);
    const { back } = await signIn('alice', '/c/conv_1');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/c/conv_1');
    const [setCookie] = back.headers.getSetCookie();
    expect(setCookie).toMatch(/^hopbase-session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const answer = await me(sessionCookie(back));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      mode: 'oidc',
      user: { email: 'alice@example.test', name: 'Alice', admin: false },
    });
  });

  it('never goes back to another site after sign-in', async () => {
    for (const evil of ['//evil.example/', 'https://evil.example/', '/\\evil.example'])
      expect((await signIn('alice', evil)).back.headers.get('location')).toBe('/');
  });

  it('takes each answer of the provider once', async () => {
    const { callback } = await signIn('alice');
    const again = await fetch(callback, { redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toMatch(/expired or was already used/);
  });

  it('refuses a made-up answer', async () => {
    const forged = await fetch(`${app.base}/auth/callback?code=abc&state=${'x'.repeat(43)}`, {
      redirect: 'manual',
    });
    expect(forged.status).toBe(400);
  });

  it('gives a new session at each sign-in, ending the one before', async () => {
    const first = sessionCookie((await signIn('alice')).back);
    const second = sessionCookie((await signIn('alice', '/', first)).back);
    expect(second).not.toBe(first);
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(200);
  });

  it('signs out only from its own page, and the session is gone everywhere', async () => {
    const cookie = sessionCookie((await signIn('bob')).back) ?? '';
    const from = (headers: Record<string, string>) =>
      fetch(`${app.base}/auth/sign-out`, { method: 'POST', headers: { cookie, ...headers } });
    expect((await from({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await from({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await from({})).status).toBe(403);
    expect((await me(cookie)).status).toBe(200);
    const out = await from({ 'sec-fetch-site': 'same-origin' });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^hopbase-session=;.*Max-Age=0/);
    expect((await me(cookie)).status).toBe(401);
  });

  it('knows nobody by a cookie it did not give', async () => {
    for (const cookie of [
      'hopbase-session=',
      `hopbase-session=${'A'.repeat(43)}`,
      'hopbase-session=%00',
      'other=1',
    ])
      expect((await me(cookie)).status).toBe(401);
  });
});

describe('behind an authenticating proxy', () => {
  const headerEnv = (trusted?: string) => ({
    HOPBASE_AUTH: 'header',
    HOPBASE_ADMINS: 'boss@example.test',
    ...(trusted && { HOPBASE_TRUSTED_PROXIES: trusted }),
  });

  it('is the person the proxy names, from a trusted address only', async () => {
    const loopback = await serve(headerEnv());
    const named = await fetch(`${loopback.base}/api/me`, {
      headers: { 'x-forwarded-email': 'Boss@Example.test' },
    });
    expect(await named.json()).toEqual({
      mode: 'header',
      user: { email: 'boss@example.test', name: null, admin: true },
    });
    expect((await fetch(`${loopback.base}/api/me`)).status).toBe(401);

    const elsewhere = await serve(headerEnv('10.0.0.1'));
    const untrusted = await fetch(`${elsewhere.base}/api/me`, {
      headers: { 'x-forwarded-email': 'boss@example.test' },
    });
    expect(untrusted.status).toBe(401);
  });
});
