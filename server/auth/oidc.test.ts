import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcConfig } from './config.ts';
import { OidcSignIn } from './oidc.ts';
import { startOidcProvider, type TestOidcProvider } from './testing/oidcProvider.ts';
import { loginAtProvider } from './testing/providerLogin.ts';

const callback = 'http://127.0.0.1:1/auth/callback';
let provider: TestOidcProvider;
let settings: OidcConfig;

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [callback] });
  settings = {
    issuer: new URL(provider.issuer),
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUri: new URL(callback),
    adminClaim: { claim: 'groups', value: 'hopbase-admins' },
  };
});
afterAll(() => provider.close());

describe('OpenID Connect sign-in against a real provider', () => {
  it('signs a person in with PKCE, state and nonce, and says who they are', async () => {
    const signIn = new OidcSignIn(settings, new Set());
    const { url, pending } = await signIn.begin('/c/conv_1');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(pending.state);
    const back = await loginAtProvider(url, 'alice', callback);
    expect(await signIn.finish(back, pending)).toEqual({
      issuer: provider.issuer,
      subject: 'alice',
      email: 'alice@example.test',
      name: 'Alice',
      admin: false,
    });
  });

  it('makes administrators from the claim and from HOPBASE_ADMINS', async () => {
    const byList = new OidcSignIn({ ...settings, adminClaim: null }, new Set(['bob@example.test']));
    const asBob = await byList.begin('/');
    expect(
      (await byList.finish(await loginAtProvider(asBob.url, 'bob', callback), asBob.pending)).admin,
    ).toBe(true);
    const byClaim = new OidcSignIn(settings, new Set());
    const asAdmin = await byClaim.begin('/');
    const admin = await byClaim.finish(
      await loginAtProvider(asAdmin.url, 'admin-carol', callback),
      asAdmin.pending,
    );
    expect(admin).toMatchObject({ email: 'admin-carol@example.test', admin: true });
  });

  it('refuses an answer that belongs to another sign-in (state), and a code used twice', async () => {
    const signIn = new OidcSignIn(settings, new Set());
    const first = await signIn.begin('/');
    const second = await signIn.begin('/');
    const back = await loginAtProvider(first.url, 'alice', callback);
    const wrong = await signIn.finish(back, second.pending).catch((error: unknown) => error);
    expect(String((wrong as Error).cause)).toMatch(/"state"/);
    await signIn.finish(back, first.pending);
    await expect(signIn.finish(back, first.pending)).rejects.toThrow();
  });

  it('fails a sign-in while the provider cannot be reached, and works once it can', async () => {
    const later = await startOidcProvider({ redirectUris: [callback] });
    const address = new URL(later.issuer);
    await later.close();
    const signIn = new OidcSignIn({ ...settings, issuer: address }, new Set());
    await expect(signIn.begin('/')).rejects.toThrow();
    const again = await startOidcProvider({ redirectUris: [callback], port: Number(address.port) });
    try {
      const { url } = await signIn.begin('/');
      expect(url.origin).toBe(address.origin);
    } finally {
      await again.close();
    }
  });
});
