import * as client from 'openid-client';
import type { PendingSignIn } from '../db/signIns.ts';
import { isLoopbackUrl, type OidcConfig } from './config.ts';
import { type Identity, normalEmail } from './identity.ts';

const SCOPE = 'openid email profile';

/** Whether the claim holds `value`, as a string or in a list. */
function claimHolds(claims: Record<string, unknown>, claim: string, value: string): boolean {
  const held = claims[claim];
  return Array.isArray(held) ? held.includes(value) : held === value;
}

/**
 * OpenID Connect sign-in (authorization code with PKCE, state and nonce) through openid-client. The
 * provider's metadata is read on the first sign-in and kept; if the provider cannot be reached, that
 * sign-in fails and the next one tries again (the server starts whether or not the provider is up).
 */
export class OidcSignIn {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    private readonly settings: OidcConfig,
    private readonly admins: ReadonlySet<string>,
  ) {}

  /** The provider's address to send the person to, and what to keep until they come back. */
  async begin(returnTo: string): Promise<{ url: URL; pending: PendingSignIn }> {
    const config = await this.config();
    const verifier = client.randomPKCECodeVerifier();
    const pending: PendingSignIn = {
      state: client.randomState(),
      verifier,
      nonce: client.randomNonce(),
      returnTo,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri.href,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  /** Checks the provider's answer (`callback`, the URL it sent the person back to) and says who signed in. */
  async finish(callback: URL, pending: PendingSignIn): Promise<Identity> {
    const config = await this.config();
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('The provider sent no ID token.');
    let claims: Record<string, unknown> = idClaims;
    // Many providers keep the email and name out of the ID token: ask the user info endpoint for them.
    if (claims.email === undefined || claims.name === undefined) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...info, ...idClaims };
    }
    // An address the provider says it has not verified names nobody: it cannot make anyone an administrator.
    const email = claims.email_verified === false ? null : normalEmail(claims.email);
    const { adminClaim } = this.settings;
    return {
      issuer: idClaims.iss,
      subject: idClaims.sub,
      email,
      name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : null,
      admin:
        (email !== null && this.admins.has(email)) ||
        (adminClaim !== null && claimHolds(claims, adminClaim.claim, adminClaim.value)),
    };
  }

  private config(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    this.configuration ??= client
      .discovery(issuer, clientId, clientSecret, undefined, {
        // Plain http only for a provider on this machine (a test's, a developer's).
        ...(isLoopbackUrl(issuer) &&
          issuer.protocol === 'http:' && { execute: [client.allowInsecureRequests] }),
      })
      .catch((error: unknown) => {
        this.configuration = null;
        throw error;
      });
    return this.configuration;
  }
}
