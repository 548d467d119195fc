import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID provider (panva's oidc-provider) for the tests, on loopback. Its sign-in page takes any
 * login with any password: `alice` signs in as alice@example.test; a login with an @ is that email; a login
 * starting with `admin` is also in the `hopbase-admins` group. Consent is given at once.
 */
export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  close(): Promise<void>;
}

function claimsOf(login: string) {
  const email = login.includes('@') ? login : `${login}@example.test`;
  return {
    sub: login,
    email,
    email_verified: true,
    name: login.charAt(0).toUpperCase() + login.slice(1),
    groups: login.startsWith('admin') ? ['hopbase-admins'] : [],
  };
}

export async function startOidcProvider(options: {
  redirectUris: string[];
  port?: number;
}): Promise<TestOidcProvider> {
  const clientId = 'hopbase-chat';
  const clientSecret = 'hopbase-test-secret';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({
      accountId: id,
      claims: () => claimsOf(id),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    cookies: { keys: ['hopbase-test-provider-cookies'] },
    // Consent given at once: the tests sign in, they do not study consent screens.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grantId = oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: {
      Session: 3600,
      Interaction: 600,
      Grant: 3600,
      AccessToken: 3600,
      IdToken: 3600,
      AuthorizationCode: 600,
    },
  });
  // Quiet: the provider warns that its sign-in page is for development, which is what it is here.
  provider.on('server_error', (_ctx, error) => console.error('test OIDC provider:', error));
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
